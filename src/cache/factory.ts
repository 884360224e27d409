import { jsonLogger, type Logger } from '../kube/log';
import type { ResourceRef } from '../kube/resources';
import type { KubeObject } from '../kube/types';
import { SharedInformer } from './informer';
import { type ListWatchClient, type ListWatchScope, listWatchFor, scopeName } from './list-watch';
import type { ReflectorOptions } from './reflector';
import type { Indexers } from './store';
import type { Transform } from './transform';

export interface InformerRequest<T extends KubeObject> extends ListWatchScope {
  /** Indexes this consumer needs; added to the shared informer (same name + same function is fine). */
  indexers?: Indexers<T>;
  /** Only honoured by the request that creates the informer; a different transform later throws. */
  transform?: Transform<T>;
  /**
   * An informer whose cache this one's transform reads (e.g. to share strings with it): this one lists
   * only once that one has synced, so that its first objects find what they look for. Only honoured by
   * the request that creates the informer.
   */
  listsAfter?: Pick<SharedInformer<KubeObject>, 'waitForSync'>;
  /**
   * The resource may not be served (its CRD is optional): while it is not, the informer has synced and
   * holds nothing (see ReflectorOptions.mayBeAbsent). Only honoured by the request that creates the informer.
   */
  mayBeAbsent?: boolean;
}

export interface SharedInformerFactoryOptions {
  /** Defaults for every reflector (page size, watch timeouts, backoff). */
  reflector?: Omit<ReflectorOptions, 'name' | 'logger'>;
  logger?: Logger;
}

/**
 * The registry of informers: one per resource + namespace + selectors, shared by the reconciler and the API
 * server so each collection is listed and watched once. `start` runs every informer made so far and any made
 * afterwards; `waitForCacheSync` waits for all of them.
 */
export class SharedInformerFactory {
  readonly #client: ListWatchClient;
  readonly #opts: SharedInformerFactoryOptions;
  readonly #log: Logger;
  readonly #informers = new Map<string, SharedInformer<KubeObject>>();
  readonly #listsAfter = new Map<SharedInformer<KubeObject>, Pick<SharedInformer<KubeObject>, 'waitForSync'>>();
  readonly #runs: Promise<void>[] = [];
  #signal: AbortSignal | undefined;

  constructor(client: ListWatchClient, opts: SharedInformerFactoryOptions = {}) {
    this.#client = client;
    this.#opts = opts;
    this.#log = opts.logger ?? jsonLogger('informer');
  }

  /** The shared informer for `ref` within `request`'s scope, created on first use. */
  informerFor<T extends KubeObject>(ref: ResourceRef, request: InformerRequest<T> = {}): SharedInformer<T> {
    const scope: ListWatchScope = { namespace: request.namespace, labelSelector: request.labelSelector, fieldSelector: request.fieldSelector };
    const key = `${ref.group}/${ref.version}/${ref.resource}\u0000${scope.namespace ?? ''}\u0000${scope.labelSelector ?? ''}\u0000${scope.fieldSelector ?? ''}`;
    let informer = this.#informers.get(key) as SharedInformer<T> | undefined;
    if (informer) {
      if (request.transform && informer.transform !== request.transform) {
        throw new Error(`informer ${informer.name} already exists with another transform`);
      }
      if (request.indexers) informer.addIndexers(request.indexers);
      return informer;
    }
    informer = new SharedInformer<T>(scopeName(ref, scope), listWatchFor<T>(this.#client, ref, scope), {
      indexers: request.indexers,
      transform: request.transform,
      reflector: request.mayBeAbsent ? { ...this.#opts.reflector, mayBeAbsent: true } : this.#opts.reflector,
      logger: this.#log,
    });
    const stored = informer as unknown as SharedInformer<KubeObject>;
    this.#informers.set(key, stored);
    if (request.listsAfter) this.#listsAfter.set(stored, request.listsAfter);
    if (this.#signal) this.#runs.push(this.#run(stored, this.#signal));
    return informer;
  }

  /** Every informer created so far. */
  informers(): SharedInformer<KubeObject>[] { return [...this.#informers.values()]; }

  /** Starts all informers (and those created later) until `signal` aborts. Calling it again is a no-op. */
  start(signal: AbortSignal): void {
    if (this.#signal) return;
    this.#signal = signal;
    for (const informer of this.#informers.values()) this.#runs.push(this.#run(informer, signal));
  }

  async #run(informer: SharedInformer<KubeObject>, signal: AbortSignal): Promise<void> {
    const first = this.#listsAfter.get(informer);
    if (first && !(await first.waitForSync(signal))) return;
    await informer.run(signal);
  }

  /** True once every informer created so far has synced. */
  hasSynced(): boolean {
    for (const informer of this.#informers.values()) if (!informer.hasSynced()) return false;
    return true;
  }

  /** Resolves true once every informer created so far has synced, false if `signal` aborts first. */
  async waitForCacheSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** Resolves once every started informer has stopped (after the start signal aborted). */
  async stopped(): Promise<void> {
    await Promise.all(this.#runs);
  }
}
