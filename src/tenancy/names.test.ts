import type { Tenant } from '../kube/types';
import { tenant } from '../testing/tenants';
import { declaredNamespaceName, tenantsDeclaring } from './names';

describe('the tenants declaring a namespace name', () => {
  const tenants = new Map<string, Tenant>([
    ['oil', tenant('oil', { namespaces: ['dev', 'prod-eu'] })],
    ['oil-prod', tenant('oil-prod', { namespaces: ['eu'] })],
    ['gas', tenant('gas', { namespaces: [] })],
  ]);
  const declaring = (namespace: string) => tenantsDeclaring(namespace, (n) => tenants.get(n)).map((t) => t.metadata.name);

  it('finds the Tenant whose declared name the namespace is, at any dash', () => {
    expect(declaring(declaredNamespaceName('oil', 'dev'))).toEqual(['oil']);
  });

  it('finds every Tenant when two declarations meet in one name', () => {
    expect(declaring('oil-prod-eu')).toEqual(['oil', 'oil-prod']);
  });

  it('finds none for a name no Tenant declares, one without a dash, or a prefix that is no Tenant', () => {
    expect(declaring('oil-test')).toEqual([]);
    expect(declaring('gas-dev')).toEqual([]);
    expect(declaring('oil')).toEqual([]);
    expect(declaring('water-dev')).toEqual([]);
    expect(declaring('-dev')).toEqual([]);
  });
});
