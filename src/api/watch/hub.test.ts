import type { Tenant, TenantNamespace } from '../../kube/types';
import { logger } from '../../log/logger';
import { parseFieldSelector } from '../../selectors/field-selector';
import { parseLabelSelector } from '../../selectors/label-selector';
import type { ListOptions } from '../request/list-options';
import { TEST_SEAL, tenantWorld } from '../testing/tenant-world';
import { tenantNamespacesResource } from '../resources/tenantnamespaces/registration';
import type { Viewer } from '../resources/tenantnamespaces/view';
import { WatchHub } from './hub';
import { encodeVersion } from '../storage/version-codec';
import { EventSink, watchInto } from './testing/event-sink';


const alice: Viewer = { name: 'alice', groups: ['system:authenticated'], seesAll: false };
const bob: Viewer = { name: 'bob', groups: ['gas-devs', 'system:authenticated'], seesAll: false };
const ALICE = [{ kind: 'User' as const, name: 'alice' }];
const BOB = [{ kind: 'User' as const, name: 'bob' }];

function world() {
  const { tenants, namespaces, view } = tenantWorld({ window: 100 });
  const hub = new WatchHub(tenantNamespacesResource(view), { maxBufferedBytes: 1 << 20, bookmarkIntervalMs: 3_600_000, minTimeoutSeconds: 3600, resourceVersionWaitMs: 200, log: logger() });
  // Every tenant here has claimed every namespace of the tests (by UID), so a namespace relabelled to
  // another tenant stays a row: these tests are about who sees a row, not about ownership proofs.
  const claims = ['gas-x', 'gas-y', 'oil-a', 'oil-b'].map((n) => ({ name: n, origin: 'Declared' as const, uid: `uid-${n}` }));
  const tenant = (name: string, owners: Tenant['spec']['owners']) => tenants.set(name, { metadata: { name, uid: name }, spec: { owners }, status: { claims } });
  const ns = (name: string, t: string, labels: Record<string, string> = {}, phase: 'Active' | 'Terminating' = 'Active') =>
    namespaces.set(name, {
      metadata: { name, uid: `uid-${name}`, creationTimestamp: '2026-01-01T00:00:00Z', labels: { 'paddock.dev/tenant': t, ...labels }, ...(phase === 'Terminating' ? { deletionTimestamp: '2026-01-02T00:00:00Z' } : {}) },
      status: { phase },
    });
  const watch = (viewer: Viewer, o: Partial<ListOptions> = {}) => watchInto(hub, viewer, o).sink;
  tenant('oil', ALICE);
  tenant('gas', BOB);
  ns('oil-a', 'oil');
  return { view, hub, tenant, tenants, ns, namespaces, watch };
}

const ownersOf = (o: TenantNamespace) => (o.status?.owners ?? []).map((x) => x.name);

