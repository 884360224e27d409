import { jsonLogger, type Logger } from '../kube/log';
import type { KubeObject, WatchEvent } from '../kube/types';
import { cacheErrors, countObjects } from '../metrics/cache';
import { objectKey } from './keys';
import type { ListerWatcher } from './list-watch';
import { Reflector, type ReflectorOptions, type ReflectorSink } from './reflector';
import { type Delta, type Indexers, type ObjectCache, Store } from './store';
import { prepareForCache, type Transform } from './transform';

export interface DeleteInfo<T = KubeObject> {
  /**
   * True when the deletion was noticed by a relist (it happened while the watch was down): `obj` is the
   * last state the cache saw, not the final one (client-go's DeletedFinalStateUnknown).
   */
  finalStateUnknown: boolean;
  /** The object as the cache held it until this deletion (the event's `obj` may be a later, final state). */
  cached: T;
}

/**
 * Callbacks of one consumer. They run synchronously, in event order, after the store is updated; they must
 * be quick (enqueue a key, fan out a prepared event) and must not mutate the objects (they are frozen).
 */
export interface EventHandler<T> {
  add?(obj: T, isInInitialList: boolean): void;
  update?(oldObj: T, newObj: T): void;
  delete?(obj: T, info: DeleteInfo<T>): void;
  /** The informer is current as of `resourceVersion` (a bookmark or a completed list). */
  progress?(resourceVersion: string): void;
}

export interface HandlerOptions {
  /**
   * Every ~resyncMs (±10 % jitter), call `update(obj, obj)` for every cached object: level-based controllers
   * use it to re-check the world. 0 or absent = never.
   */
  resyncMs?: number;
}

export interface HandlerRegistration {
  remove(): void;
  /** True once the handler has received the informer's initial contents. */
  hasSynced(): boolean;
}

export interface SharedInformerOptions<T extends KubeObject> {
  indexers?: Indexers<T>;
  /** Applied after managedFields are stripped and before the object is frozen and stored. */
  transform?: Transform<T>;
  reflector?: ReflectorOptions;
  logger?: Logger;
}

interface Registration<T> {
  readonly handler: EventHandler<T>;
  timer?: NodeJS.Timeout;
  synced: boolean;
}

/**
 * One cache of one collection shared by every consumer: a Reflector feeds a Store (objects stripped of
 * managedFields, transformed, frozen); changes are fanned out to the registered handlers. A relist's
 * differences reach handlers as adds, updates and deletes, so consumers see deletions that happened
 * during a disconnect. Handlers registered late first receive an `add` for every cached object.
 */
export class SharedInformer<T extends KubeObject> implements ReflectorSink<T> {
  readonly name: string;
  readonly #store: Store<T>;
  readonly #transform: Transform<T> | undefined;
  readonly #lw: ListerWatcher<T>;
  readonly #reflectorOptions: ReflectorOptions;
  readonly #log: Logger;
  readonly #handlers = new Set<Registration<T>>();
  #reflector: Reflector<T> | undefined;
  #synced = false;
  #syncWaiters: (() => void)[] = [];
  #running: Promise<void> | undefined;

