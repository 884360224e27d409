import type { KubeObject } from '../../../kube/types';
import { viewWorld } from '../../testing/view-world';
import { logger } from '../../../log/logger';
import type { ListOptions } from '../../request/list-options';
import { listRows } from '../../serving/rows';
import type { ServedResource, Viewer } from '../../registration/served-resource';
import { TEST_SEAL } from '../../testing/tenant-world';
import type { Change } from '../../storage/change';
import { WatchHub } from '../../watch/hub';
import { eventFor } from '../../storage/visibility';
import { watchInto } from '../../watch/testing/event-sink';
import { STORAGE_CLASSES } from '../classes';
import { viewResource } from './define';
import { NODES } from '../nodes';

/**
 * A row whose content is unchanged while who may see it changes (another tenant is allowed the class,
 * gets an owner more, or its nodeSelector starts matching the node) is news only to the callers who gain
 * or lose it. Everyone else would learn of another tenant's access from a MODIFIED with nothing modified.
 */

const viewer = (name: string, groups: string[] = []): Viewer => ({ name, groups: ['system:authenticated', ...groups], seesAll: false });
const alice = viewer('alice');
const bob = viewer('bob', ['gas-devs']);
const ALICE = [{ kind: 'User' as const, name: 'alice' }];
const GAS = [{ kind: 'Group' as const, name: 'gas-devs' }];
const DAVE = { kind: 'User' as const, name: 'dave' };

/** Every hub a test opened, closed after it (their watches hold timers). */
const hubs: WatchHub<KubeObject>[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.closeAll();
});

function world() {
  const { tenants, cache, tenant, sc, node } = viewWorld();
  const hubOf = (r: ServedResource<KubeObject>) => {
    const hub = new WatchHub(r, { maxBufferedBytes: 1 << 20, bookmarkIntervalMs: 3_600_000, minTimeoutSeconds: 3600, resourceVersionWaitMs: 200, log: logger() });
    hubs.push(hub);
    const watch = (v: Viewer, o: Partial<ListOptions> = {}) => watchInto(hub, v, o).sink;
    return { hub, watch };
  };
  return { tenants, cache, tenant, sc, node, hubOf };
}

const rvOf = (r: ServedResource<KubeObject>, name: string) => r.storage.get(name)!.metadata.resourceVersion;
const replayed = (r: ServedResource<KubeObject>, v: Viewer, rv: string) =>
  (r.storage.since(rv) as Change<KubeObject>[]).map((c) => eventFor({ admits: (a) => r.storage.admits(v, a), matches: () => true }, c)).filter(Boolean).map((e) => `${e!.type} ${e!.object.metadata.name}`);

describe('tenantstorageclasses: another tenant allowed a class the caller sees', () => {
  function setup() {
    const w = world();
    w.sc('gold');
    w.sc('standard');
    w.tenant('oil', ALICE, { storageClasses: { allowed: ['gold', 'standard'] } });
    w.tenant('gas', GAS, { storageClasses: { allowed: [] } });
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    return { ...w, r, ...w.hubOf(r) };
  }

  it('sends a watcher who sees the row before and after nothing, and leaves the row its resourceVersion', () => {
    const { r, watch, tenant, sc } = setup();
    const a = watch(alice);
    const b = watch(bob);
    const stamp = rvOf(r, 'standard');
    tenant('gas', GAS, { storageClasses: { allowed: ['standard'] } }); // gas may use it
    tenant('gas', [...GAS, DAVE], { storageClasses: { allowed: ['standard'] } }); // gas gets an owner more
    sc('gold', { marker: '1' }); // a change alice sees, after those: anything for them came before it
    expect(a.kinds).toEqual(['ADDED gold', 'ADDED standard', 'MODIFIED gold']);
    expect(b.kinds).toEqual(['ADDED standard']);
    expect(rvOf(r, 'standard')).toBe(stamp);
    tenant('gas', [...GAS, DAVE], { storageClasses: { allowed: [] } }); // and no longer
    sc('gold', { marker: '2' });
    expect(a.kinds).toEqual(['ADDED gold', 'ADDED standard', 'MODIFIED gold', 'MODIFIED gold']);
    expect(b.kinds).toEqual(['ADDED standard', 'DELETED standard']);
    expect(rvOf(r, 'standard')).toBe(stamp);
  });

  it('numbers the ADDED of the caller who gains the row as the change: resuming from it repeats nothing', () => {
    const { r, watch, tenant } = setup();
    const b = watch(bob);
    tenant('gas', GAS, { storageClasses: { allowed: ['standard'] } });
    expect(b.kinds).toEqual(['ADDED standard']);
    const added = b.events[0].object.metadata.resourceVersion!;
    expect(added).not.toBe(rvOf(r, 'standard'));
    expect(r.storage.since(added)).toEqual([]);
  });

  it('replays the same: nothing to the caller who saw it throughout, ADDED and DELETED to the one who came and went', () => {
    const { r, tenant, sc } = setup();
    const from = r.storage.resourceVersion;
    tenant('gas', GAS, { storageClasses: { allowed: ['standard'] } });
    tenant('gas', [...GAS, DAVE], { storageClasses: { allowed: ['standard'] } });
    sc('gold', { marker: '1' });
    tenant('gas', [...GAS, DAVE], { storageClasses: { allowed: [] } });
    expect(replayed(r, alice, from)).toEqual(['MODIFIED gold']);
    expect(replayed(r, bob, from)).toEqual(['ADDED standard', 'DELETED standard']);
  });

  it('continues a paged list across it: the caller\'s pages did not change', () => {
    const { r, tenant } = setup();
    const opts: ListOptions = { limit: 1, watch: false, allowWatchBookmarks: false };
    const first = listRows(r, alice, opts);
    expect(first.items.map((o) => o.metadata.name)).toEqual(['gold']);
    tenant('gas', GAS, { storageClasses: { allowed: ['standard'] } });
    const second = listRows(r, alice, { ...opts, continueToken: first.metadata.continue });
    expect(second.items.map((o) => o.metadata.name)).toEqual(['standard']);
  });
});

describe('tenantnodes: a hidden Tenant\'s nodeSelector starts matching a node the caller sees', () => {
  it('sends the caller nothing and leaves the row its resourceVersion; the other tenant\'s owners get ADDED', () => {
    const w = world();
    w.node('n1', { pool: 'gpu' });
    w.node('n2', { pool: 'cpu' });
    w.tenant('oil', ALICE, { nodeSelector: { pool: 'gpu' } });
    w.tenant('gas', GAS, { nodeSelector: { pool: 'arm' } });
    const r = viewResource(NODES, w.cache, 100, TEST_SEAL);
    const { watch } = w.hubOf(r);
    const a = watch(alice);
    const b = watch(bob);
    const stamp = rvOf(r, 'n1');
    w.tenant('gas', GAS, { nodeSelector: { pool: 'gpu' } });
    w.node('n1', { pool: 'gpu', marker: '1' });
    expect(a.kinds).toEqual(['ADDED n1', 'MODIFIED n1']);
    expect(b.kinds).toEqual(['ADDED n1', 'MODIFIED n1']);
    const after = rvOf(r, 'n1');
    expect(after).not.toBe(stamp); // the label change is a change of the row
    w.tenant('gas', [...GAS, DAVE], { nodeSelector: { pool: 'gpu' } });
    w.node('n2', { pool: 'gpu' }); // a later change both see
    expect(a.kinds).toEqual(['ADDED n1', 'MODIFIED n1', 'ADDED n2']);
    expect(rvOf(r, 'n1')).toBe(after);
  });
});
