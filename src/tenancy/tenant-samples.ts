import type { PaddockCache } from '../cache/paddock-cache';
import type { ResourceQuota, Tenant } from '../kube/types';
import type { TenantSample } from '../metrics/tenants';
import { parseQuantityText } from '../quantity/parse';

/** The per-tenant metrics' reading of the cache (src/metrics/tenants.ts): one sample per cached Tenant. */
export function tenantSamples(cache: PaddockCache): TenantSample[] {
  return cache.tenants.store.list().map((t) => tenantSample(t, cache.namespacesOf(t.metadata.name!).map((n) => cache.quotasIn(n.metadata.name!)).flat()));
}

export function tenantSample(tenant: Tenant, quotas: readonly ResourceQuota[]): TenantSample {
  const ready = tenant.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? 1 : 0;
  return {
    tenant: tenant.metadata.name!,
    phase: tenant.status?.phase ?? 'Pending',
    ready,
    namespaces: tenant.status?.namespaces?.length ?? 0,
    quotaUsedRatio: Math.max(0, ...quotas.map(usedRatio)),
  };
}

/** The highest used/hard over a quota's resources; a resource without a parseable, positive hard counts 0. */
export function usedRatio(quota: ResourceQuota): number {
  const { hard = {}, used = {} } = quota.status ?? {};
  return Math.max(0, ...Object.entries(hard).map(([resource, limit]) => {
    const h = numeric(limit), u = numeric(used[resource]);
    return h !== undefined && h > 0 && u !== undefined ? u / h : 0;
  }));
}

function numeric(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  try {
    const q = parseQuantityText(text);
    return Number(q.unscaled) * 10 ** q.exponent;
  } catch {
    return undefined;
  }
}
