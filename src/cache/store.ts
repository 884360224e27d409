import type { KubeObject } from '../kube/types';
import { addKey as addTo, keysIn, removeKey as removeFrom, type KeySet as Keys } from './key-sets';
import { objectKey } from './keys';
import { NameTable } from './name-table';
import { groupDelete, groupGet, groupSet, groupValues, namespaceOfGroup, type ObjectGroup } from './object-groups';
import { nameOfCached, namespaceOfCached } from './records';

/** Computes the index values of an object (e.g. its owner names); an object may have any number of them. */
export type IndexFunc<T> = (obj: T) => readonly string[];
export type Indexers<T> = Readonly<Record<string, IndexFunc<T>>>;

/** One change the store made, in the order it made them. */
export type Delta<T> =
  | { readonly type: 'add'; readonly obj: T }
  | { readonly type: 'update'; readonly old: T; readonly obj: T }
  | { readonly type: 'delete'; readonly obj: T; readonly cached?: T };

/** Index of the object's namespace (`''` for cluster-scoped objects). */
export const NAMESPACE_INDEX = 'namespace';
export const namespaceIndexFunc: IndexFunc<KubeObject> = (obj) => [obj.metadata.namespace ?? ''];

/** The read side of a store: what consumers of the cache need. */
export interface ObjectCache<T> {
  get(key: string): T | undefined;
  list(): T[];
  byIndex(indexName: string, indexValue: string): T[];
  readonly size: number;
}

/**
 * The objects of a collection, looked up by key — `namespace/name`, or `name` when cluster-scoped — with
 * named indexes. Namespaced objects are grouped by namespace (see object-groups.ts), and the group is
 * the namespace index: no key string is kept per object, and {@link NAMESPACE_INDEX} costs nothing.
 * Both the cluster-scoped objects and the groups are held in tables that read each entry's name off the
 * entry (name-table.ts): a pointer per slot, not a Map's key, value and chain. Every
 * other index is a Map from index value to the set of keys, so `byIndex` costs O(result), not O(store).
 *
 * Invariant: for every stored object and every other indexer, the object's key is in exactly the sets of
 * the values the indexer returns for it. The store does not copy or freeze: callers store read-only objects.
 * Objects are listed cluster-scoped first, then namespaced, in no order within each: the tables keep
 * no keys and no insertion order (see name-table.ts).
 */
export class Store<T extends KubeObject> implements ObjectCache<T> {
  readonly #clusterScoped = new NameTable<T>(nameOfCached);
  readonly #namespaced = new NameTable<ObjectGroup<T>>(namespaceOfGroup);
  #size = 0;
  readonly #indexers = new Map<string, IndexFunc<T>>();
  /** Index name → value → the keys with that value (see key-sets.ts: most hold one key, or a few). */
  readonly #indices = new Map<string, Map<string, Keys>>();

  constructor(indexers: Indexers<T> = {}) {
    this.addIndexers(indexers);
  }

