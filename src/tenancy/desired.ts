/**
 * Tenant → everything Paddock wants to exist for it. Level-based: the result depends only on the
 * Tenant and the self-service namespace names, never on what the cluster holds, so the reconciler can
 * recompute it on every pass and apply only what differs.
 */
import type { Namespace, Tenant } from '../kube/types';
import { bindableOnly, DEFAULT_BINDABLE_CLUSTER_ROLES, unbindable, type BindableClusterRoles } from './bindable';
import type { Guardrail } from './guardrails/kind';
import { desiredGuardrails } from './guardrails/registry';
import { declaredNamespaceName } from './names';
import { desiredNamespace } from './namespace';
import { isDns1123Label } from './syntax';
import { validateTenant, type SpecProblem } from './validate';

/** How a namespace came to belong to a tenant. */
export type NamespaceOrigin = 'declared' | 'self-service';

/** One namespace of a tenant and all the objects Paddock keeps in it. */
export interface DesiredNamespace {
  name: string;
  origin: NamespaceOrigin;
  namespace: Namespace;
  /** The objects of each namespace guardrail kind, in the order of the kinds (guardrails/registry.ts). */
  guardrails: Guardrail[];
}

/** A Tenant that can be applied. */
export interface ValidDesiredState {
  valid: true;
  tenant: string;
  /** The claimed namespaces still wanted: declared in spec order, then self-service sorted by name. */
  namespaces: DesiredNamespace[];
  /** Items of spec.additionalRoleBindings left unbound: their cluster roles are not bindable here (bindable.ts). */
  unbindable: SpecProblem[];
}

/**
 * A Tenant that must not be applied: the reconciler creates, changes and deletes nothing for it and
 * reports `Ready=False, reason InvalidSpec`.
 */
export interface InvalidDesiredState {
  valid: false;
  tenant: string;
  problems: SpecProblem[];
}

export type DesiredState = ValidDesiredState | InvalidDesiredState;

/**
 * The desired state of `tenant`, for the namespace names it has claimed (see claims.ts: quota and
 * ownership are decided there). A claimed name that is no longer declared and was not self-service is
 * not wanted; names that are not `<tenant>-…` DNS labels are ignored. Never throws: problems the CRD
 * schema cannot catch come back as {@link InvalidDesiredState}.
 *
 * `bindable`: the cluster roles this installation lets Paddock bind (by default, the shipped list). An
 * additional role binding of any other role is not a fault of the spec alone — the installation decides
 * — so it does not make the Tenant invalid: it is left unbound and reported, and the rest is applied.
 */
export function desiredState(
  tenant: Tenant,
  claimed: readonly { name: string; origin: 'Declared' | 'SelfService' }[],
  bindable: BindableClusterRoles = { listed: DEFAULT_BINDABLE_CLUSTER_ROLES },
): DesiredState {
  const name = tenant?.metadata?.name ?? '';
  const problems = validateTenant(tenant);
  if (problems.length > 0) return { valid: false, tenant: name, problems };
  const bound = bindableOnly(tenant, bindable);
  return {
    valid: true,
    tenant: name,
    namespaces: wantedNamespaces(tenant, claimed).map(([ns, origin]) => ({ name: ns, origin, namespace: desiredNamespace(tenant, ns), guardrails: desiredGuardrails(bound, ns) })),
    unbindable: unbindable(tenant, bindable),
  };
}

/** Claimed declared names in spec order, then claimed self-service names (not also declared) sorted. */
function wantedNamespaces(tenant: Tenant, claimed: readonly { name: string; origin: 'Declared' | 'SelfService' }[]): [string, NamespaceOrigin][] {
  const prefix = `${tenant.metadata.name}-`;
  const names = new Set(claimed.map((c) => c.name));
  const declared = (tenant.spec.namespaces ?? []).map((n) => declaredNamespaceName(tenant.metadata.name, n));
  const taken = new Set(declared);
  const selfService = [...new Set(claimed
    .filter((c) => c.origin === 'SelfService' && c.name.startsWith(prefix) && c.name.length > prefix.length && isDns1123Label(c.name) && !taken.has(c.name))
    .map((c) => c.name))]
    .sort();
  return [
    ...declared.filter((n) => names.has(n)).map((n): [string, NamespaceOrigin] => [n, 'declared']),
    ...selfService.map((n): [string, NamespaceOrigin] => [n, 'self-service']),
  ];
}
