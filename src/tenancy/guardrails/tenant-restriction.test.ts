import { tenant } from '../../testing/tenants';
import { RESTRICTIONS } from '../restrictions/registry';
import { restrictionSpec, tenantRestrictions } from './tenant-restriction';

describe('the TenantRestriction of a tenant namespace', () => {
  it("holds the tenant's name and nothing else for a tenant that restricts nothing", () => {
    expect(restrictionSpec(tenant('gas', { resourceQuotas: [{ hard: { pods: 1 } }], nodeSelector: undefined }))).toEqual({ tenant: 'gas' });
  });

  it('copies every restriction field the Tenant sets, and only those', () => {
    const oil = tenant('oil', {
      storageClasses: { allowed: ['std'], selector: { matchLabels: { tier: 'gold' } }, default: 'std' },
      containerRegistries: { allowed: ['ghcr.io/oil'] },
      imagePullPolicies: ['Always'],
      nodeSelector: { pool: 'oil' },
      resourceQuotas: [{ hard: { pods: 1 } }],
      namespaceQuota: 3,
    });
    const spec = restrictionSpec(oil);
    expect(Object.keys(spec).sort()).toEqual(['containerRegistries', 'imagePullPolicies', 'nodeSelector', 'storageClasses', 'tenant']);
    for (const field of Object.keys(spec).filter((f) => f !== 'tenant')) expect(RESTRICTIONS.map((r) => r.field)).toContain(field);
    expect(spec.storageClasses).toEqual(oil.spec.storageClasses);
    expect(spec.storageClasses).not.toBe(oil.spec.storageClasses);
  });

  it("carries the class names the Tenant's selectors resolve to, and no field for them when it restricts no class", () => {
    const oil = tenant('oil', { storageClasses: { selector: { matchLabels: { tier: 'gold' } } } });
    const resolved = { ...oil, status: { ...oil.status, allowed: { storageClasses: ['gold-ssd'] } } };
    expect(tenantRestrictions.desired(resolved, 'oil-dev')[0]!.spec.allowed).toEqual({ storageClasses: ['gold-ssd'] });
    expect(restrictionSpec({ ...oil, status: { ...oil.status, allowed: {} } })).not.toHaveProperty('allowed');
  });

  it('is one object per namespace, under the name the bindings look it up by', () => {
    const [one, ...rest] = tenantRestrictions.desired(tenant('oil', {}), 'oil-dev');
    expect(rest).toEqual([]);
    expect(one!.metadata).toMatchObject({ name: 'paddock-restrictions', namespace: 'oil-dev' });
    expect(tenantRestrictions.outlivesTenantLabel).toBe(true);
    expect(tenantRestrictions.ownersMayWrite).toBe(false);
  });
});
