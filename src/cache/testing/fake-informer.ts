import type { KubeObject } from '../../kube/types';
import type { EventHandler } from '../informer';

/** One revision counter for every fake informer, as kube-apiserver has one for every object. */
let revision = 0;

/**
 * An in-memory stand-in for a shared informer, for unit tests of what reads one: a store with indexes
 * and event handlers driven by `set` and `remove`. Not used by the program.
 */
export class FakeInformer<T extends KubeObject> {
  readonly items = new Map<string, T>();
  readonly handlers: EventHandler<T>[] = [];
  #listed!: (listed: boolean) => void;
  #hasListed = false;
  readonly #synced = new Promise<boolean>((resolve) => (this.#listed = resolve));
  constructor(readonly index: (o: T) => [string, string[]][] = () => []) {}
  /** Resolves once `markListed` is called: a fake informer has not listed until a test says it has. */
  waitForSync(): Promise<boolean> {
    return this.#synced;
  }
  hasSynced(): boolean {
    return this.#hasListed;
  }
  markListed(): void {
    this.#hasListed = true;
    this.#listed(true);
  }
  readonly store = ((items) => ({
    get: (k: string) => items.get(k),
    list: () => [...items.values()],
    byIndex: (name: string, value: string) => [...items.values()].filter((o) => this.index(o).some(([n, vs]) => n === name && vs.includes(value))),
    get size() {
      return items.size;
    },
  }))(this.items);
  /** Like a synced shared informer: the objects already there are handed to the new handler as adds. */
  addEventHandler(h: EventHandler<T>) {
    for (const obj of this.items.values()) h.add?.(obj, true);
    this.handlers.push(h);
    return { remove() {}, hasSynced: () => true };
  }
  /** Stores `obj` (given the next revision when it has no resourceVersion) and tells the handlers. */
  set(key: string, obj: T): void {
    if (obj.metadata.resourceVersion === undefined) obj = { ...obj, metadata: { ...obj.metadata, resourceVersion: String(++revision) } };
    const old = this.items.get(key);
    this.items.set(key, obj);
    for (const h of this.handlers) old ? h.update?.(old, obj) : h.add?.(obj, false);
  }
  remove(key: string): void {
    const old = this.items.get(key);
    this.items.delete(key);
    if (old) for (const h of this.handlers) h.delete?.(old, { finalStateUnknown: false, cached: old });
  }
}
