import { Gauge } from 'prom-client';
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
 * Per-tenant metrics, computed from the cache when scraped (nothing is kept between scrapes, so a deleted
 * Tenant's series vanish with it). Cardinality is bounded: exactly one series per Tenant for each of the
 * three per-tenant gauges, and one per phase for the count. Every replica exports them from its own
 * cache; aggregate with `max by (tenant)`.
 */
export function registerTenantMetrics(read: () => readonly TenantSample[]): void {
  new Gauge({
    name: 'paddock_tenants',
    help: 'Tenants by status.phase.',
    labelNames: ['phase'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const phase of ['Pending', 'Active', 'Degraded', 'Terminating']) this.set({ phase }, 0);
      for (const s of read()) this.inc({ phase: s.phase });
    },
  });
  perTenant('paddock_tenant_ready', 'Whether the Tenant\'s Ready condition is True (1) or not (0).', read, (s) => s.ready);
  perTenant('paddock_tenant_namespaces', 'Namespaces the Tenant has.', read, (s) => s.namespaces);
  perTenant('paddock_tenant_quota_used_ratio', 'The highest used/hard of any resource in any ResourceQuota of the Tenant\'s namespaces.', read, (s) => s.quotaUsedRatio);
}

function perTenant(name: string, help: string, read: () => readonly TenantSample[], value: (s: TenantSample) => number): void {
  new Gauge({
    name, help, labelNames: ['tenant'] as const, registers: [registry],
    collect() {
      this.reset();
      for (const s of read()) this.set({ tenant: s.tenant }, value(s));
    },
  });
}
