import { KubeApiError } from '../kube/errors';
import type { KubeList, KubeObject, Status, WatchEvent } from '../kube/types';
import type { ListerWatcher } from './list-watch';
import { silentLogger } from '../kube/log';
import { SharedInformer } from './informer';
import { waitFor } from '../testing/wait';

const soon = (what: string, check: () => boolean) => waitFor(what, check, 2000, 2);

// ---- a fake ListerWatcher the tests drive ----
/** One fake watch stream the test drives: push events, end it, or fail it. */
class FakeWatch<T> implements AsyncIterable<WatchEvent<T>> {
  readonly #events: WatchEvent<T>[] = [];
  #ended = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  aborted = false;

  constructor(readonly opts: { resourceVersion: string; timeoutSeconds: number; allowWatchBookmarks: boolean }, signal: AbortSignal) {
    signal.addEventListener('abort', () => { this.aborted = true; this.end(); }, { once: true });
  }

  push(ev: WatchEvent<T>): void { this.#events.push(ev); this.#wake?.(); }
  end(): void { this.#ended = true; this.#wake?.(); }
  fail(err: unknown): void { this.#error = err; this.#wake?.(); }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>> {
    for (;;) {
      if (this.#events.length > 0) { yield this.#events.shift()!; continue; }
      if (this.#error !== undefined) throw this.#error;
      if (this.#ended) return;
      await new Promise<void>((r) => { this.#wake = r; });
      this.#wake = undefined;
    }
  }
}

type ListOpts = Parameters<ListerWatcher<KubeObject>['list']>[0];

/** A ListerWatcher whose lists come from `onList` and whose watches are FakeWatch streams. */
class FakeListWatch<T extends KubeObject> implements ListerWatcher<T> {
  readonly lists: ListOpts[] = [];
  readonly watches: FakeWatch<T>[] = [];
  #watchWaiters: (() => void)[] = [];
  onWatchOpen: ((opts: FakeWatch<T>['opts']) => void) | undefined;

  constructor(public onList: (opts: ListOpts) => KubeList<T> | Promise<KubeList<T>>) {}

  async list(opts: ListOpts): Promise<KubeList<T>> {
    this.lists.push(opts);
    return this.onList(opts);
  }

  watch(opts: FakeWatch<T>['opts'], signal: AbortSignal): AsyncIterable<WatchEvent<T>> {
    this.onWatchOpen?.(opts);
    const w = new FakeWatch<T>(opts, signal);
    this.watches.push(w);
    for (const wake of this.#watchWaiters.splice(0)) wake();
    return w;
  }

  /** Resolves with the n-th watch (1-based) once it has been opened. */
  async nthWatch(n: number): Promise<FakeWatch<T>> {
    while (this.watches.length < n) await new Promise<void>((r) => this.#watchWaiters.push(r));
    return this.watches[n - 1]!;
  }
}

function gone(message = 'too old resource version'): KubeApiError {
  return new KubeApiError(expiredStatus(message));
}

function expiredStatus(message = 'too old resource version'): Status {
  return { apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'Expired', code: 410, message };
}

function list(items: KubeObject[], resourceVersion: string, cont?: string): KubeList<KubeObject> {
  return { metadata: { resourceVersion, continue: cont }, items };
}

// ---- specifications ----
const ns = (name: string, rv: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, resourceVersion: rv, ...extra } });

function recorder() {
  const log: string[] = [];
  return {
    log,
    handler: {
      add: (o: KubeObject, initial: boolean) => log.push(`add ${o.metadata.name}${initial ? ' (initial)' : ''}`),
      update: (a: KubeObject, b: KubeObject) => log.push(`update ${b.metadata.name} ${a.metadata.resourceVersion}->${b.metadata.resourceVersion}`),
      delete: (o: KubeObject, info: { finalStateUnknown: boolean }) => log.push(`delete ${o.metadata.name}${info.finalStateUnknown ? ' (relist)' : ''}`),
    },
  };
}

const fast = { backoff: { initialMs: 1, maxMs: 5 }, logger: silentLogger };

describe('SharedInformer with a fake list/watch', () => {
  let ac: AbortController;
  beforeEach(() => { ac = new AbortController(); });
  afterEach(() => ac.abort());

  it('lists page by page, then watches from the list resourceVersion with bookmarks', async () => {
    const pages: Record<string, KubeList<KubeObject>> = {
      '': list([ns('a', '5')], '10', 'p2'),
      p2: list([ns('b', '6')], '10', 'p3'),
      p3: list([ns('c', '7')], '10'),
    };
    const lw = new FakeListWatch((o) => pages[o.continue ?? '']!);
    const inf = new SharedInformer('ns', lw, { reflector: { ...fast, pageSize: 1 }, logger: silentLogger });
    const rec = recorder();
    inf.addEventHandler(rec.handler);
    void inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    expect(lw.lists.map((l) => [l.limit, l.continue])).toEqual([[1, undefined], [1, 'p2'], [1, 'p3']]);
    expect(rec.log).toEqual(['add a (initial)', 'add b (initial)', 'add c (initial)']);
    const w = await lw.nthWatch(1);
    expect(w.opts.resourceVersion).toBe('10');
    expect(w.opts.allowWatchBookmarks).toBe(true);
    expect(w.opts.timeoutSeconds).toBeGreaterThanOrEqual(300);
    expect(w.opts.timeoutSeconds).toBeLessThanOrEqual(600);
  });

  it('stops when stopped between its list and its watch: no watch is left open', async () => {
    const lw = new FakeListWatch(() => list([ns('a', '5')], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    const running = inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    ac.abort();
    await running;
    expect(lw.watches.every((w) => w.aborted)).toBe(true);
  });

  it('applies events, strips managedFields, freezes objects and advances the resourceVersion on bookmarks', async () => {
    const lw = new FakeListWatch(() => list([ns('a', '5')], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    const rec = recorder();
    inf.addEventHandler(rec.handler);
    void inf.run(ac.signal);
    const w = await lw.nthWatch(1);
    w.push({ type: 'MODIFIED', object: ns('a', '11', { managedFields: [{ manager: 'x' }] }) });
    w.push({ type: 'ADDED', object: ns('b', '12') });
    w.push({ type: 'DELETED', object: ns('a', '13') });
    w.push({ type: 'BOOKMARK', object: { metadata: { name: '', resourceVersion: '20' } } });
    await soon('resource version 20 synced', () => inf.lastSyncResourceVersion === '20');
    expect(rec.log).toEqual(['add a (initial)', 'update a 5->11', 'add b', 'delete a']);
    const b = inf.store.get('b')!;
    expect(Object.isFrozen(b) && Object.isFrozen(b.metadata)).toBe(true);
    expect(inf.store.size).toBe(1);
    w.end();
    const w2 = await lw.nthWatch(2);
    expect(w2.opts.resourceVersion).toBe('20');
    expect(lw.lists).toHaveLength(1);
  });

  it('re-watches from the last resourceVersion after a broken connection, without relisting', async () => {
    const lw = new FakeListWatch(() => list([], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    void inf.run(ac.signal);
    const w = await lw.nthWatch(1);
    w.push({ type: 'ADDED', object: ns('a', '11') });
    await soon('one object in the store', () => inf.store.size === 1);
    w.fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    const w2 = await lw.nthWatch(2);
    expect(w2.opts.resourceVersion).toBe('11');
    expect(lw.lists).toHaveLength(1);
  });

  it('relists on a 410 ERROR event and reports deletions that happened meanwhile', async () => {
    let items = [ns('a', '5'), ns('b', '6')];
    let rv = '10';
    const lw = new FakeListWatch(() => list(items, rv));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    const rec = recorder();
    inf.addEventHandler(rec.handler);
    void inf.run(ac.signal);
    const w = await lw.nthWatch(1);
    items = [ns('b', '30'), ns('c', '31')];
    rv = '40';
    w.push({ type: 'ERROR', object: expiredStatus() as unknown as KubeObject });
    const w2 = await lw.nthWatch(2);
    expect(lw.lists).toHaveLength(2);
    expect(w2.opts.resourceVersion).toBe('40');
    expect(rec.log.slice(2).sort()).toEqual(['add c', 'delete a (relist)', 'update b 6->30']);
  });

  it('hands out a relist one change at a time: each handler call reads the store after exactly the changes told so far', async () => {
    let items = [ns('a', '5'), ns('b', '6'), ns('c', '7')];
    let rv = '10';
    const lw = new FakeListWatch(() => list(items, rv));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    const seen: string[] = [];
    // The store as the changes told so far make it: what a history or view recorded from them holds.
    const told = new Map<string, string>();
    const check = (): void => {
      const now = new Map(inf.store.list().map((o) => [o.metadata.name, o.metadata.resourceVersion!]));
      seen.push(JSON.stringify([...now].sort()) === JSON.stringify([...told].sort()) ? 'agrees' : `store ${JSON.stringify([...now].sort())} but told ${JSON.stringify([...told].sort())}`);
    };
    inf.addEventHandler({
      add: (o) => { told.set(o.metadata.name, o.metadata.resourceVersion!); check(); },
      update: (_, o) => { told.set(o.metadata.name, o.metadata.resourceVersion!); check(); },
      delete: (o) => { told.delete(o.metadata.name); check(); },
    });
    void inf.run(ac.signal);
    const w = await lw.nthWatch(1);
    items = [ns('a', '31'), ns('b', '32'), ns('d', '33')];
    rv = '40';
    w.push({ type: 'ERROR', object: expiredStatus() as unknown as KubeObject });
    await lw.nthWatch(2);
    expect(seen).toHaveLength(3 + 4);
    expect(seen.filter((s) => s !== 'agrees')).toEqual([]);
  });

  it('relists when the watch request itself answers 410', async () => {
    let lists = 0;
    const lw = new FakeListWatch(() => list([], String(++lists * 10)));
    lw.onWatchOpen = (opts) => { if (opts.resourceVersion === '10') throw gone(); };
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    void inf.run(ac.signal);
    // The first watch throws synchronously from watch(); the second list has rv 20.
    const w = await lw.nthWatch(1);
    expect(w.opts.resourceVersion).toBe('20');
    expect(lw.lists).toHaveLength(2);
  });

  it('falls back to one unpaginated list when a continue token expires', async () => {
    const lw = new FakeListWatch((o) => {
      if (o.continue === 'p2') throw gone('continue token expired');
      if (o.limit === undefined) return list([ns('a', '1'), ns('b', '2')], '50');
      return list([ns('a', '1')], '10', 'p2');
    });
    const inf = new SharedInformer('ns', lw, { reflector: { ...fast, pageSize: 1 }, logger: silentLogger });
    void inf.run(ac.signal);
    await inf.waitForSync();
    expect(lw.lists.map((l) => [l.limit, l.continue])).toEqual([[1, undefined], [1, 'p2'], [undefined, undefined]]);
    expect(inf.store.keys().sort()).toEqual(['a', 'b']);
    expect((await lw.nthWatch(1)).opts.resourceVersion).toBe('50');
  });

  it('restarts a watch that stays silent longer than the watchdog bound', async () => {
    const lw = new FakeListWatch(() => list([], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: { ...fast, watchIdleTimeoutMs: 40 }, logger: silentLogger });
    void inf.run(ac.signal);
    const w1 = await lw.nthWatch(1);
    await lw.nthWatch(2);
    expect(w1.aborted).toBe(true);
    expect(lw.lists).toHaveLength(1);
  });

  it('keeps retrying with backoff when lists fail', async () => {
    let failures = 3;
    const lw = new FakeListWatch(() => {
      if (failures-- > 0) throw new Error('connection refused');
      return list([ns('a', '1')], '10');
    });
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    void inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    expect(lw.lists).toHaveLength(4);
  });

  it('syncs empty while a resource that may be absent is not served (404), and fills once it is', async () => {
    const notFound = () => new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404, message: 'the server could not find the requested resource' });
    let served = false;
    const lw = new FakeListWatch(() => {
      if (!served) throw notFound();
      return list([ns('a', '1')], '10');
    });
    const inf = new SharedInformer('gatewayclasses', lw, { reflector: { ...fast, mayBeAbsent: true, absentRecheckMs: 2 }, logger: silentLogger });
    const rec = recorder();
    inf.addEventHandler(rec.handler);
    void inf.run(ac.signal);
    expect(await inf.waitForSync()).toBe(true);
    expect(inf.store.size).toBe(0);
    await soon('listed again while absent', () => lw.lists.length >= 3);
    expect(lw.watches).toHaveLength(0); // nothing to watch until it is served
    served = true;
    await lw.nthWatch(1);
    expect(rec.log).toEqual(['add a']);
    expect((await lw.nthWatch(1)).opts.resourceVersion).toBe('10');
  });

  it('never syncs on a 404 when the resource must be served: it is a failure, retried', async () => {
    const lw = new FakeListWatch(() => {
      throw new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404, message: 'not found' });
    });
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    void inf.run(ac.signal);
    await soon('several lists', () => lw.lists.length >= 3);
    expect(inf.hasSynced()).toBe(false);
  });

  it('replays the cache to a handler registered after sync, and survives a throwing handler', async () => {
    const lw = new FakeListWatch(() => list([ns('a', '1'), ns('b', '2')], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    inf.addEventHandler({ add: () => { throw new Error('boom'); } });
    void inf.run(ac.signal);
    await inf.waitForSync();
    const rec = recorder();
    const reg = inf.addEventHandler(rec.handler);
    expect(reg.hasSynced()).toBe(true);
    expect([...rec.log].sort()).toEqual(['add a (initial)', 'add b (initial)']);
    const w = await lw.nthWatch(1);
    w.push({ type: 'ADDED', object: ns('c', '11') });
    await soon('three handler calls', () => rec.log.length === 3);
    reg.remove();
    w.push({ type: 'ADDED', object: ns('d', '12') });
    await soon('four objects in the store', () => inf.store.size === 4);
    expect(rec.log).toHaveLength(3);
  });

  it('resyncs a handler periodically with update(obj, obj)', async () => {
    const lw = new FakeListWatch(() => list([ns('a', '1')], '10'));
    const inf = new SharedInformer('ns', lw, { reflector: fast, logger: silentLogger });
    const rec = recorder();
    inf.addEventHandler(rec.handler, { resyncMs: 20 });
    void inf.run(ac.signal);
    await soon('two resync updates of a', () => rec.log.filter((l) => l === 'update a 1->1').length >= 2);
  });

  it('applies the transform hook before freezing', async () => {
    const lw = new FakeListWatch(() => list([ns('a', '1', { annotations: { big: 'x' } })], '10'));
    const inf = new SharedInformer('ns', lw, {
      reflector: fast, logger: silentLogger,
      transform: (o) => ({ ...o, metadata: { ...o.metadata, annotations: undefined } }),
    });
    void inf.run(ac.signal);
    await inf.waitForSync();
    expect(inf.store.get('a')!.metadata.annotations).toBeUndefined();
  });
});