import { TEST_SEAL } from '../../testing/tenant-world';
import type { KubeObject, Tenant } from '../../../kube/types';
import { viewWorld } from '../../testing/view-world';
import { listRows } from '../../serving/rows';
import type { Viewer } from '../../registration/served-resource';
import type { Change } from '../../storage/change';
import { eventFor } from '../../storage/visibility';
import { STORAGE_CLASSES } from '../classes';
import { viewResource } from './define';
import { NODES } from '../nodes';
import { OWNED_TENANTS } from '../owned-tenants';
import { seededRandom } from '../../../testing/seeded-random';
import { ResourceVersionSeal } from '../../storage/version-seal';
import { tenant as tenantNamed } from '../../../testing/tenants';

/** Every tenant has claimed one namespace: the views show the tenants that have any. */
const world = () => viewWorld((name) => ({ size: 1, claims: [{ name: `${name}-x`, origin: 'Declared', uid: 'u' }] }));

const viewer = (name: string, groups: string[] = [], seesAll = false): Viewer => ({ name, groups: ['system:authenticated', ...groups], seesAll });
const alice = viewer('alice');
const bob = viewer('bob', ['gas-devs']);
const carol = viewer('carol');
const names = (rows: readonly KubeObject[]) => rows.map((r) => r.metadata.name);
const ALICE = [{ kind: 'User' as const, name: 'alice' }];

