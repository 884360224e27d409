import type { Metric, Registry } from 'prom-client';
import { registry } from './registry';

/** What a replica's cache says of one Tenant, read at each scrape. */
export interface TenantSample {
  readonly tenant: string;
  /** status.phase, or Pending before the first pass. */
  readonly phase: string;
  /** 1 when the Ready condition is True, else 0. */
  readonly ready: 0 | 1;
  readonly namespaces: number;
  /** The highest used/hard of any resource in any quota of its namespaces (0 with no quota). */
  readonly quotaUsedRatio: number;
}

/**
 * Per-tenant metrics, computed from the cache when scraped and kept nowhere: a deleted Tenant's series
 * vanish with it, and no series is held between scrapes (a prom-client Gauge keeps the values its collect
 * set in a map of its own until the next scrape: for three gauges at 2,000 Tenants, about 0.8 MiB held
 * for nothing). Cardinality is bounded: exactly one series per Tenant for each of the three per-tenant
 * gauges, and one per phase for the count. The cache is read once per scrape for all four. Every replica
 * exports them from its own cache; aggregate with `max by (tenant)`.
 */
export function registerTenantMetrics(read: () => readonly TenantSample[], into: Registry = registry): void {
  const samples = oncePerScrape(read);
  into.registerMetric(scrapedGauge('paddock_tenants', 'Tenants by status.phase.', ['phase'], () => {
    const counts = new Map(['Pending', 'Active', 'Degraded', 'Terminating'].map((phase) => [phase, 0]));
    for (const s of samples()) counts.set(s.phase, (counts.get(s.phase) ?? 0) + 1);
    return [...counts].map(([phase, value]) => ({ labels: { phase }, value }));
  }));
  const perTenant = (name: string, help: string, value: (s: TenantSample) => number) =>
    into.registerMetric(scrapedGauge(name, help, ['tenant'], () => samples().map((s) => ({ labels: { tenant: s.tenant }, value: value(s) }))));
  perTenant('paddock_tenant_ready', 'Whether the Tenant\'s Ready condition is True (1) or not (0).', (s) => s.ready);
  perTenant('paddock_tenant_namespaces', 'Namespaces the Tenant has.', (s) => s.namespaces);
  perTenant('paddock_tenant_quota_used_ratio', 'The highest used/hard of any resource in any ResourceQuota of the Tenant\'s namespaces.', (s) => s.quotaUsedRatio);
}

type Values = { labels: Record<string, string>; value: number }[];

/** A gauge that prom-client's registry reads through `get()` at each scrape, its values made then and dropped after. */
function scrapedGauge(name: string, help: string, labelNames: readonly string[], values: () => Values): Metric {
  const gauge = {
    name, help, labelNames, type: 'gauge', aggregator: 'max',
    get: async () => ({ name, help, type: 'gauge', aggregator: 'max', values: values() }),
    reset: () => {},
  };
  return gauge as unknown as Metric;
}

/**
 * `read`, called at most once per scrape: a scrape asks every metric for its values in one turn of the
 * event loop, so the samples are kept until the microtasks of that turn have run, then dropped.
 */
function oncePerScrape<T>(read: () => T): () => T {
  let held: { value: T } | undefined;
  return () => {
    if (!held) {
      held = { value: read() };
      queueMicrotask(() => { held = undefined; });
    }
    return held.value;
  };
}
