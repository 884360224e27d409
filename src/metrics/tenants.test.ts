import { Registry } from 'prom-client';
import { registerTenantMetrics, type TenantSample } from './tenants';

const sample = (tenant: string, phase = 'Active'): TenantSample => ({ tenant, phase, ready: 1, namespaces: 3, quotaUsedRatio: 0.5 });

describe('per-tenant metrics', () => {
  it('reads the cache once per scrape for all four gauges, and keeps no series of a Tenant gone since', async () => {
    const registry = new Registry();
    let tenants = [sample('oil'), sample('gas', 'Degraded')];
    let reads = 0;
    registerTenantMetrics(() => (reads++, tenants), registry);
    const first = await registry.metrics();
    expect(reads).toBe(1);
    expect(first).toContain('paddock_tenant_ready{tenant="oil"} 1');
    expect(first).toContain('paddock_tenant_namespaces{tenant="gas"} 3');
    expect(first).toContain('paddock_tenant_quota_used_ratio{tenant="oil"} 0.5');
    expect(first).toContain('paddock_tenants{phase="Degraded"} 1');
    expect(first).toContain('paddock_tenants{phase="Pending"} 0');
    expect(first).toContain('# TYPE paddock_tenant_ready gauge');
    tenants = [sample('oil')];
    const second = await registry.metrics();
    expect(reads).toBe(2);
    expect(second).not.toContain('tenant="gas"');
    expect(second).toContain('paddock_tenants{phase="Degraded"} 0');
  });
});