describe('class views: the union over the caller\'s tenants', () => {
  it('shows each caller the classes of every tenant it owns (union), nothing to a non-owner, all to an admin', () => {
    const w = world();
    for (const n of ['standard', 'gold', 'silver', 'bronze']) w.sc(n, { tier: n });
    w.tenant('oil', ALICE, { storageClasses: { allowed: ['standard'] } });
    w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }, ...ALICE], { storageClasses: { selector: { matchLabels: { tier: 'gold' } } } });
    w.tenant('water', [{ kind: 'User', name: 'dave' }], { storageClasses: { allowed: ['silver'] } });
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    expect(names(r.storage.visibleRows(alice))).toEqual(['gold', 'standard']);
    expect(names(r.storage.visibleRows(bob))).toEqual(['gold']);
    expect(names(r.storage.visibleRows(carol))).toEqual([]);
    expect(names(r.storage.visibleRows(viewer('admin', [], true)))).toEqual(['bronze', 'gold', 'silver', 'standard']);
  });

  it('gives every class to the owners of a tenant that does not restrict storage classes', () => {
    const w = world();
    w.sc('a');
    w.sc('b');
    w.tenant('oil', ALICE);
    expect(names(viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL).storage.visibleRows(alice))).toEqual(['a', 'b']);
  });

  it('follows relabels, owner changes and spec edits, logging exactly the rows whose audience changed', () => {
    const w = world();
    w.sc('standard', { tier: 'bronze' });
    w.sc('fast', { tier: 'bronze' });
    w.tenant('oil', ALICE, { storageClasses: { selector: { matchLabels: { tier: 'gold' } } } });
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    const changes: Change<KubeObject>[] = [];
    r.storage.subscribe((c) => changes.push(c));
    const seen = () => changes.map((c) => eventFor({ admits: (a) => r.storage.admits(alice, a), matches: () => true }, c)).filter(Boolean).map((e) => `${e!.type} ${e!.object.metadata.name}`);

    w.sc('fast', { tier: 'gold' }); // relabelled into the selector
    expect(seen()).toEqual(['ADDED fast']);
    w.tenant('oil', ALICE, { storageClasses: { selector: { matchLabels: { tier: 'gold' } }, allowed: ['standard'] } });
    expect(seen()).toEqual(['ADDED fast', 'ADDED standard']);
    w.tenant('oil', [{ kind: 'User', name: 'dave' }], { storageClasses: { selector: { matchLabels: { tier: 'gold' } }, allowed: ['standard'] } });
    expect(seen()).toEqual(['ADDED fast', 'ADDED standard', 'DELETED fast', 'DELETED standard']);
    // A status-only change of the Tenant changes nothing.
    const before = changes.length;
    const t = w.tenants.items.get('oil')!;
    w.tenants.set('oil', { ...t, status: { ...t.status, size: 7 } });
    expect(changes.length).toBe(before);
  });

  it('keeps the audience exact as a class goes from one tenant to several and back', () => {
    const w = world();
    w.sc('standard');
    w.tenant('oil', ALICE, { storageClasses: { allowed: ['standard'] } });
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    const who = [alice, bob, viewer('dave')];
    const audience = () => who.filter((v) => r.storage.canSee(v, r.storage.get('standard')!)).map((v) => v.name);
    expect(audience()).toEqual(['alice']);
    w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }, ...ALICE], { storageClasses: { allowed: ['standard'] } });
    expect(audience()).toEqual(['alice', 'bob']);
    w.tenant('water', [{ kind: 'User', name: 'dave' }], { storageClasses: { allowed: ['standard'] } });
    expect(audience()).toEqual(['alice', 'bob', 'dave']);
    w.tenants.remove('gas');
    expect(audience()).toEqual(['alice', 'dave']);
    w.tenant('oil', ALICE, { storageClasses: { allowed: [] } });
    expect(audience()).toEqual(['dave']);
    w.tenant('water', [{ kind: 'User', name: 'alice' }], { storageClasses: { allowed: ['standard'] } });
    expect(audience()).toEqual(['alice']);
    w.tenants.remove('water');
    expect(audience()).toEqual([]);
    w.tenant('oil', ALICE, { storageClasses: { allowed: ['standard'] } });
    expect(audience()).toEqual(['alice']);
  });

  it('a DELETED carries the last state the watcher could see', () => {
    const w = world();
    w.sc('fast', { tier: 'gold' });
    w.tenant('oil', ALICE, { storageClasses: { selector: { matchLabels: { tier: 'gold' } } } });
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    const changes: Change<KubeObject>[] = [];
    r.storage.subscribe((c) => changes.push(c));
    w.sc('fast', { tier: 'bronze' });
    const ev = eventFor({ admits: (a) => r.storage.admits(alice, a), matches: () => true }, changes[0]!);
    expect(ev?.type).toBe('DELETED');
    expect(ev?.object.metadata.labels).toEqual({ tier: 'gold' });
  });

  it('serves the source under its own kind, with only the default-class annotation', () => {
    const w = world();
    w.storageClasses.set('x', { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: 'x', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', 'example.com/admin-note': 'x', 'storageclass.kubernetes.io/is-default-class': 'true' } }, provisioner: 'p', reclaimPolicy: 'Retain' } as KubeObject);
    w.tenant('oil', ALICE);
    const r = viewResource(STORAGE_CLASSES, w.cache, 100, TEST_SEAL);
    const row = listRows(r, alice, { limit: 0, watch: false, allowWatchBookmarks: false }).items[0] as KubeObject & Record<string, unknown>;
    expect(row).toMatchObject({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantStorageClass', provisioner: 'p', reclaimPolicy: 'Retain' });
    expect(row.metadata.annotations).toEqual({ 'storageclass.kubernetes.io/is-default-class': 'true' });
    expect(r.table.cells(row, new Date())).toEqual(['x (default)', 'p', 'Retain', 'Immediate', false, expect.any(String)]);
  });
});

describe('tenantnodes and ownedtenants', () => {
  it('shows the nodes matching a tenant\'s nodeSelector, none without one', () => {
    const w = world();
    w.nodes.set('n1', { metadata: { name: 'n1', labels: { pool: 'gpu' } } });
    w.nodes.set('n2', { metadata: { name: 'n2', labels: { pool: 'cpu' } } });
    w.tenant('oil', ALICE, { nodeSelector: { pool: 'gpu' } });
    w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }]);
    const r = viewResource(NODES, w.cache, 100, TEST_SEAL);
    expect(names(r.storage.visibleRows(alice))).toEqual(['n1']);
    expect(names(r.storage.visibleRows(bob))).toEqual([]);
    w.nodes.set('n2', { metadata: { name: 'n2', labels: { pool: 'gpu' } } });
    expect(names(r.storage.visibleRows(alice))).toEqual(['n1', 'n2']);
  });

  it('shows the caller its own Tenants, without their claims', () => {
    const w = world();
    w.tenant('oil', ALICE);
    w.tenant('gas', [{ kind: 'Group', name: 'gas-devs' }]);
    const r = viewResource(OWNED_TENANTS, w.cache, 100, TEST_SEAL);
    expect(names(r.storage.visibleRows(alice))).toEqual(['oil']);
    expect(names(r.storage.visibleRows(bob))).toEqual(['gas']);
    const row = r.storage.get('oil') as KubeObject & { status: Record<string, unknown> };
    expect(row.kind).toBe('OwnedTenant');
    expect(row.status.claims).toBeUndefined();
    expect(row.status.size).toBe(1);
  });
});