describe('WatchHub: a DELETED event carries the last state its watcher was allowed to see', () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => (w = world()));
  afterEach(() => w.hub.closeAll());

  it('when the Tenant of a row changes owners from alice to bob', () => {
    const sink = w.watch(alice);
    const addedRv = sink.events[0].object.metadata.resourceVersion!;
    w.tenant('oil', BOB);
    expect(sink.kinds).toEqual(['ADDED oil-a', 'DELETED oil-a']);
    const deleted = sink.events[1].object;
    expect(ownersOf(deleted)).toEqual(['alice']);
    expect(JSON.stringify(deleted)).not.toContain('bob');
    // Numbered as the change that removed it, so a client resuming from it does not see it again.
    expect(w.view.log.since(deleted.metadata.resourceVersion!)).toEqual([]); // numbered as the change: resuming from it repeats nothing
    expect(deleted.metadata.resourceVersion).not.toBe(addedRv);
    expect(w.view.log.since(deleted.metadata.resourceVersion!)).toEqual([]);
  });

  it('when the namespace moves to a tenant alice does not own', () => {
    const sink = w.watch(alice);
    w.ns('oil-a', 'gas');
    expect(sink.kinds).toEqual(['ADDED oil-a', 'DELETED oil-a']);
    expect(sink.events[1].object.spec.tenant).toBe('oil');
    expect(ownersOf(sink.events[1].object)).toEqual(['alice']);
  });

  it('when the Tenant is deleted', () => {
    const sink = w.watch(alice);
    w.tenants.remove('oil');
    expect(sink.kinds).toEqual(['ADDED oil-a', 'DELETED oil-a']);
    expect(ownersOf(sink.events[1].object)).toEqual(['alice']);
  });

  it('when the row stops matching the label selector', () => {
    w.ns('oil-a', 'oil', { tier: 'prod' });
    const sink = w.watch(alice, { labelSelector: parseLabelSelector('tier=prod') });
    w.ns('oil-a', 'oil', { tier: 'dev' });
    expect(sink.kinds).toEqual(['ADDED oil-a', 'DELETED oil-a']);
    expect(sink.events[1].object.metadata.labels?.tier).toBe('prod');
    expect(w.view.log.since(sink.events[1].object.metadata.resourceVersion!)).toEqual([]); // numbered as the change: resuming from it repeats nothing
  });

  it('when the row stops matching the field selector', () => {
    const sink = w.watch(alice, { fieldSelector: parseFieldSelector('status.phase=Active') });
    w.ns('oil-a', 'oil', {}, 'Terminating');
    expect(sink.kinds).toEqual(['ADDED oil-a', 'DELETED oil-a']);
    expect(sink.events[1].object.status?.phase).toBe('Active');
  });

  it('when the namespace is deleted outright', () => {
    const sink = w.watch(alice);
    w.ns('oil-a', 'oil', { last: 'yes' });
    w.namespaces.remove('oil-a');
    expect(sink.kinds).toEqual(['ADDED oil-a', 'MODIFIED oil-a', 'DELETED oil-a']);
    expect(sink.events[2].object.metadata.labels?.last).toBe('yes');
    expect(w.view.log.since(sink.events[2].object.metadata.resourceVersion!)).toEqual([]); // numbered as the change: resuming from it repeats nothing
  });

  it('while a watcher that gains the row gets ADDED with the new state', () => {
    const sink = w.watch(bob);
    w.tenant('oil', BOB);
    expect(sink.kinds).toEqual(['ADDED oil-a']);
    expect(ownersOf(sink.events[0].object)).toEqual(['bob']);
  });
});

describe('WatchHub: resuming from a resourceVersion judges visibility as of then', () => {
  let w: ReturnType<typeof world>;
  beforeEach(() => (w = world()));
  afterEach(() => w.hub.closeAll());

  it('sends DELETED with the old state to a caller that lost the row while away, ADDED to the one that gained it', () => {
    const rv = w.view.log.resourceVersion;
    w.tenant('oil', BOB);
    const a = w.watch(alice, { resourceVersion: rv });
    expect(a.kinds).toEqual(['DELETED oil-a']);
    expect(ownersOf(a.events[0].object)).toEqual(['alice']);
    const b = w.watch(bob, { resourceVersion: rv });
    expect(b.kinds).toEqual(['ADDED oil-a']);
    expect(ownersOf(b.events[0].object)).toEqual(['bob']);
  });

  it('replays a row changed several times, each event judged by the state it moves from and to', () => {
    const rv = w.view.log.resourceVersion;
    w.ns('oil-a', 'oil', { step: '1' });
    w.tenant('oil', BOB);
    w.ns('oil-a', 'oil', { step: '2' });
    const a = w.watch(alice, { resourceVersion: rv });
    expect(a.kinds).toEqual(['MODIFIED oil-a', 'DELETED oil-a']);
    expect(a.events[1].object.metadata.labels?.step).toBe('1');
    expect(ownersOf(a.events[1].object)).toEqual(['alice']);
    const b = w.watch(bob, { resourceVersion: rv });
    expect(b.kinds).toEqual(['ADDED oil-a', 'MODIFIED oil-a']);
    expect(b.events.map((e) => e.object.metadata.labels?.step)).toEqual(['1', '2']);
  });

  it('sends a row that came and went while away as ADDED then DELETED', () => {
    const rv = w.view.log.resourceVersion;
    w.tenant('gas', [...BOB, ...ALICE]);
    w.ns('gas-x', 'gas');
    w.tenant('gas', BOB);
    const a = w.watch(alice, { resourceVersion: rv, fieldSelector: parseFieldSelector('spec.tenant=gas') });
    expect(a.kinds).toEqual(['ADDED gas-x', 'DELETED gas-x']);
    expect(ownersOf(a.events[1].object)).toEqual(['bob', 'alice']);
  });

  it('sends DELETED for a row that stopped matching the label selector while away', () => {
    w.ns('oil-a', 'oil', { tier: 'prod' });
    const rv = w.view.log.resourceVersion;
    w.ns('oil-a', 'oil', { tier: 'dev' });
    w.ns('oil-b', 'oil', { tier: 'prod' });
    const a = w.watch(alice, { resourceVersion: rv, labelSelector: parseLabelSelector('tier=prod') });
    expect(a.kinds).toEqual(['DELETED oil-a', 'ADDED oil-b']);
    expect(a.events[0].object.metadata.labels?.tier).toBe('prod');
  });

  it('sends nothing for rows the caller could see neither then nor now', () => {
    const rv = w.view.log.resourceVersion;
    w.ns('gas-y', 'gas');
    w.tenant('oil', [...ALICE, { kind: 'User', name: 'carol' }]);
    const b = w.watch(bob, { resourceVersion: rv });
    expect(b.kinds).toEqual(['ADDED gas-y']);
  });
});

