import type { PaddockCache } from '../../cache/paddock-cache';
import { FakeInformer } from '../../cache/testing/fake-informer';
import type { KubeObject, Namespace, Tenant } from '../../kube/types';
import { listRows } from '../serving/rows';
import type { ServedResource, Viewer } from '../registration/served-resource';
import { confirmsHiddenObject } from '../testing/hidden-objects';
import { TEST_SEAL, tenantWorld } from '../testing/tenant-world';
import { tenantNamespacesResource } from '../resources/tenantnamespaces/registration';
import { STORAGE_CLASSES } from '../resources/classes';
import { viewResource } from '../resources/projected/define';
import { OWNED_TENANTS } from '../resources/owned-tenants';
import { tenant as tenantNamed } from '../../testing/tenants';

/**
 * What the resourceVersions a caller is given tell it about what it may not see. carol owns nothing: she
 * lists a view before and after the cluster admin creates (or deletes) an object hidden from her, and
 * tries to confirm a guessed name — given even the object's exact resourceVersion.
 */

const carol: Viewer = { name: 'carol', groups: ['system:authenticated'], seesAll: false };
const LIST = { limit: 0, watch: false, allowWatchBookmarks: false };
const listRv = (r: ServedResource<KubeObject>) => listRows(r, carol, LIST).metadata.resourceVersion!;

function classesWorld() {
  const tenants = new FakeInformer<Tenant>();
  const storageClasses = new FakeInformer<KubeObject>();
  const cache = { tenants, storageClasses } as unknown as PaddockCache;
  tenants.set('oil', tenantNamed('oil', { storageClasses: { allowed: ['standard'] } }, {}, { uid: 'oil' }));
  storageClasses.set('standard', { metadata: { name: 'standard', uid: 'uid-standard' } });
  return { tenants, storageClasses, r: viewResource(STORAGE_CLASSES, cache, 100, TEST_SEAL) };
}

describe('a resourceVersion confirms no hidden name', () => {
  it('of a StorageClass created, then deleted, that no tenant of the caller may use (tenantstorageclasses)', () => {
    const { storageClasses, r } = classesWorld();
    const before = listRv(r);
    storageClasses.set('secret-gpu', { metadata: { name: 'secret-gpu', uid: 'uid-secret', resourceVersion: '734918263' } });
    const created = listRv(r);
    expect(created).not.toBe(before);
    expect(listRows(r, carol, LIST).items).toEqual([]);
    expect(confirmsHiddenObject(before, created, 'secret-gpu', '734918263')).toBe(false);
    storageClasses.remove('secret-gpu');
    expect(confirmsHiddenObject(created, listRv(r), 'secret-gpu', '734918263')).toBe(false);
  });

  it('of a Tenant the caller does not own (ownedtenants: owners may not list Tenants)', () => {
    const tenants = new FakeInformer<Tenant>();
    const r = viewResource(OWNED_TENANTS, { tenants } as unknown as PaddockCache, 100, TEST_SEAL);
    const before = listRv(r);
    tenants.set('acquisition', tenantNamed('acquisition', { owners: [{ kind: 'User', name: 'dave' }] }, {}, { uid: 'acquisition', resourceVersion: '734918264' }));
    expect(confirmsHiddenObject(before, listRv(r), 'acquisition', '734918264')).toBe(false);
  });

  it("of another tenant's self-service namespace (tenantnamespaces)", () => {
    const w = tenantWorld();
    w.tenant('oil', [{ kind: 'User', name: 'alice' }], [{ name: 'oil-a', origin: 'Declared', uid: 'uid-oil-a' }]);
    w.namespace('oil-a', 'oil');
    const r = tenantNamespacesResource(w.view) as unknown as ServedResource<KubeObject>;
    const before = listRv(r);
    const claims = [{ name: 'oil-a', origin: 'Declared' as const, uid: 'uid-oil-a' }, { name: 'oil-merger', origin: 'SelfService' as const, uid: 'uid-oil-merger' }];
    w.tenant('oil', [{ kind: 'User', name: 'alice' }], claims);
    const ns: Namespace = { metadata: { name: 'oil-merger', uid: 'uid-oil-merger', resourceVersion: '734918265', labels: { 'paddock.dev/tenant': 'oil' } }, status: { phase: 'Active' } };
    w.namespaces.set('oil-merger', ns);
    expect(listRows(r, carol, LIST).items).toEqual([]);
    expect(confirmsHiddenObject(before, listRv(r), 'oil-merger', '734918265')).toBe(false);
  });
});

describe('what a resourceVersion tells a caller', () => {
  it('names no revision of a source: not when, in etcd\'s numbering, a hidden collection changed', () => {
    const { storageClasses, r } = classesWorld();
    storageClasses.set('secret-gpu', { metadata: { name: 'secret-gpu', uid: 'uid-secret', resourceVersion: '734918266' } });
    expect(listRv(r)).not.toContain('734918266');
  });
});