  constructor(name: string, lw: ListerWatcher<T>, opts: SharedInformerOptions<T> = {}) {
    this.name = name;
    this.#lw = lw;
    this.#store = new Store<T>(opts.indexers);
    this.#transform = opts.transform;
    this.#log = opts.logger ?? jsonLogger('informer');
    this.#reflectorOptions = { logger: this.#log, ...opts.reflector, name };
    countObjects(name, () => this.#store.size);
  }

  /** The read side of the cache (get, list, byIndex). Objects are frozen. */
  get store(): ObjectCache<T> & Pick<Store<T>, 'indexKeys' | 'indexValues' | 'keys' | 'has'> { return this.#store; }

  get transform(): Transform<T> | undefined { return this.#transform; }

  /** True once the first list has been applied (and delivered to the handlers registered by then). */
  hasSynced(): boolean { return this.#synced; }

  /** resourceVersion of the last list, event or bookmark; '' before the first list. */
  get lastSyncResourceVersion(): string { return this.#reflector?.lastSyncResourceVersion ?? ''; }

  /** Resolves true once synced, or false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => { signal?.removeEventListener('abort', onAbort); resolve(true); });
    });
  }

  /** Adds indexes; allowed at any time (built at once over the current contents). */
  addIndexers(indexers: Indexers<T>): void { this.#store.addIndexers(indexers); }

  addEventHandler(handler: EventHandler<T>, opts: HandlerOptions = {}): HandlerRegistration {
    const reg: Registration<T> = { handler, synced: this.#synced };
    if (this.#synced) for (const obj of this.#store.values()) this.#call('add', () => handler.add?.(obj, true));
    this.#handlers.add(reg);
    if (opts.resyncMs && opts.resyncMs > 0) this.#scheduleResync(reg, opts.resyncMs);
    return {
      remove: () => { clearTimeout(reg.timer); this.#handlers.delete(reg); },
      hasSynced: () => reg.synced,
    };
  }

  /** Starts the reflector (once); resolves when `signal` aborts and the reflector has stopped. */
  run(signal: AbortSignal): Promise<void> {
    if (!this.#running) {
      this.#reflector = new Reflector(this.#lw, this, this.#reflectorOptions);
      this.#running = this.#reflector.run(signal).finally(() => {
        for (const reg of this.#handlers) clearTimeout(reg.timer);
      });
    }
    return this.#running;
  }

  // ---- ReflectorSink: called by the reflector only ----

  replace(items: T[], resourceVersion: string): void {
    const initial = !this.#synced;
    const prepared = items.map((obj) => prepareForCache(obj, this.#transform, this.#store.get(objectKey(obj))));
    // Each difference is dispatched as soon as it is applied: a handler (a history, a view) reads the store
    // as the changes it has been told of make it, never with later ones of the same list already in.
    for (const d of this.#store.replace(prepared)) this.#dispatch(d, initial, true);
    if (initial) {
      this.#synced = true;
      for (const reg of this.#handlers) reg.synced = true;
      for (const wake of this.#syncWaiters.splice(0)) wake();
    }
    this.progress(resourceVersion);
  }

  apply(event: WatchEvent<T>): void {
    let delta: Delta<T> | undefined;
    if (event.type === 'DELETED') {
      const old = this.#store.delete(objectKey(event.object));
      // The final state comes with the event; an unknown key means the cache never saw it (nothing to tell).
      if (old) delta = { type: 'delete', obj: prepareForCache(event.object, this.#transform), cached: old };
    } else {
      delta = this.#store.upsert(prepareForCache(event.object, this.#transform, this.#store.get(objectKey(event.object))));
    }
    if (delta) this.#dispatch(delta, false, false);
  }

  progress(resourceVersion: string): void {
    for (const reg of this.#handlers) {
      if (reg.handler.progress) this.#call('progress', () => reg.handler.progress!(resourceVersion));
    }
  }

  #dispatch(d: Delta<T>, initial: boolean, fromRelist: boolean): void {
    for (const reg of this.#handlers) {
      const h = reg.handler;
      switch (d.type) {
        case 'add': if (h.add) this.#call('add', () => h.add!(d.obj, initial)); break;
        case 'update': if (h.update) this.#call('update', () => h.update!(d.old, d.obj)); break;
        case 'delete': if (h.delete) this.#call('delete', () => h.delete!(d.obj, { finalStateUnknown: fromRelist, cached: d.cached ?? d.obj })); break;
      }
    }
  }

  #call(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      cacheErrors.inc({ cache: this.name, kind: 'handler' });
      this.#log.error('event handler threw', { cache: this.name, handler: what, err });
    }
  }

  #scheduleResync(reg: Registration<T>, periodMs: number): void {
    const delay = periodMs * (0.9 + Math.random() * 0.2);
    reg.timer = setTimeout(() => {
      if (!this.#handlers.has(reg)) return;
      if (this.#synced && reg.handler.update) {
        for (const obj of this.#store.values()) this.#call('resync', () => reg.handler.update!(obj, obj));
      }
      this.#scheduleResync(reg, periodMs);
    }, delay);
    reg.timer.unref();
  }
}
