/**
 * The guardrail kinds (see kind.ts), in the order they are applied. Adding a kind is adding its module
 * and one line here; the cache, the reconciler, the writer, drift detection and the generated RBAC
 * follow from the list.
 */
import type { Tenant } from '../../kube/types';
import type { Guardrail, GuardrailKind } from './kind';
import { limitRanges } from './limit-range';
import { networkPolicies } from './network-policy';
import { resourceQuotas } from './resource-quota';
import { roleBindings } from './role-binding';
import { tenantRestrictions } from './tenant-restriction';

/**
 * Kinds kept in every tenant namespace: what kube-apiserver's admission policies read first (a change of
 * restrictions takes effect before anything else of the pass is written), then quotas, limits, network
 * policies and the owners' role bindings.
 */
export const GUARDRAILS: readonly GuardrailKind[] = [tenantRestrictions, resourceQuotas, limitRanges, networkPolicies, roleBindings];

const BY_KIND = new Map<string, GuardrailKind>(GUARDRAILS.map((g) => [g.resource.kind, g]));

/** The guardrail kind whose objects are of `kind` (`ResourceQuota`), if there is one. */
export function guardrailKind(kind: string | undefined): GuardrailKind | undefined {
  return kind === undefined ? undefined : BY_KIND.get(kind);
}

/** The guardrails `tenant` wants in its namespace `namespace`: each kind's, in the order of the kinds. */
export function desiredGuardrails(tenant: Tenant, namespace: string): Guardrail[] {
  return GUARDRAILS.flatMap((kind) => kind.desired(tenant, namespace));
}
