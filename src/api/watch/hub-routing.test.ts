import type { Tenant, TenantNamespace } from '../../kube/types';
import { logger } from '../../log/logger';
import type { ServedResource, Viewer } from '../registration/served-resource';
import type { RowStorage } from '../storage/row-storage';
import { tenantWorld } from '../testing/tenant-world';
import { tenantNamespacesResource } from '../resources/tenantnamespaces/registration';
import { WatchHub } from './hub';
import { Watcher } from './watcher';
import { watchInto } from './testing/event-sink';

const user = (name: string, groups: string[] = []): Viewer => ({ name, groups: [...groups, 'system:authenticated'], seesAll: false });
const alice = user('alice');
const bob = user('bob', ['gas-devs']);
const admin: Viewer = { name: 'admin', groups: ['system:masters'], seesAll: true };
const robot = user('system:serviceaccount:ci:robot');
const owners = (...keys: string[]): Tenant['spec']['owners'] =>
  keys.map((k) => {
    const [kind, name] = k.split(':') as ['User' | 'Group' | 'ServiceAccount', string];
    return kind === 'ServiceAccount' ? { kind, namespace: name.split('/')[0], name: name.split('/')[1] } : { kind, name };
  });

function world(wrap: (r: ServedResource<TenantNamespace>) => ServedResource<TenantNamespace> = (r) => r) {
  const w = tenantWorld({ window: 100 });
  const claims = ['oil-a', 'gas-x', 'ci-1'].map((n) => ({ name: n, origin: 'Declared' as const, uid: `uid-${n}` }));
  const tenant = (name: string, o: Tenant['spec']['owners']) => w.tenants.set(name, { metadata: { name, uid: name }, spec: { owners: o }, status: { claims } });
  tenant('oil', owners('User:alice'));
  tenant('gas', owners('Group:gas-devs'));
  tenant('ci', owners('ServiceAccount:ci/robot'));
  for (const [ns, t] of [['oil-a', 'oil'], ['gas-x', 'gas'], ['ci-1', 'ci']]) w.namespace(ns, t);
  const hub = new WatchHub(wrap(tenantNamespacesResource(w.view)), { maxBufferedBytes: 1 << 20, bookmarkIntervalMs: 3_600_000, minTimeoutSeconds: 3600, resourceVersionWaitMs: 200, log: logger() });
  const watch = (viewer: Viewer) => watchInto(hub, viewer);
  return { ...w, hub, tenant, watch };
}

describe('WatchHub: a change is handed only to the watches that may see a state of it', () => {
  let deliver: jest.SpyInstance;
  beforeEach(() => (deliver = jest.spyOn(Watcher.prototype, 'deliver')));
  afterEach(() => deliver.mockRestore());

  /** The watchers `deliver` was called on since the last call. */
  const handed = () => {
    const out = new Set(deliver.mock.instances as Watcher<TenantNamespace>[]);
    deliver.mockClear();
    return out;
  };

  it('goes to the owners of the tenant before and after it, group members, ServiceAccounts and those who see all', () => {
    const w = world();
    const a = w.watch(alice), b = w.watch(bob), r = w.watch(robot), all = w.watch(admin);
    w.namespace('oil-a', 'oil', 'Terminating');
    expect(handed()).toEqual(new Set([a.watcher, all.watcher]));
    w.namespace('gas-x', 'gas', 'Terminating');
    expect(handed()).toEqual(new Set([b.watcher, all.watcher]));
    w.namespace('ci-1', 'ci', 'Terminating');
    expect(handed()).toEqual(new Set([r.watcher, all.watcher]));
    // Ownership moves from alice to the gas-devs group: alice's watch loses the row, bob's gains it.
    w.tenant('oil', owners('Group:gas-devs'));
    expect(handed()).toEqual(new Set([a.watcher, b.watcher, all.watcher]));
    expect(a.sink.kinds).toEqual(['ADDED oil-a', 'MODIFIED oil-a', 'DELETED oil-a']);
    expect(b.sink.kinds).toEqual(['ADDED gas-x', 'MODIFIED gas-x', 'ADDED oil-a']);
    w.hub.closeAll();
  });

  it('subscribes the hub to its view once, however many watches are open, and not at all once they are closed', () => {
    const w = world();
    const watches = [alice, bob, robot, admin, alice].map((v) => w.watch(v));
    expect(w.view.log.listenerCount).toBe(1);
    for (const x of watches) x.watcher.close('client');
    expect(w.view.log.listenerCount).toBe(0);
  });

  it('goes to every watch of a view whose rule for who sees a state is not the owner-key rule', () => {
    // Carol sees every row by a rule of this view's own: the routing cannot know it, so it does not route.
    const carol = user('carol');
    const w = world((r) => {
      const v = r.storage;
      const admits = (viewer: Viewer, audience: ReadonlySet<string>) => viewer.name === 'carol' || v.admits(viewer, audience);
      const storage: RowStorage<TenantNamespace> = {
        get resourceVersion() {
          return v.resourceVersion;
        },
        get: (n) => v.get(n),
        admits,
        canSee: (viewer, row) => viewer.name === 'carol' || v.canSee(viewer, row),
        visibleRows: (viewer) => (viewer.name === 'carol' ? v.visibleRows(admin) : v.visibleRows(viewer)),
        visibleRowsWhere: () => undefined,
        locate: (rv) => v.locate(rv),
        since: (rv) => v.since(rv),
        whenReached: (rv, ms, signal) => v.whenReached(rv, ms, signal),
        subscribe: (l) => v.subscribe(l),
      };
      return { ...r, storage };
    });
    const c = w.watch(carol), a = w.watch(alice);
    handed();
    w.namespace('gas-x', 'gas', 'Terminating');
    expect(handed()).toEqual(new Set([c.watcher, a.watcher]));
    expect(c.sink.kinds).toEqual(['ADDED ci-1', 'ADDED gas-x', 'ADDED oil-a', 'MODIFIED gas-x']);
    expect(a.sink.kinds).toEqual(['ADDED oil-a']);
    w.hub.closeAll();
  });
});