  get size(): number { return this.#size; }

  get(key: string): T | undefined {
    const slash = key.indexOf('/');
    return slash < 0 ? this.#clusterScoped.get(key) : groupGet(this.#namespaced.get(key.slice(0, slash)), key.slice(slash + 1));
  }

  has(key: string): boolean { return this.get(key) !== undefined; }

  /** A copy of the objects: the store may be changed while it is walked. */
  list(): T[] {
    const out = [...this.#clusterScoped.values()];
    for (const group of this.#namespaced.values()) {
      if (Array.isArray(group)) out.push(...group);
      else for (const obj of groupValues(group)) out.push(obj);
    }
    return out;
  }

  keys(): string[] { return this.list().map(objectKey); }

  /** The objects, a copy: the store may be changed while they are iterated. */
  values(): IterableIterator<T> {
    return this.list().values();
  }

  /** The objects whose indexer `indexName` returned `indexValue`. Throws for an unknown index. */
  byIndex(indexName: string, indexValue: string): T[] {
    if (this.#isLayout(indexName)) return this.#inNamespace(indexValue);
    const keys = this.#index(indexName).get(indexValue);
    const out: T[] = [];
    for (const k of keysIn(keys)) out.push(this.get(k)!);
    return out;
  }

  /** The keys of the objects whose indexer `indexName` returned `indexValue`. */
  indexKeys(indexName: string, indexValue: string): string[] {
    if (this.#isLayout(indexName)) return this.#inNamespace(indexValue).map(objectKey);
    return [...keysIn(this.#index(indexName).get(indexValue))];
  }

  /** Every value the index `indexName` currently holds. */
  indexValues(indexName: string): string[] {
    if (this.#isLayout(indexName)) return [...(this.#clusterScoped.size ? [''] : []), ...this.#namespaced.keys()];
    return [...this.#index(indexName).keys()];
  }

  hasIndex(indexName: string): boolean { return this.#indexers.has(indexName); }

  /** Adds indexes (built at once over the current contents). Re-adding a name with another function throws. */
  addIndexers(indexers: Indexers<T>): void {
    for (const [name, fn] of Object.entries(indexers)) {
      const existing = this.#indexers.get(name);
      if (existing === fn) continue;
      if (existing) throw new Error(`index ${name} already exists`);
      this.#indexers.set(name, fn);
      if (this.#isLayout(name)) continue;
      const index = new Map<string, Keys>();
      this.#indices.set(name, index);
      for (const obj of this.values()) for (const v of fn(obj)) addTo(index, v, objectKey(obj));
    }
  }

  /**
   * Inserts or replaces the object under its key. A replaced object's index entries are touched only
   * where its index values changed, so the key string an index holds stays the one it was first given
   * (one copy of each key, not one per version).
   */
  upsert(obj: T): Delta<T> {
    const name = nameOfCached(obj);
    const namespace = namespaceOfCached(obj);
    let old: T | undefined;
    if (namespace) old = groupSet(this.#namespaced, namespace, obj);
    else {
      old = this.#clusterScoped.get(name);
      this.#clusterScoped.set(name, obj);
    }
    if (old) this.#reindex(old, obj);
    else {
      this.#size++;
      this.#indexObject(obj);
    }
    return old ? { type: 'update', old, obj } : { type: 'add', obj };
  }

  /** Removes the object under `key`; returns what was stored. */
  delete(key: string): T | undefined {
    const slash = key.indexOf('/');
    let old: T | undefined;
    if (slash < 0) {
      old = this.#clusterScoped.get(key);
      this.#clusterScoped.delete(key);
    } else old = groupDelete(this.#namespaced, key.slice(0, slash), key.slice(slash + 1));
    if (!old) return undefined;
    this.#size--;
    this.#unindex(old);
    return old;
  }

  /**
   * Makes the store hold exactly `objs`, one change at a time: each difference — an add, an update (only
   * for an object whose resourceVersion changed; an unchanged object keeps its stored identity) or a
   * delete (with the last stored state) — is applied, then yielded before the next is applied. So a
   * reader told of the changes as they are yielded finds the store in the state after exactly those
   * changes, as with watch events. Lazy: the store holds `objs` only once the iteration is drained (a
   * caller that stops early leaves it part-replaced). O(stored + new).
   */
  *replace(objs: Iterable<T>): Generator<Delta<T>> {
    const seen = new Set<string>();
    for (const obj of objs) {
      const key = objectKey(obj);
      seen.add(key);
      const old = this.get(key);
      if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion && old.metadata.resourceVersion !== undefined) continue;
      yield this.upsert(obj);
    }
    for (const old of this.list()) {
      const key = objectKey(old);
      if (seen.has(key)) continue;
      this.delete(key);
      yield { type: 'delete', obj: old };
    }
  }

  /** Whether `indexName` is the namespace index the grouping by namespace already is. */
  #isLayout(indexName: string): boolean {
    return this.#indexers.get(indexName) === namespaceIndexFunc;
  }

  #inNamespace(namespace: string): T[] {
    return namespace === '' ? [...this.#clusterScoped.values()] : [...groupValues(this.#namespaced.get(namespace))];
  }

  #index(name: string): Map<string, Keys> {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named ${name}`);
    return index;
  }

  #indexObject(obj: T): void {
    let key: string | undefined;
    for (const [name, index] of this.#indices) {
      for (const v of this.#indexers.get(name)!(obj)) addTo(index, v, (key ??= objectKey(obj)));
    }
  }

  #reindex(old: T, obj: T): void {
    for (const [name, index] of this.#indices) {
      const fn = this.#indexers.get(name)!;
      const before = fn(old);
      const after = fn(obj);
      if (sameValues(before, after)) continue;
      const key = objectKey(obj);
      for (const v of before) removeFrom(index, v, key);
      for (const v of after) addTo(index, v, key);
    }
  }

  #unindex(obj: T): void {
    let key: string | undefined;
    for (const [name, index] of this.#indices) {
      for (const v of this.#indexers.get(name)!(obj)) removeFrom(index, v, (key ??= objectKey(obj)));
    }
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((v, i) => v === b[i]));
}
