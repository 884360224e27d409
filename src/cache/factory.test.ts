import { silentLogger } from '../kube/log';
import { RESOURCES } from '../kube/resources';
import type { KubeList, KubeObject, WatchEvent } from '../kube/types';
import { SharedInformerFactory } from './factory';
import type { ListWatchClient } from './list-watch';

/** Lists answer when the test releases them (by path); watches stay open until the informers stop. */
class HeldLists implements ListWatchClient {
  readonly listed: string[] = [];
  onList: (path: string) => void = () => {};
  readonly #release = new Map<string, () => void>();
  #waiter: (() => void) | undefined;

  async list<T extends KubeObject>(path: string): Promise<KubeList<T>> {
    this.listed.push(path);
    this.onList(path);
    this.#waiter?.();
    await new Promise<void>((resolve) => this.#release.set(path, resolve));
    return { metadata: { resourceVersion: '1' }, items: [] };
  }

  async *watch<T>(_path: string, _query?: unknown, signal?: AbortSignal): AsyncIterable<WatchEvent<T>> {
    await new Promise<void>((resolve) => {
      if (signal?.aborted) resolve();
      signal?.addEventListener('abort', () => resolve(), { once: true });
    });
  }

  release(path: string): void { this.#release.get(path)?.(); }

  /** Resolves once `n` lists have been requested. */
  async listedAtLeast(n: number): Promise<void> {
    while (this.listed.length < n) await new Promise<void>((resolve) => { this.#waiter = resolve; });
  }
}

describe('SharedInformerFactory', () => {
  it('lists an informer made with listsAfter only once that informer has synced', async () => {
    const client = new HeldLists();
    const factory = new SharedInformerFactory(client, { logger: silentLogger });
    const namespaces = factory.informerFor(RESOURCES.namespaces);
    const tenants = factory.informerFor(RESOURCES.tenants, { listsAfter: namespaces });
    const quotas = factory.informerFor({ group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true });
    let namespacesSyncedWhenTenantsListed: boolean | undefined;
    client.onList = (path) => {
      if (path.endsWith('/tenants')) namespacesSyncedWhenTenantsListed = namespaces.hasSynced();
    };
    const stop = new AbortController();
    factory.start(stop.signal);
    await client.listedAtLeast(2);
    client.release('/api/v1/resourcequotas');
    expect(await quotas.waitForSync()).toBe(true);
    client.release('/api/v1/namespaces');
    await client.listedAtLeast(3);
    expect(client.listed).toEqual(expect.arrayContaining(['/api/v1/namespaces', '/api/v1/resourcequotas']));
    expect(client.listed[2]).toBe('/apis/paddock.dev/v1alpha1/tenants');
    expect(namespacesSyncedWhenTenantsListed).toBe(true);
    client.release('/apis/paddock.dev/v1alpha1/tenants');
    expect(await tenants.waitForSync()).toBe(true);
    stop.abort();
    await factory.stopped();
  });
});
