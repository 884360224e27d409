import { FakeInformer } from '../cache/testing/fake-informer';
import type { Tenant } from '../kube/types';
import { needsDefaults, needsRestrictions } from '../tenancy/admission-policies';
import { tenant } from '../testing/tenants';
import { PolicyNeeds } from './policy-needs';

const specs: Partial<Tenant['spec']>[] = [
  {},
  { containerRegistries: { allowed: ['ghcr.io/x'] } },
  { storageClasses: { allowed: ['std'], default: 'std' } },
  { nodeSelector: { pool: 'a' } },
  { priorityClasses: { allowed: ['low'] } },
];

/** What a scan of the store finds: the invariant PolicyNeeds keeps. */
function scan(informer: FakeInformer<Tenant>) {
  const tenants = informer.store.list();
  return {
    restrictions: tenants.filter(needsRestrictions).map((t) => t.metadata.name).sort(),
    defaults: tenants.filter(needsDefaults).map((t) => t.metadata.name).sort(),
  };
}

describe('PolicyNeeds', () => {
  it('holds what a scan of the Tenants finds, through adds, updates and deletes', () => {
    const informer = new FakeInformer<Tenant>();
    informer.set('pre', tenant('pre', specs[3]));
    const needs = new PolicyNeeds(informer);
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let step = 0; step < 300; step++) {
      const name = `t${next(6)}`;
      if (next(4) === 0) informer.remove(name);
      else informer.set(name, tenant(name, specs[next(specs.length)]));
      expect({ restrictions: [...needs.restrictions].sort(), defaults: [...needs.defaults].sort() }).toEqual(scan(informer));
    }
  });
});
