/**
 * The guardrail kinds (see kind.ts), in the order they are applied. Adding a kind is adding its module
 * and one line here; the cache, the reconciler, the writer, drift detection and the generated RBAC
 * follow from the list.
 */
import type { Tenant } from '../../kube/types';
import type { AdmissionObject } from '../admission-policies';
import { defaultsBindings, restrictionsBindings } from './admission-bindings';
import type { Guardrail, GuardrailKind, NamespaceGuardrail, TenantGuardrail } from './kind';
import { limitRanges } from './limit-range';
import { networkPolicies } from './network-policy';
import { resourceQuotas } from './resource-quota';
import { roleBindings } from './role-binding';

/** Kinds kept in every tenant namespace: quotas, limits, network policies, the owners' role bindings. */
export const NAMESPACE_GUARDRAILS: readonly NamespaceGuardrail[] = [resourceQuotas, limitRanges, networkPolicies, roleBindings];

/** Kinds kept once per tenant: the bindings of the admission policies, restrictions first. */
export const TENANT_GUARDRAILS: readonly TenantGuardrail<AdmissionObject>[] = [restrictionsBindings, defaultsBindings];

export const GUARDRAILS: readonly GuardrailKind[] = [...NAMESPACE_GUARDRAILS, ...TENANT_GUARDRAILS];

const BY_KIND = new Map<string, GuardrailKind>(GUARDRAILS.map((g) => [g.resource.kind, g]));

/** The guardrail kind whose objects are of `kind` (`ResourceQuota`), if there is one. */
export function guardrailKind(kind: string | undefined): GuardrailKind | undefined {
  return kind === undefined ? undefined : BY_KIND.get(kind);
}

/** The guardrails `tenant` wants in its namespace `namespace`: each kind's, in the order of the kinds. */
export function desiredGuardrails(tenant: Tenant, namespace: string): Guardrail[] {
  return NAMESPACE_GUARDRAILS.flatMap((kind) => kind.desired(tenant, namespace));
}
