import { readFileSync } from 'node:fs';
import { SharedInformerFactory } from '../../src/cache/factory';
import type { DeleteInfo } from '../../src/cache/informer';
import type { ListerWatcher, ListWatchClient } from '../../src/cache/list-watch';
import { SharedInformer } from '../../src/cache/informer';
import { listWatchFor } from '../../src/cache/list-watch';
import { KubeClient, paddockVersion, type Query } from '../../src/kube/client';
import { isNotFound, KubeApiError } from '../../src/kube/errors';
import { silentLogger } from '../../src/kube/log';
import { RESOURCES, type ResourceRef, resourcePath } from '../../src/kube/resources';
import type { KubeList, KubeObject, WatchEvent } from '../../src/kube/types';
import { controlPlane, uniqueName, waitFor } from './env';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(60_000);

const configMaps: ResourceRef = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true };

/**
 * Wraps the real client: records list calls, and can break every open watch (as a dropped connection
 * does) and hold new watches back until released, so events happen while the informer is disconnected.
 */
class UnreliableClient implements ListWatchClient {
  readonly lists: Query[] = [];
  watchesOpened = 0;
  #breaker = new AbortController();
  #gate: Promise<void> = Promise.resolve();
  #release: () => void = () => {};

  constructor(private readonly real: KubeClient) {}

  list<T extends KubeObject>(path: string, query?: Query, signal?: AbortSignal): Promise<KubeList<T>> {
    this.lists.push({ ...query });
    return this.real.list<T>(path, query, signal);
  }

  async *watch<T>(path: string, query?: Query, signal?: AbortSignal): AsyncGenerator<WatchEvent<T>> {
    await this.#gate;
    this.watchesOpened++;
    const breaker = this.#breaker.signal;
    const both = signal ? AbortSignal.any([signal, breaker]) : breaker;
    yield* this.real.watch<T>(path, query, both);
    if (breaker.aborted && !signal?.aborted) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
  }

  /** Drops every open watch and holds new ones until `reconnect`. */
  disconnect(): void {
    this.#gate = new Promise((r) => { this.#release = r; });
    this.#breaker.abort();
    this.#breaker = new AbortController();
  }

