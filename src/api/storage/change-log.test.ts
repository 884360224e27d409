import type { KubeObject, Namespace, ResourceQuota, Tenant, TenantNamespace } from '../../kube/types';
import type { Viewer } from '../registration/served-resource';
import { tenantWorld } from '../testing/tenant-world';
import type { Change } from './change';
import { ResourceVersionSeal } from './version-seal';
import { MAX_RESOURCE_VERSION_WAITS, REPLAYS_KEPT } from './change-log';
import { eventFor, type Sight } from './visibility';

/**
 * Two replicas of the TenantNamespace view, fed the same changes of its three sources (Namespaces,
 * Tenants, ResourceQuotas) — each source's changes in order, the sources interleaved differently, as
 * two processes watching kube-apiserver receive them. A client that listed and watched one replica
 * resumes on the other from a resourceVersion the first gave it.
 */

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
}

type Source = 'namespaces' | 'tenants' | 'quotas';
interface SourceChange { source: Source; key: string; obj?: KubeObject }

const NAMES = ['oil-a', 'oil-b', 'oil-c', 'gas-a', 'gas-b'];
const OWNERS = [[{ kind: 'User' as const, name: 'alice' }], [{ kind: 'User' as const, name: 'bob' }], [{ kind: 'User' as const, name: 'alice' }, { kind: 'User' as const, name: 'bob' }]];
const alice: Viewer = { name: 'alice', groups: ['system:authenticated'], seesAll: false };

/** `count` random changes of the three sources, each object carrying the next revision (one counter, as etcd's). */
function changes(seed: number, count: number): SourceChange[] {
  const next = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  let rev = 1000;
  const out: SourceChange[] = [];
  for (let i = 0; i < count; i++) {
    const resourceVersion = String(++rev);
    const r = next();
    if (r < 0.4) {
      const name = pick(NAMES);
      const obj: Namespace = { metadata: { name, uid: `uid-${name}`, resourceVersion, labels: { 'paddock.dev/tenant': pick(['oil', 'gas', name.slice(0, 3)]), tier: pick(['prod', 'dev']) } }, status: { phase: 'Active' } };
      out.push({ source: 'namespaces', key: name, obj: next() < 0.15 ? undefined : obj });
    } else if (r < 0.75) {
      const name = pick(['oil', 'gas']);
      const claims = NAMES.filter((n) => n.startsWith(`${name}-`) && next() < 0.7).map((n) => ({ name: n, origin: 'Declared' as const, uid: `uid-${n}` }));
      const obj: Tenant = { metadata: { name, uid: name, resourceVersion }, spec: { owners: pick(OWNERS) }, status: { claims } };
      out.push({ source: 'tenants', key: name, obj: next() < 0.05 ? undefined : obj });
    } else {
      const namespace = pick(NAMES);
      const obj: ResourceQuota = { metadata: { name: 'q', namespace, resourceVersion }, spec: { hard: { pods: '10' } }, status: { hard: { pods: '10' }, used: { pods: String(Math.floor(next() * 10)) } } };
      out.push({ source: 'quotas', key: `${namespace}/q`, obj: next() < 0.2 ? undefined : obj });
    }
  }
  return out;
}

/** One replica: its informers and view, its sources' histories `window` changes long. */
function replica(window = 1000) {
  const w = tenantWorld({ window });
  const informers = { namespaces: w.namespaces, tenants: w.tenants, quotas: w.quotas } as const;
  const apply = (c: SourceChange) => {
    const informer = informers[c.source] as unknown as { set(k: string, o: KubeObject): void; remove(k: string): void };
    if (c.obj) informer.set(c.key, c.obj);
    else informer.remove(c.key);
  };
  return { view: w.view, namespaces: w.namespaces, apply };
}

/** The same changes, each source's in order, the sources interleaved at random (another replica's arrival order). */
function interleaved(all: SourceChange[], seed: number): SourceChange[] {
  const next = random(seed);
  const queues = new Map<Source, SourceChange[]>();
  for (const c of all) queues.set(c.source, [...(queues.get(c.source) ?? []), c]);
  const out: SourceChange[] = [];
  while (out.length < all.length) {
    const open = [...queues.values()].filter((q) => q.length > 0);
    out.push(open[Math.floor(next() * open.length)].shift()!);
  }
  return out;
}

