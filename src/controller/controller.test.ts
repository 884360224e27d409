import type { PaddockCache } from '../cache/paddock-cache';
import type { KubeObject } from '../kube/types';
import { silentLogger } from '../kube/log';
import { TenantController } from './controller';
import { namesDue } from './resync-slices';
import type { TenantReconciler } from './reconciler';
import type { Writer } from './writer';

/** An informer that takes handlers and holds `items`: what the controller's event wiring needs. */
const informer = (items: KubeObject[] = []) => ({
  addEventHandler: () => ({ remove() {}, hasSynced: () => true }),
  store: { list: () => items, get: (name: string) => items.find((o) => o.metadata.name === name) },
});

/** The controller over `tenants`, its reconciler and writer faked down to what a term's start calls. */
function controller(tenants: string[], hooks: { refresh?: () => Promise<void> }, resyncPeriodMs = 60_000) {
  const reconciled: string[] = [];
  const roleReads: number[] = [];
  const cache = {
    tenants: informer(tenants.map((name) => ({ metadata: { name } }))), namespaces: informer(), nodes: informer(), hostnameLedger: informer(),
    guardrails: [], admissionInformers: [], classes: () => informer(),
    factory: { waitForCacheSync: async () => true },
  } as unknown as PaddockCache;
  const reconciler = {
    bindable: { refresh: hooks.refresh ?? (async () => undefined), recheck: async () => false },
    admission: { reconcile: async () => undefined },
    nodeMatches: new Map(),
    reconcile: async (key: string) => void reconciled.push(key),
  } as unknown as TenantReconciler;
  const writer = {
    within: <T>(_signal: AbortSignal, fn: () => T) => fn(),
    get: async () => (roleReads.push(reconciled.length), { metadata: {} }),
    createIfAbsent: async () => undefined,
    update: async () => undefined,
  } as unknown as Writer;
  return { reconciled, roleReads, controller: new TenantController(cache, reconciler, writer, { workers: 2, resyncPeriodMs }, silentLogger) };
}

describe('TenantController', () => {
  it('ends a term that was lost while it started (before the workers ran): the replica can lead again', async () => {
    const term = new AbortController();
    const { controller: c, reconciled } = controller(['oil', 'gas'], { refresh: async () => term.abort() });
    await c.run(term.signal);
    expect(reconciled).toEqual([]);
  }, 10_000);

  it('reconciles every tenant when a term starts, until the term ends', async () => {
    const term = new AbortController();
    const { controller: c, reconciled } = controller(['oil', 'gas'], {});
    const running = c.run(term.signal);
    while (reconciled.length < 2) await new Promise((r) => setImmediate(r));
    term.abort();
    await running;
    expect(reconciled.sort()).toEqual(['gas', 'oil']);
  }, 10_000);

  it('resyncs every tenant once per period, a slice at each tick, and checks the cluster roles once per period', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    jest.spyOn(Math, 'random').mockReturnValue(0);
    try {
      const names = Array.from({ length: 30 }, (_, i) => `tenant-${i}`);
      const term = new AbortController();
      // A period of 3 s: three ticks of a second (resync-slices.ts).
      const { controller: c, reconciled, roleReads } = controller(names, {}, 3000);
      const running = c.run(term.signal);
      const settled = async (count: number) => { while (reconciled.length < count) await new Promise((r) => setImmediate(r)); };
      await settled(30);
      const startReads = roleReads.length;
      const perTick: number[] = [];
      for (let tick = 0; tick < 3; tick++) {
        const before = reconciled.length;
        // A tick enqueues its slice (and starts the cluster-wide checks, if any, at once).
        jest.advanceTimersByTime(1000);
        expect(roleReads.length).toBe(tick < 2 ? startReads : startReads + 1);
        await settled(before + namesDue(names, tick, 3).length);
        perTick.push(reconciled.length - before);
      }
      expect(perTick.reduce((a, b) => a + b, 0)).toBe(30);
      expect(Math.max(...perTick)).toBeLessThan(30);
      for (const name of names) expect(reconciled.filter((k) => k === name)).toHaveLength(2);
      term.abort();
      await running;
    } finally {
      jest.useRealTimers();
      jest.restoreAllMocks();
    }
  }, 10_000);
});
