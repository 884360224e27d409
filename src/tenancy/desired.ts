/**
 * Tenant → everything Paddock wants to exist for it. Level-based: the result depends only on the
 * Tenant and the self-service namespace names, never on what the cluster holds, so the reconciler can
 * recompute it on every pass and apply only what differs.
 */
import type { Namespace, Tenant } from '../kube/types';
import { desiredGuardrails, type Guardrail } from './guardrails';
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
  /** Quotas, limits, policies and role bindings, in that order. */
  guardrails: Guardrail[];
}

/** A Tenant that can be applied. */
export interface ValidDesiredState {
  valid: true;
  tenant: string;
  /** Within namespaceQuota: declared in spec order, then self-service sorted by name. */
  namespaces: DesiredNamespace[];
  /** Names not to be created because of namespaceQuota, in the same order. */
  overQuota: string[];
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
 * The desired state of `tenant`. `selfService` are the names of the namespaces created for it through
 * TenantNamespaces; names that are not `<tenant>-…` DNS labels, or that are also declared, are ignored.
 * Never throws: problems the CRD schema cannot catch come back as {@link InvalidDesiredState}.
 */
export function desiredState(tenant: Tenant, selfService: readonly string[]): DesiredState {
  const name = tenant?.metadata?.name ?? '';
  const problems = validateTenant(tenant);
  if (problems.length > 0) return { valid: false, tenant: name, problems };
  const ordered = orderedNamespaces(tenant, selfService);
  const quota = tenant.spec.namespaceQuota ?? Infinity;
  const kept = ordered.slice(0, quota);
  return {
    valid: true,
    tenant: name,
    namespaces: kept.map(([ns, origin]) => ({ name: ns, origin, namespace: desiredNamespace(tenant, ns), guardrails: desiredGuardrails(tenant, ns) })),
    overQuota: ordered.slice(quota).map(([ns]) => ns),
  };
}

/** Declared names (as `<tenant>-<name>`) in spec order, then the remaining self-service names sorted. */
function orderedNamespaces(tenant: Tenant, selfService: readonly string[]): [string, NamespaceOrigin][] {
  const prefix = `${tenant.metadata.name}-`;
  const declared = (tenant.spec.namespaces ?? []).map((n) => declaredNamespaceName(tenant.metadata.name, n));
  const taken = new Set(declared);
  const extra = [...new Set(selfService)].filter((n) => n.startsWith(prefix) && n.length > prefix.length && isDns1123Label(n) && !taken.has(n)).sort();
  return [...declared.map((n): [string, NamespaceOrigin] => [n, 'declared']), ...extra.map((n): [string, NamespaceOrigin] => [n, 'self-service'])];
}