const sight = (view: ReturnType<typeof replica>['view']): Sight<TenantNamespace> => ({ admits: (a) => view.admits(alice, a), matches: () => true });
const visible = (view: ReturnType<typeof replica>['view']) => new Map(view.visibleRows(alice).map((r) => [r.metadata.name, r]));
/** A row's JSON without its resourceVersion (read through JSON: a row is a flat record, see tenantnamespaces/row.ts). */
const content = (r: TenantNamespace) => {
  const o = JSON.parse(JSON.stringify(r)) as TenantNamespace;
  return JSON.stringify({ ...o, metadata: { ...o.metadata, resourceVersion: undefined } });
};

/** Applies the events `changes` make for alice to the rows she holds, checking each is one she can take (no empty or impossible event). */
function replayOnto(client: Map<string, TenantNamespace>, changes: readonly Change<TenantNamespace>[], view: ReturnType<typeof replica>['view']): void {
  for (const change of changes) {
    const event = eventFor(sight(view), change);
    if (!event) continue;
    const name = event.object.metadata.name;
    if (event.type === 'ADDED') expect(client.has(name)).toBe(false);
    else expect(client.has(name)).toBe(true);
    if (event.type === 'DELETED') {
      expect(content(event.object)).toBe(content(client.get(name)!)); // the last state the client had
      client.delete(name);
    } else {
      if (event.type === 'MODIFIED') expect(content(event.object)).not.toBe(content(client.get(name)!)); // no empty events
      client.set(name, event.object);
    }
  }
}

describe('a resourceVersion from one replica, resumed on another', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])('takes the client from the rows it saw to the rows it may see now, exactly (seed %i)', (seed) => {
    const all = changes(seed, 120);
    const a = replica();
    const b = replica();
    const cut = 30 + (seed * 7) % 60;
    for (const c of all.slice(0, cut)) a.apply(c);
    // What alice listed on replica A, and the resourceVersion it came with.
    const client = visible(a.view);
    const rv = a.view.log.resourceVersion;

    const order = interleaved(all, seed * 31);
    for (const c of order) b.apply(c);
    const events = b.view.log.since(rv);
    expect(Array.isArray(events)).toBe(true);
    replayOnto(client, events as Change<TenantNamespace>[], b.view);
    expect([...client.keys()].sort()).toEqual([...visible(b.view).keys()].sort());
    for (const [name, row] of visible(b.view)) expect(content(client.get(name)!)).toBe(content(row));
  });

  it('answers a replica that has not seen the client\'s changes yet with "ahead", and resumes once it has', () => {
    const all = changes(42, 60);
    const a = replica();
    const b = replica();
    for (const c of all) a.apply(c);
    const rv = a.view.log.resourceVersion;
    for (const c of all.slice(0, 40)) b.apply(c);
    expect(b.view.log.since(rv)).toBe('ahead');
    for (const c of all.slice(40)) b.apply(c);
    expect(b.view.log.since(rv)).toEqual([]);
  });

  it('resumes on a replica that started after the client listed, when nothing changed in between', () => {
    const all = changes(7, 80);
    const a = replica();
    for (const c of all) a.apply(c);
    const rv = a.view.log.resourceVersion;
    // A replica that starts now lists the same objects: its sources are in the same states.
    const fresh = replica();
    const last = new Map(all.map((c) => [`${c.source}/${c.key}`, c]));
    for (const c of last.values()) if (c.obj) fresh.apply(c);
    expect(fresh.view.log.since(rv)).toEqual([]);
    expect(fresh.view.log.resourceVersion).not.toBe(''); // and its own resourceVersion resumes on A
    expect(a.view.log.since(fresh.view.log.resourceVersion)).toEqual([]);
  });

  it('answers 410-worthy "expired" for a state it never held and has gone past', () => {
    const all = changes(9, 80);
    const a = replica();
    for (const c of all.slice(0, 40)) a.apply(c);
    const rv = a.view.log.resourceVersion;
    const fresh = replica();
    const last = new Map(all.map((c) => [`${c.source}/${c.key}`, c]));
    for (const c of last.values()) if (c.obj) fresh.apply(c);
    expect(fresh.view.log.since(rv)).toBe('expired');
  });
});