describe('ownedtenants and ownership changes', () => {
  it('a removed owner gets DELETED with the Tenant as it last could see it, never the new owners', () => {
    const w = world();
    w.tenants.set('oil', { metadata: { name: 'oil', uid: 'oil' }, spec: { owners: ALICE }, status: { size: 1 } });
    const r = viewResource(OWNED_TENANTS, w.cache, 100, TEST_SEAL);
    const changes: Change<KubeObject>[] = [];
    r.storage.subscribe((c) => changes.push(c));
    w.tenants.set('oil', tenantNamed('oil', { owners: [{ kind: 'User', name: 'dave' }], namespaces: ['secret-project'] }, { size: 1 }, { uid: 'oil' }));
    const events = changes.map((c) => eventFor({ admits: (a) => r.storage.admits(alice, a), matches: () => true }, c)).filter(Boolean);
    expect(events.map((e) => e!.type)).toEqual(['DELETED']);
    expect(JSON.stringify(events.map((e) => e!.object))).not.toContain('dave');
  });

  it('stamps the rows made while its sources list with one resourceVersion once both have listed', async () => {
    const w = world();
    for (const n of ['oil', 'gas']) w.tenants.set(n, { metadata: { name: n, uid: n }, spec: { owners: ALICE }, status: { size: 1 } });
    const r = viewResource(OWNED_TENANTS, w.cache, 100, TEST_SEAL);
    const stamps = () => listRows(r, alice, { limit: 0, watch: false, allowWatchBookmarks: false }).items.map((o) => o.metadata.resourceVersion);
    expect(new Set(stamps()).size).toBe(2);
    w.tenants.markListed();
    await new Promise((resolve) => setImmediate(resolve));
    expect(stamps()).toEqual([r.storage.resourceVersion, r.storage.resourceVersion]);
    expect(r.storage.since(r.storage.resourceVersion)).toEqual([]);
  });

  it('visits only the Tenant itself and serves exactly what asking every Tenant serves (random histories)', () => {
    const people = ['alice', 'bob', 'carol', 'dave'];
    for (let seed = 1; seed <= 5; seed++) {
      const random = seededRandom(seed);
      const w = world();
      const narrow = viewResource(OWNED_TENANTS, w.cache, 1000, TEST_SEAL);
      const full = viewResource({ ...OWNED_TENANTS, sameNameOnly: false }, w.cache, 1000, TEST_SEAL);
      const counts = [0, 0];
      narrow.storage.subscribe(() => counts[0]++);
      full.storage.subscribe(() => counts[1]++);
      const start = [narrow.storage.resourceVersion, full.storage.resourceVersion];
      for (let step = 0; step < 300; step++) {
        const name = `t${random.int(12)}`;
        if (random.chance(0.2)) w.tenants.remove(name);
        else w.tenants.set(name, { metadata: { name, uid: name }, spec: { owners: people.filter(() => random.chance(0.4)).map((p) => ({ kind: 'User' as const, name: p })) }, status: { size: random.int(3) } });
      }
      const seen = (r: typeof narrow, who: string) => listRows(r, viewer(who), { limit: 0, watch: false, allowWatchBookmarks: false }).items.map((o) => JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: '' } }));
      for (const who of people) expect(seen(narrow, who)).toEqual(seen(full, who));
      expect(counts[0]).toBe(counts[1]);
      // A replay from the start agrees too.
      const replayed = (r: typeof narrow, rv: string) => (r.storage.since(rv) as Change<KubeObject>[]).map((c) => `${c.type} ${c.object.metadata.name}`);
      expect(replayed(narrow, start[0])).toEqual(replayed(full, start[1]));
    }
  });

  it('replays k Tenant writes asking about k Tenants, not every Tenant for every write', () => {
    const w = world();
    const owners = ALICE;
    for (let i = 0; i < 2000; i++) w.tenants.set(`t${i}`, { metadata: { name: `t${i}`, uid: `t${i}` }, spec: { owners }, status: { size: 0 } });
    let calls = 0;
    const counting = { ...OWNED_TENANTS, mayUse: (t: Tenant, o: KubeObject) => (calls++, OWNED_TENANTS.mayUse(t, o)) };
    const r = viewResource(counting, w.cache, 10_000, TEST_SEAL);
    const from = r.storage.resourceVersion;
    // 300 status writes, each to another Tenant, each changing its row.
    for (let i = 0; i < 300; i++) w.tenants.set(`t${i}`, { metadata: { name: `t${i}`, uid: `t${i}` }, spec: { owners }, status: { size: 1 } });
    calls = 0;
    const changes = r.storage.since(from);
    expect(Array.isArray(changes) && changes.length).toBe(300);
    expect(calls).toBeLessThanOrEqual(20 * 300);
  });

  it('a restamp while the key cannot be read stamps the rows with the keys in use, no rejection unhandled', async () => {
    let now = 1_000_000;
    const clock = jest.spyOn(Date, 'now').mockImplementation(() => now);
    let failing = false;
    const seal = new ResourceVersionSeal(() => {
      if (failing) throw new Error('the serving key is unreadable');
      return 'key';
    });
    const w = world();
    w.tenants.set('oil', { metadata: { name: 'oil', uid: 'oil' }, spec: { owners: ALICE }, status: { size: 1 } });
    const r = viewResource(OWNED_TENANTS, w.cache, 100, seal);
    const before = r.storage.get('oil')!.metadata.resourceVersion;
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      failing = true;
      now += 60_000; // the seal reads its key source again
      w.tenants.markListed();
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', listener);
      clock.mockRestore();
    }
    expect(unhandled).toEqual([]);
    // Restamped with the view's resourceVersion of then, sealed with the key read before.
    const after = r.storage.get('oil')!.metadata.resourceVersion;
    expect(after).not.toBe(before);
    expect(after).toBe(r.storage.resourceVersion);
    expect(seal.open(after!)).toBeDefined();
    expect(new ResourceVersionSeal(() => 'key').open(after!)).toEqual(seal.open(after!));
  });
});
