import { SharedInformer } from '../../../cache/informer';
import type { ListerWatcher } from '../../../cache/list-watch';
import { INDEX, type PaddockCache } from '../../../cache/paddock-cache';
import { NAMESPACE_INDEX, namespaceIndexFunc } from '../../../cache/store';
import { silentLogger } from '../../../kube/log';
import { ownerKeysOfTenant } from '../../../tenancy/owner-keys';
import { TenantNamespaceView } from './view';
import { TEST_SEAL } from '../../testing/tenant-world';
import { sameContent } from '../../storage/same-content';
import type { Change } from '../../storage/change';
import type { KubeObject, Namespace, ResourceQuota, Tenant, TenantNamespace } from '../../../kube/types';
import { tenant as tenantNamed } from '../../../testing/tenants';

const never = {} as ListerWatcher<KubeObject>;
const tn = (name: string, rv: number, claims: string[]): Tenant =>
  tenantNamed(name, {}, { claims: claims.map((c) => ({ name: c, origin: 'Declared', uid: `uid-${c}` })) }, { uid: name, resourceVersion: String(rv) });
const ns = (name: string, rv: number, t: string): Namespace => ({ metadata: { name, uid: `uid-${name}`, resourceVersion: String(rv), labels: { 'paddock.dev/tenant': t } }, status: { phase: 'Active' } } as Namespace);
const q = (namespace: string, name: string, rv: number, cpu: string): ResourceQuota => ({ metadata: { namespace, name, resourceVersion: String(rv) }, spec: { hard: { cpu } } } as unknown as ResourceQuota);

/**
 * Relists of every source of the view while its watch was down: each live change a relist makes names a
 * state (its resourceVersion) in which the row is exactly what was sent, and a replay from before the
 * relists sends the same changes.
 */
it('sends, for a relist, the changes a replay from before it computes', () => {
  const tenants = new SharedInformer<Tenant>('tenants', never as never, { logger: silentLogger, indexers: { [INDEX.owner]: (t) => ownerKeysOfTenant(t) } });
  const namespaces = new SharedInformer<Namespace>('namespaces', never as never, { logger: silentLogger });
  const quotas = new SharedInformer<ResourceQuota>('quotas', never as never, { logger: silentLogger, indexers: { [NAMESPACE_INDEX]: namespaceIndexFunc } });
  const cache = { tenants, namespaces, resourceQuotas: quotas, quotasIn: (n: string) => quotas.store.byIndex(NAMESPACE_INDEX, n) } as unknown as PaddockCache;
  const view = new TenantNamespaceView(cache, 1000, TEST_SEAL).store;
  tenants.replace([tn('oil', 1, ['oil-a', 'oil-b'])], '1');
  namespaces.replace([ns('oil-a', 2, 'oil'), ns('oil-b', 3, 'oil')], '3');
  quotas.replace([q('oil-a', 'q1', 4, '1'), q('oil-a', 'q2', 5, '2'), q('oil-b', 'q1', 6, '3')], '6');
  const rv0 = view.log.resourceVersion;
  const live: Change<TenantNamespace>[] = [];
  view.subscribe((c) => live.push(c));
  // A relist of quotas: q1 changed, q2 deleted, q3 added in oil-a; oil-b's deleted
  quotas.replace([q('oil-a', 'q1', 20, '5'), q('oil-a', 'q3', 21, '0.5')], '22');
  // A relist of namespaces: oil-b gone, oil-c new; tenants: claims move
  namespaces.replace([ns('oil-a', 2, 'oil'), ns('oil-c', 23, 'oil')], '24');
  tenants.replace([tn('oil', 25, ['oil-a', 'oil-c'])], '26');
  const fmt = (c: Change<TenantNamespace>) => `${c.type} ${c.object.metadata.name} ${JSON.stringify(c.after?.object.status?.quota ?? null)}`;
  for (const c of live) {
    const then = view.log.rowAt(c.rv, c.object.metadata.name);
    if (c.after) expect(typeof then === 'object' && sameContent(then.object, c.after.object)).toBe(true);
    else expect(then).toBeUndefined();
  }
  const replayed = view.log.since(rv0);
  expect(Array.isArray(replayed)).toBe(true);
  expect(live.length).toBeGreaterThan(3);
  expect((replayed as Change<TenantNamespace>[]).map(fmt)).toEqual(live.map(fmt));
});