describe('watches that resume from one resourceVersion together', () => {
  it('share one replay, and so the bytes of each event, until a source moves on', () => {
    const all = changes(3, 80);
    const a = replica();
    for (const c of all.slice(0, 40)) a.apply(c);
    const rv = a.view.log.resourceVersion;
    for (const c of all.slice(40)) a.apply(c);
    const first = a.view.log.since(rv);
    expect(Array.isArray(first) && first.length > 0).toBe(true);
    expect(a.view.log.since(rv)).toBe(first);
    // Another resourceVersion gets its own replay, and the first one's is still shared.
    expect(a.view.log.since(a.view.log.resourceVersion)).toEqual([]);
    expect(a.view.log.since(rv)).toBe(first);
    // A namespace change that changes no row moves its source: the replay is extended, by nothing.
    a.namespaces.set('elsewhere', { metadata: { name: 'elsewhere', uid: 'uid-elsewhere' } });
    const moved = a.view.log.since(rv);
    expect(moved).not.toBe(first);
    expect(moved).toHaveLength((first as unknown[]).length);
    expect(a.view.log.since(rv)).toBe(moved);
  });

  it(`keep ${REPLAYS_KEPT} replays, dropping the one cheapest to make again: groups resuming from each, in turns, share theirs`, () => {
    const all = changes(5, 100);
    const a = replica();
    // REPLAYS_KEPT + 1 resourceVersions, each ten changes after the one before: the earlier, the longer its replay.
    const rvs: string[] = [];
    for (let k = 0; k <= REPLAYS_KEPT; k++) {
      for (const c of all.slice(k * 10, (k + 1) * 10)) a.apply(c);
      rvs.push(a.view.log.resourceVersion);
    }
    for (const c of all.slice((REPLAYS_KEPT + 1) * 10)) a.apply(c);
    const kept = rvs.slice(0, REPLAYS_KEPT);
    const made = kept.map((rv) => a.view.log.since(rv));
    // In turns, in any order: each is its group's own replay, not made again.
    for (const k of [2, 0, 3, 1, 1, 0]) expect(a.view.log.since(kept[k])).toBe(made[k]);
    // Resumes from where the view is now (every watch that restarts) cost nothing to make again: kept
    // only while there is room, they never push out a group's replay.
    for (let k = 0; k < 2 * REPLAYS_KEPT; k++) expect(a.view.log.since(a.view.log.resourceVersion)).toEqual([]);
    for (const k of [0, 1, 2, 3]) expect(a.view.log.since(kept[k])).toBe(made[k]);
    // One more, shorter than all of them: it is the one dropped, and made again (the same) when asked again.
    const shortest = a.view.log.since(rvs[REPLAYS_KEPT]);
    expect(Array.isArray(shortest) && shortest.length > 0).toBe(true);
    for (const k of [0, 1, 2, 3]) expect(a.view.log.since(kept[k])).toBe(made[k]);
    const again = a.view.log.since(rvs[REPLAYS_KEPT]);
    expect(again).not.toBe(shortest);
    expect(again).toEqual(shortest);
  });

  it('answer 410 at once, without making the replay again, once it has cost more than the budget', () => {
    const all = changes(1, 6020);
    const a = replica(20_000);
    for (const c of all.slice(0, 50)) a.apply(c);
    const rv = a.view.log.resourceVersion;
    for (const c of all.slice(50, 6000)) a.apply(c);
    const join = jest.spyOn(a.view.log.join, 'rowAt');
    expect(a.view.log.since(rv)).toBe('expired');
    expect(join.mock.calls.length).toBeGreaterThan(0);
    join.mockClear();
    // The next client of the group, and the one after the sources moved on: answered from memory.
    expect(a.view.log.since(rv)).toBe('expired');
    for (const c of all.slice(6000)) a.apply(c);
    expect(a.view.log.since(rv)).toBe('expired');
    expect(join).not.toHaveBeenCalled();
    // A resourceVersion within the budget is still replayed.
    expect(Array.isArray(a.view.log.since(a.view.log.resourceVersion))).toBe(true);
  });

  it.each([1, 2, 3, 4, 5, 6])('extend the replay from where it ended as the sources move on, to exactly the rows now (seed %i)', (seed) => {
    const all = changes(seed, 150);
    const a = replica();
    for (const c of all.slice(0, 30)) a.apply(c);
    const client = visible(a.view);
    const rv = a.view.log.resourceVersion;
    // Resumes from rv come while the sources move on: each extends the replay made before it.
    let replay: readonly Change<TenantNamespace>[] = [];
    for (let at = 30; at < all.length; at += 10 + (seed % 7)) {
      for (const c of all.slice(at, at + 10 + (seed % 7))) a.apply(c);
      const next = a.view.log.since(rv) as Change<TenantNamespace>[];
      // What was given before, the same changes (not made again, their bytes with them), then more.
      expect(next.slice(0, replay.length).every((c, i) => c === replay[i])).toBe(true);
      replay = next;
    }
    replayOnto(client, replay, a.view);
    expect([...client.keys()].sort()).toEqual([...visible(a.view).keys()].sort());
    for (const [name, row] of visible(a.view)) expect(content(client.get(name)!)).toBe(content(row));
    // Each event's resourceVersion names the state after it: a client cut off there resumes with the rest,
    // on this replica as on one that received the sources' changes in another order.
    const b = replica();
    for (const c of interleaved(all, seed * 17)) b.apply(c);
    for (const k of [0, Math.floor(replay.length / 3), Math.floor(replay.length / 2), replay.length - 1]) {
      const held = visible(replicaAt(all.slice(0, 30)).view);
      replayOnto(held, replay.slice(0, k + 1), a.view); // alice's rows after event k
      const rest = b.view.log.since(replay[k].rv);
      expect(Array.isArray(rest)).toBe(true);
      replayOnto(held, rest as Change<TenantNamespace>[], b.view);
      expect([...held.keys()].sort()).toEqual([...visible(a.view).keys()].sort());
      for (const [name, row] of visible(a.view)) expect(content(held.get(name)!)).toBe(content(row));
    }
  });
});

