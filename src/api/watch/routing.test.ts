import type { PaddockCache } from '../../cache/paddock-cache';
import { FakeInformer } from '../../cache/testing/fake-informer';
import type { KubeObject } from '../../kube/types';
import type { Viewer } from '../registration/served-resource';
import { admits } from '../storage/audience';
import { seededRandom as random } from '../../testing/seeded-random';
import { TEST_SEAL, tenantWorld } from '../testing/tenant-world';
import { viewResources } from '../resources';
import type { Audience, Change, RowState } from '../storage/change';
import { AudienceRoutes, Broadcast, routesOf, type Routes } from './routing';
import { NumberedFeed } from '../storage/testing/numbered-feed';
import { Watcher, type WatchSink } from './watcher';

interface Row {
  metadata: { name: string };
  v: number;
}

/** Records each event as `TYPE name v rv`; past `budget` writes it reports itself full, and its watch closes as too slow. */
class RecordingSink implements WatchSink {
  readonly lines: string[] = [];
  constructor(readonly budget = Infinity) {}
  write(bytes: Buffer): boolean {
    this.lines.push(bytes.toString());
    return true;
  }
  get bufferedBytes(): number {
    return this.lines.length > this.budget ? Number.MAX_SAFE_INTEGER : 0;
  }
  end(): void {}
  destroy(): void {}
  flush(): void {}
  onDrain(ready: () => void): void {
    setImmediate(ready);
  }
}

const USERS = ['u0', 'u1', 'u2', 'u3'];
const GROUPS = ['g0', 'g1', 'g2'];
/** Owner keys a row's audience is drawn from: those viewers hold, and some nobody holds. */
const KEYS = [
  ...USERS.map((u) => `User:${u}`), ...GROUPS.map((g) => `Group:${g}`), 'Group:system:authenticated',
  'ServiceAccount:ci/robot', 'ServiceAccount:ci/other', 'User:system:serviceaccount:ci:robot', 'User:nobody-holds-this', 'Group:nobody-holds-this',
];

function viewers(r: ReturnType<typeof random>): Viewer[] {
  const out: Viewer[] = USERS.map((name) => ({ name, groups: [...GROUPS.filter(() => r.chance(0.4)), 'system:authenticated'], seesAll: false }));
  out.push({ name: 'system:serviceaccount:ci:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'], seesAll: false });
  out.push({ name: 'admin', groups: ['system:masters'], seesAll: true });
  out.push({ name: 'stranger', groups: [], seesAll: false });
  return out;
}

/**
 * The same history of changes handed to twin watches: one subscribed to every change (as before routing),
 * one routed. Each pair has the same viewer, selector and sink budget; watches open and close along the way.
 */
function twins(seed: number) {
  const r = random(seed);
  const feed = new NumberedFeed<Row>();
  const routed = new AudienceRoutes<Row>((l) => feed.subscribe(l));
  const all = new Broadcast<Row>((l) => feed.subscribe(l));
  const pairs: { viewer: Viewer; reference: Watcher<Row>; routed: Watcher<Row>; sinks: [RecordingSink, RecordingSink] }[] = [];
  const people = viewers(r);

  const open = () => {
    const viewer = r.pick(people);
    const even = r.chance(0.3);
    const budget = r.chance(0.3) ? 1 + r.int(20) : Infinity;
    const watch = (routes: Routes<Row>, sink: RecordingSink) => {
      let remove = () => {};
      const w: Watcher<Row> = new Watcher<Row>(sink, {
        sight: { admits: (a) => admits(viewer, a), matches: (o) => !even || o.v % 2 === 0 },
        encode: (c: Change<Row>, type, o) => Buffer.from(`${type} ${o.metadata.name} ${o.v} ${c.rv}`),
        maxBufferedBytes: 1,
        onClose: () => remove(),
      });
      remove = routes.add(viewer, w);
      return w;
    };
    const sinks: [RecordingSink, RecordingSink] = [new RecordingSink(budget), new RecordingSink(budget)];
    pairs.push({ viewer, reference: watch(all, sinks[0]), routed: watch(routed, sinks[1]), sinks });
  };

  const rows = new Map<string, RowState<Row>>();
  /** Audiences are shared objects, as the views share one per owner list: reuse some, make others anew. */
  const audiences: Audience[] = [new Set()];
  const audience = (): Audience => {
    if (r.chance(0.5)) return r.pick(audiences);
    const a = new Set(KEYS.filter(() => r.chance(0.2)));
    audiences.push(a);
    return a;
  };
  const change = () => {
    const name = `row-${r.int(12)}`;
    const before = rows.get(name);
    const after = before && r.chance(0.15) ? undefined
      : { object: { metadata: { name }, v: r.int(4) }, audience: before && r.chance(0.4) ? before.audience : audience() };
    if (!before && !after) return;
    if (after) rows.set(name, after);
    else rows.delete(name);
    feed.append(before, after);
  };

  for (let i = 0; i < 8; i++) open();
  for (let step = 0; step < 600; step++) {
    if (r.chance(0.02)) open();
    if (r.chance(0.01) && pairs.length) {
      const p = r.pick(pairs);
      p.reference.close('client');
      p.routed.close('client');
    }
    change();
  }
  return { pairs, routed, feed };
}

