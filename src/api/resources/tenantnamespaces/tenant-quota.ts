import type { ResourceQuota, Tenant, TenantNamespaceShare } from '../../../kube/types';
import { quantityEqual } from '../../../tenancy/quantity-equal';
import { hasTenantQuota, isShare } from '../../../tenancy/quota/share';

/**
 * `status.tenantQuota` of a TenantNamespace: the namespace's share of its Tenant's `spec.quota` (SPEC
 * §11), read from its ResourceQuota `paddock-tenant-quota`. Undefined when the Tenant has no budget (a
 * share left from a removed budget is being deleted and limits nothing the Tenant asks for).
 *
 * - `share` is the share's `status.hard`: what kube-apiserver's quota admission enforces. Paddock
 *   writes `spec.hard`; kube-controller-manager copies it to `status.hard` moments later, and until then
 *   the old amount is the one in force.
 * - `used` is the share's `status.used`, as quota admission and the quota controller count it.
 * - `pending`, present only while the two differ, holds each amount of `spec.hard` not yet in force
 *   (changed, or new to the share).
 *
 * A share that is missing, or not synced yet, shows an empty `share`: nothing of it is in force, and
 * kube-apiserver refuses every create in the namespace until it is (tenancy/quota/share-guard.ts).
 * Keys are sorted. Pure.
 */
export function tenantQuotaOf(tenant: Tenant | undefined, quotas: readonly ResourceQuota[]): TenantNamespaceShare | undefined {
  if (!tenant || !hasTenantQuota(tenant)) return undefined;
  const quota = quotas.find(isShare);
  const inForce = quota?.status?.hard ?? {};
  const pending: Record<string, string> = {};
  for (const [resource, amount] of Object.entries(quota?.spec?.hard ?? {})) {
    const current = inForce[resource];
    // kube-controller-manager copies the amount as written: equal text is the common case, parsed only when not.
    if (current === undefined || (current !== String(amount) && !quantityEqual(current, amount))) pending[resource] = String(amount);
  }
  const summary: TenantNamespaceShare = { share: sorted(inForce), used: sorted(quota?.status?.used ?? {}) };
  if (Object.keys(pending).length > 0) summary.pending = sorted(pending);
  return summary;
}

function sorted(values: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]!]));
}