/** A replica that has applied `changes`. */
function replicaAt(changesSoFar: SourceChange[]) {
  const r = replica();
  for (const c of changesSoFar) r.apply(c);
  return r;
}

describe('waiting for a resourceVersion this replica has not reached', () => {
  /** A replica 40 changes behind another, and a resourceVersion of the other. */
  function behind() {
    const all = changes(42, 60);
    const a = replica();
    const b = replica();
    for (const c of all) a.apply(c);
    for (const c of all.slice(0, 40)) b.apply(c);
    return { rv: a.view.log.resourceVersion, b, rest: all.slice(40) };
  }

  it('resolves once the replica reaches it', async () => {
    const { rv, b, rest } = behind();
    let reached = false;
    const waiting = b.view.log.whenReached(rv, 60_000).then(() => (reached = b.view.log.locate(rv) !== 'ahead'));
    for (const c of rest) b.apply(c);
    await waiting;
    expect(reached).toBe(true);
  });

  it('reads and opens the resourceVersion once per request, not at every event of the sources', async () => {
    const { rv, b, rest } = behind();
    const verify = jest.spyOn(b.view.log.seal, 'open');
    const waits = Array.from({ length: 50 }, () => b.view.log.whenReached(rv, 60_000));
    const afterStart = verify.mock.calls.length;
    for (const c of rest) b.apply(c);
    await Promise.all(waits);
    // Each event of a waited-for source costs each waiter lookups only; the last one places it for real.
    expect(verify.mock.calls.length - afterStart).toBeLessThanOrEqual(waits.length);
    verify.mockRestore();
  });

  it(`lets at most ${MAX_RESOURCE_VERSION_WAITS} requests wait at once; one more is answered at once`, async () => {
    const { rv, b, rest } = behind();
    let released = 0;
    const waits = Array.from({ length: MAX_RESOURCE_VERSION_WAITS }, () => b.view.log.whenReached(rv, 60_000).then(() => released++));
    await b.view.log.whenReached(rv, 60_000); // resolves with no event: no slot left to wait in
    expect(released).toBe(0);
    for (const c of rest) b.apply(c);
    await Promise.all(waits);
    expect(released).toBe(MAX_RESOURCE_VERSION_WAITS);
  });

  it('gives the place of a wait whose client went away back at once', async () => {
    const { rv, b, rest } = behind();
    const gone = Array.from({ length: MAX_RESOURCE_VERSION_WAITS }, () => new AbortController());
    const waits = gone.map((g) => b.view.log.whenReached(rv, 60_000, g.signal));
    for (const g of gone) g.abort();
    await Promise.all(waits); // each resolves with no event
    let reached = false;
    const waiting = b.view.log.whenReached(rv, 60_000).then(() => (reached = b.view.log.locate(rv) !== 'ahead'));
    for (const c of rest) b.apply(c);
    await waiting;
    // It waited for the events: the places the aborted waits held were free again.
    expect(reached).toBe(true);
  });
});