  reconnect(): void { this.#release(); }
}

const soon = (what: string, check: () => boolean) => waitFor(what, check, 30_000, 50);

describe('informer cache against a real kube-apiserver', () => {
  let client: KubeClient;
  let ns: string;
  const stop = new AbortController();

  beforeAll(async () => {
    client = await KubeClient.fromKubeConfig({ kubeconfig: controlPlane().kubeconfigs.admin }, { qps: 50, burst: 100 });
    ns = uniqueName('cache');
    await client.create(resourcePath(RESOURCES.namespaces), { metadata: { name: ns } });
  });

  afterAll(async () => {
    stop.abort();
    await client.delete(resourcePath(RESOURCES.namespaces, { name: ns })).catch(() => undefined);
    client.close();
  });

  const cmPath = (name?: string): string => resourcePath(configMaps, { namespace: ns, name });
  /** Every ConfigMap the suite makes carries `suite=cache`; informers select on it (kube-root-ca.crt stays out). */
  const createCm = (name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): Promise<KubeObject> =>
    client.create(cmPath(), { metadata: { name, labels: { suite: 'cache', ...labels } }, data });
  const scope = (): { namespace: string; labelSelector: string } => ({ namespace: ns, labelSelector: 'suite=cache' });

  it('answers failures with KubeApiError carrying code, reason and the Status', async () => {
    const err = await client.get(resourcePath(RESOURCES.namespaces, { name: uniqueName('missing') })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect(isNotFound(err)).toBe(true);
    expect((err as KubeApiError).reason).toBe('NotFound');
    expect((err as KubeApiError).status.kind).toBe('Status');
  });

  it('identifies itself as paddock/<version>', async () => {
    const marker = uniqueName('ua');
    await createCm(marker);
    await waitFor('the request in the audit log', () => readFileSync(controlPlane().auditLog, 'utf8').split('\n')
      .some((l) => l.includes(marker) && l.includes(`"userAgent":"paddock/${paddockVersion()}"`)), 10_000, 50);
  });

  it('syncs namespaces with a paginated list, keyed by name, with managedFields stripped', async () => {
    const suite = uniqueName('suite');
    const names = Array.from({ length: 5 }, (_v, i) => `${suite}-${i}`);
    await Promise.all(names.map((name) => client.create(resourcePath(RESOURCES.namespaces), { metadata: { name, labels: { suite } } })));
    try {
      const recording = new UnreliableClient(client);
      const factory = new SharedInformerFactory(recording, { reflector: { pageSize: 2 }, logger: silentLogger });
      const informer = factory.informerFor(RESOURCES.namespaces, { labelSelector: `suite=${suite}` });
      expect(factory.informerFor(RESOURCES.namespaces, { labelSelector: `suite=${suite}` })).toBe(informer);
      factory.start(stop.signal);
      expect(await factory.waitForCacheSync(AbortSignal.timeout(30_000))).toBe(true);
      expect(informer.store.keys().sort()).toEqual(names);
      expect(recording.lists.map((q) => q.limit)).toEqual([2, 2, 2]);
      expect(recording.lists.slice(1).every((q) => typeof q.continue === 'string' && q.continue !== '')).toBe(true);
      const one = informer.store.get(names[0]!)!;
      expect(one.metadata.managedFields).toBeUndefined();
      expect(one.kind).toBe('Namespace');
      expect(Object.isFrozen(one)).toBe(true);
      expect(informer.lastSyncResourceVersion).not.toBe('');
    } finally {
      await Promise.all(names.map((name) => client.delete(resourcePath(RESOURCES.namespaces, { name })).catch(() => undefined)));
    }
  });

  it('sees adds, updates and deletes, and an index answers by label', async () => {
    const informer = new SharedInformer<KubeObject>('cm-events', listWatchFor(client, configMaps, scope()), {
      indexers: { app: (o) => (o.metadata.labels?.app ? [o.metadata.labels.app] : []) },
      logger: silentLogger,
    });
    const seen: string[] = [];
    informer.addEventHandler({
      add: (o) => seen.push(`add ${o.metadata.name}`),
      update: (a, b) => { if (a.metadata.resourceVersion !== b.metadata.resourceVersion) seen.push(`update ${b.metadata.name}`); },
      delete: (o) => seen.push(`delete ${o.metadata.name}`),
    });
    const run = new AbortController();
    void informer.run(AbortSignal.any([stop.signal, run.signal]));
    await informer.waitForSync();

    await createCm('e1', { v: '1' }, { app: 'web' });
    await soon('add e1', () => seen.includes('add e1'));
    await client.patch(cmPath('e1'), { data: { v: '2' } });
    await soon('update e1', () => seen.includes('update e1'));
    expect((informer.store.get(`${ns}/e1`) as unknown as { data: { v: string } }).data.v).toBe('2');
    expect(informer.store.byIndex('app', 'web').map((o) => o.metadata.name)).toEqual(['e1']);
    await client.delete(cmPath('e1'));
    await soon('delete e1', () => seen.includes('delete e1'));
    expect(informer.store.byIndex('app', 'web')).toEqual([]);
    run.abort();
  });

  it('recovers after its watch connection breaks, without losing the events made meanwhile', async () => {
    await createCm('keep', { v: '1' });
    await createCm('doomed');
    const unreliable = new UnreliableClient(client);
    const informer = new SharedInformer<KubeObject>('cm-recover', listWatchFor(unreliable, configMaps, scope()), {
      reflector: { backoff: { initialMs: 50, maxMs: 200 } }, logger: silentLogger,
    });
    const seen: string[] = [];
    informer.addEventHandler({
      add: (o) => seen.push(`add ${o.metadata.name}`),
      update: (_a, b) => seen.push(`update ${b.metadata.name}`),
      delete: (o, info: DeleteInfo) => seen.push(`delete ${o.metadata.name}${info.finalStateUnknown ? ' (relist)' : ''}`),
    });
    const run = new AbortController();
    void informer.run(AbortSignal.any([stop.signal, run.signal]));
    await informer.waitForSync();
    await soon('the first watch', () => unreliable.watchesOpened === 1);

    unreliable.disconnect();
    const seenBefore = seen.length;
    await createCm('born-offline');
    await client.patch(cmPath('keep'), { data: { v: '2' } });
    await client.delete(cmPath('doomed'));
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.length).toBe(seenBefore); // disconnected: nothing arrives
    unreliable.reconnect();

    await soon('the changes made while offline', () => seen.includes('delete doomed') && seen.includes('add born-offline') && seen.includes('update keep'));
    expect(unreliable.lists).toHaveLength(1); // resumed from its resourceVersion: no relist was needed
    expect(unreliable.watchesOpened).toBe(2);
    expect(informer.store.has(`${ns}/doomed`)).toBe(false);
    run.abort();
  });

  // kube-apiserver's watch cache for a custom resource starts when its CRD is installed; resourceVersion "1"
  // is older than its window and is answered with 410 Expired.
  const tenantPath = (name?: string): string => resourcePath(RESOURCES.tenants, { name });
  const createTenant = (name: string, suite: string): Promise<KubeObject> =>
    client.create(tenantPath(), tenant(name, {}, undefined, { labels: { suite } }));

  it('relists when its resourceVersion is too old (410), and keeps following changes', async () => {
    const suite = uniqueName('suite');
    const before = uniqueName('before');
    const after = uniqueName('after');
    await createTenant(before, suite);
    try {
      // The first watch starts from resourceVersion "1" instead of the list's.
      let first = true;
      const real = listWatchFor<KubeObject>(client, RESOURCES.tenants, { labelSelector: `suite=${suite}` });
      const outdated: ListerWatcher<KubeObject> & { watchRvs: string[]; lists: number } = {
        watchRvs: [],
        lists: 0,
        list(opts, signal) { this.lists++; return real.list(opts, signal); },
        watch(opts, signal) {
          const rv = first ? '1' : opts.resourceVersion;
          first = false;
          this.watchRvs.push(rv);
          return real.watch({ ...opts, resourceVersion: rv }, signal);
        },
      };
      const informer = new SharedInformer<KubeObject>('tenants-410', outdated, { reflector: { backoff: { initialMs: 50, maxMs: 200 } }, logger: silentLogger });
      const run = new AbortController();
      void informer.run(AbortSignal.any([stop.signal, run.signal]));
      await informer.waitForSync();
      await soon('a second watch', () => outdated.watchRvs.length >= 2);
      expect(outdated.lists).toBe(2);
      expect(outdated.watchRvs[1]).not.toBe('1');
      await createTenant(after, suite);
      await soon('the tenant created after the relist', () => informer.store.has(after));
      expect(informer.store.has(before)).toBe(true);
      run.abort();
    } finally {
      await Promise.all([before, after].map((n) => client.delete(tenantPath(n)).catch(() => undefined)));
    }
  });

  it('surfaces a watch from a too old resourceVersion as a 410', async () => {
    const events = client.watch(tenantPath(), { resourceVersion: '1' }, AbortSignal.timeout(10_000));
    let outcome: unknown;
    try {
      for await (const ev of events) { outcome = ev; break; }
    } catch (err) {
      outcome = err;
    }
    // kube-apiserver answers either with HTTP 410 or with a 200 stream whose first event is a 410 ERROR.
    if (outcome instanceof KubeApiError) expect(outcome.code).toBe(410);
    else expect(outcome).toMatchObject({ type: 'ERROR', object: { code: 410, reason: 'Expired' } });
  });
});