describe('WatchHub: shutting down', () => {
  it('ends each live watch that allows bookmarks with one at the current resourceVersion, so its client resumes elsewhere', () => {
    const w = world();
    const withBookmarks = w.watch(alice, { allowWatchBookmarks: true });
    const without = w.watch(alice);
    w.ns('oil-a', 'oil', { step: '1' });
    w.hub.closeAll();
    expect(withBookmarks.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED', 'BOOKMARK']);
    expect(withBookmarks.events[2].object.metadata.resourceVersion).toBe(w.view.log.resourceVersion);
    expect(without.events.map((e) => e.type)).toEqual(['ADDED', 'MODIFIED']);
    expect(w.hub.size).toBe(0);
  });

  it('ends a watch that arrives afterwards (its request was under way) at once, with a bookmark at its own resourceVersion', () => {
    const w = world();
    const rv = w.view.log.resourceVersion;
    w.ns('oil-a', 'oil', { step: '1' });
    w.hub.closeAll();
    const late = w.watch(alice, { resourceVersion: rv, allowWatchBookmarks: true });
    // Not the change after rv: the client resumes from rv on another replica, which sends it.
    expect(late.events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([['BOOKMARK', rv]]);
    expect(late.ended).toBe(true);
    const fresh = w.watch(alice, { allowWatchBookmarks: true });
    expect([fresh.events, fresh.ended]).toEqual([[], true]);
    expect(w.hub.size).toBe(0);
  });

  it('ends a watch still waiting for a resourceVersion this replica has not reached with a bookmark at that resourceVersion', () => {
    const w = world();
    const ahead = TEST_SEAL.seal(encodeVersion(w.view.log.sources.map((s) => ({ rev: s.rev + 10, fingerprint: '0123456789abcdef' }))));
    const waiting = w.watch(alice, { resourceVersion: ahead, allowWatchBookmarks: true });
    expect(w.hub.size).toBe(1);
    w.hub.closeAll();
    expect(waiting.events.map((e) => [e.type, e.object.metadata.resourceVersion])).toEqual([['BOOKMARK', ahead]]);
    expect(waiting.ended).toBe(true);
  });
});

describe('WatchHub: timeoutSeconds', () => {
  /** A watch that allows bookmarks (every 20 ms) with `timeoutSeconds`, and a promise of its next bookmark or its end. */
  function watchFor(timeoutSeconds: number) {
    const { view } = tenantWorld({ window: 100 });
    const hub = new WatchHub(tenantNamespacesResource(view), { maxBufferedBytes: 1 << 20, bookmarkIntervalMs: 20, minTimeoutSeconds: 3600, resourceVersionWaitMs: 200, log: logger() });
    const sink = new EventSink<TenantNamespace>();
    let settle: () => void = () => {};
    const bookmarkOrEnd = new Promise<void>((resolve) => (settle = resolve));
    const write = sink.write.bind(sink);
    sink.write = (bytes) => (write(bytes), sink.events.some((e) => e.type === 'BOOKMARK') && settle(), true);
    sink.end = () => ((sink.ended = true), settle());
    watchInto(hub, alice, { allowWatchBookmarks: true, timeoutSeconds }, sink);
    return { hub, sink, bookmarkOrEnd };
  }

  // 2147484 s is the first whole number of seconds whose milliseconds do not fit a 32-bit timer delay.
  it.each([2147483, 2147484, 9999999999, 9223372036854775807])('keeps a watch with timeoutSeconds=%d open: a bookmark comes, and the stream goes on', async (timeoutSeconds) => {
    const { hub, sink, bookmarkOrEnd } = watchFor(timeoutSeconds);
    try {
      await bookmarkOrEnd;
      expect(sink.ended).toBe(false);
      expect(sink.events.map((e) => e.type)).toContain('BOOKMARK');
    } finally {
      hub.closeAll();
    }
  });
});