describe('a delete precondition on another replica', () => {
  it('holds for the resourceVersion the first replica gave the row while the row is unchanged, and not after', () => {
    const all = changes(11, 80).filter((c) => c.source !== 'quotas');
    const a = replica();
    const b = replica();
    for (const c of all) a.apply(c);
    for (const c of interleaved(all, 5)) b.apply(c);
    const row = a.view.all()[0];
    expect(row).toBeDefined();
    const name = row.metadata.name;
    expect(b.view.get(name)!.metadata.resourceVersion).not.toBe(row.metadata.resourceVersion);
    expect(b.view.unchangedSince(name, row.metadata.resourceVersion!)).toBe(true);
    const ns = { source: 'namespaces' as const, key: name, obj: { ...b.namespaces.store.get(name)!, metadata: { ...b.namespaces.store.get(name)!.metadata, resourceVersion: '99999', labels: { ...b.namespaces.store.get(name)!.metadata.labels, touched: 'yes' } } } };
    b.apply(ns);
    expect(b.view.unchangedSince(name, row.metadata.resourceVersion!)).toBe(false);
  });
});

describe('resourceVersions a client could forge', () => {
  /** alice owns oil (one namespace) and keeps a resourceVersion; then loses it, and oil-a changes. */
  function revoked() {
    const w = tenantWorld({ window: 1000 });
    const claim = { name: 'oil-a', origin: 'Declared' as const, uid: 'uid-oil-a' };
    w.tenant('oil', [{ kind: 'User', name: 'alice' }], [claim]);
    w.namespace('oil-a', 'oil');
    const old = w.view.log.resourceVersion;
    w.tenant('oil', [{ kind: 'User', name: 'bob' }], [claim]);
    w.namespaces.set('oil-a', { metadata: { name: 'oil-a', uid: 'uid-oil-a', labels: { 'paddock.dev/tenant': 'oil', secret: 'after-revocation' } }, status: { phase: 'Active' } });
    return { w, old, now: w.view.log.resourceVersion };
  }

  it('refuses positions stitched from two moments (Tenants from before a revocation, Namespaces from after)', () => {
    const { w, old, now } = revoked();
    // Sealed, a resourceVersion has no parts to swap: the bytes of one spliced into the other.
    const [a, b] = [Buffer.from(now, 'base64url'), Buffer.from(old, 'base64url')];
    for (const at of [17, 33, 49, 60]) {
      const stitched = Buffer.concat([a.subarray(0, at), b.subarray(at, at + 16), a.subarray(at + 16)]).toString('base64url');
      expect(['expired', 'invalid']).toContain(w.view.log.since(stitched));
    }
    // Nor does the readable form of an earlier version stitch anything: it is expired.
    expect(w.view.log.since('1-0000000000000000.2-0000000000000000.3-0000000000000000.AbCdEfGhIjKlMnOpQrStUv')).toBe('expired');
    // What a replica gave out still resumes: alice's old resourceVersion ends her row with the state she saw.
    const events = (w.view.log.since(old) as Change<TenantNamespace>[]).map((c) => eventFor(sight(w.view), c)).filter(Boolean);
    expect(events.map((e) => `${e!.type} ${e!.object.metadata.labels?.secret ?? '-'}`)).toEqual(['DELETED -']);
  });

  it('refuses a resourceVersion sealed with another key', () => {
    const { w, now } = revoked();
    const other = new ResourceVersionSeal(() => 'another key');
    expect(w.view.log.since(other.seal(w.view.log.seal.open(now)!))).toBe('expired');
  });
});

describe('one source change that changes many rows', () => {
  it('numbers each row change of its own: a client cut off after any of them resumes with exactly the rest', () => {
    const w = tenantWorld({ window: 1000 });
    const claims = ['oil-a', 'oil-b', 'oil-c'].map((name) => ({ name, origin: 'Declared' as const, uid: `uid-${name}` }));
    w.tenant('oil', [{ kind: 'User', name: 'alice' }], claims);
    for (const c of claims) w.namespace(c.name, 'oil');
    const live: Change<TenantNamespace>[] = [];
    w.view.subscribe((c) => live.push(c));
    w.tenant('oil', [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'bob' }], claims);
    expect(live.map((c) => c.object.metadata.name)).toEqual(['oil-a', 'oil-b', 'oil-c']);
    expect(new Set(live.map((c) => c.rv)).size).toBe(3);
    live.forEach((c, k) => {
      const rest = w.view.log.since(c.rv) as Change<TenantNamespace>[];
      expect(rest.map((r) => r.object.metadata.name)).toEqual(live.slice(k + 1).map((r) => r.object.metadata.name));
    });
  });
});