describe('AudienceRoutes: a routed watch sends exactly what it sent when handed every change', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`for a random history of owners, audiences, selectors and watches opening and closing (seed ${seed})`, () => {
      const { pairs, routed, feed } = twins(seed);
      for (const p of pairs) {
        expect(p.sinks[1].lines).toEqual(p.sinks[0].lines);
        expect(p.routed.closed).toBe(p.reference.closed);
      }
      // The history exercised what routing could get wrong.
      const lines = pairs.flatMap((p) => p.sinks[0].lines);
      for (const type of ['ADDED', 'MODIFIED', 'DELETED']) expect(lines.some((l) => l.startsWith(type))).toBe(true);
      expect(pairs.some((p) => p.viewer.seesAll && p.sinks[0].lines.length > 0)).toBe(true);
      expect(pairs.some((p) => p.reference.closed)).toBe(true);
      // Closed watches left the index: the routes hold exactly the open ones, on one subscription.
      const open = pairs.filter((p) => !p.routed.closed).length;
      expect(routed.size).toBe(open);
      expect(feed.listenerCount).toBe(open + (open > 0 ? 1 : 0));
    });
  }
});

describe('AudienceRoutes: watches closing while a change is handed out', () => {
  const alice: Viewer = { name: 'alice', groups: ['devs'], seesAll: false };
  const row = (v: number): RowState<Row> => ({ object: { metadata: { name: 'r' }, v }, audience: new Set(['User:alice']) });

  it('a watch closed by another\'s write is handed the change, sends nothing, and leaves the index; the others get it', () => {
    const feed = new NumberedFeed<Row>();
    const routes = new AudienceRoutes<Row>((l) => feed.subscribe(l));
    const sinks: string[][] = [[], [], []];
    const watchers: Watcher<Row>[] = [];
    for (let i = 0; i < 3; i++) {
      let remove = () => {};
      const w: Watcher<Row> = new Watcher<Row>({
        write: (b) => {
          sinks[i].push(b.toString());
          // Each write closes every other watch: whichever is handed the change first, the others send nothing.
          for (const other of watchers) if (other !== w) other.close('client');
          return true;
        },
        bufferedBytes: 0, end() {}, destroy() {}, flush() {}, onDrain: (ready) => setImmediate(ready),
      }, {
        sight: { admits: (a) => admits(alice, a), matches: () => true },
        encode: (_c, type, o) => Buffer.from(`${type} ${o.v}`),
        maxBufferedBytes: 1 << 20,
        onClose: () => remove(),
      });
      remove = routes.add(alice, w);
      watchers.push(w);
    }
    feed.append(undefined, row(1));
    expect(sinks.flat()).toEqual(['ADDED 1']);
    expect(watchers.filter((w) => !w.closed)).toHaveLength(1);
    expect(routes.size).toBe(1);
    feed.append(row(1), row(2));
    expect(sinks.flat()).toEqual(['ADDED 1', 'MODIFIED 2']);
    watchers.forEach((w) => w.close('client'));
    expect([routes.size, feed.listenerCount]).toEqual([0, 0]);
  });
});

describe('AudienceRoutes: the order a change is handed out in', () => {
  it('the watches of the change\'s owners first, then those that see all (kube-controller-manager\'s metadata informers among them)', () => {
    const feed = new NumberedFeed<Row>();
    const routes = new AudienceRoutes<Row>((l) => feed.subscribe(l));
    const order: string[] = [];
    const route = (name: string) => ({ deliver: () => void order.push(name) });
    // Opened in the order that, handed out as opened, would serve the ones that see all first.
    routes.add({ name: 'kube-controller-manager', groups: [], seesAll: true }, route('sees all 1'));
    routes.add({ name: 'alice', groups: ['devs'], seesAll: false }, route('alice'));
    routes.add({ name: 'admin', groups: ['system:masters'], seesAll: true }, route('sees all 2'));
    routes.add({ name: 'bob', groups: [], seesAll: false }, route('bob'));
    routes.add({ name: 'carol', groups: ['devs'], seesAll: false }, route('carol'));
    feed.append(undefined, { object: { metadata: { name: 'r' }, v: 1 }, audience: new Set(['Group:devs']) });
    expect(order).toEqual(['alice', 'carol', 'sees all 1', 'sees all 2']);
  });
});

describe('routesOf: every view the hub serves admits by the owner-key rule, so its changes are routed', () => {
  it('the TenantNamespace view and each projected view', () => {
    expect(routesOf(tenantWorld().view)).toBeInstanceOf(AudienceRoutes);
    const informers = new Map<string | symbol, FakeInformer<KubeObject>>();
    const cache = new Proxy({}, { get: (_o, k) => informers.get(k) ?? informers.set(k, new FakeInformer()).get(k) }) as unknown as PaddockCache;
    const resources = viewResources(cache, 100, TEST_SEAL);
    expect(resources.length).toBeGreaterThan(0);
    for (const r of resources) expect([r.names.resource, routesOf(r.storage) instanceof AudienceRoutes]).toEqual([r.names.resource, true]);
  });
});
