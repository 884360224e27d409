import type { KubeObject } from '../kube/types';
import { addKey as addTo, keysIn, removeKey as removeFrom, type KeySet as Keys } from './key-sets';
import { objectKey } from './keys';

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
 * A Map of objects keyed by `namespace/name` (`name` when cluster-scoped) with named indexes. Every index is
 * a Map from index value to the set of keys, so `byIndex` costs O(result), not O(store). Invariant: for every
 * stored object and every indexer, the object's key is in exactly the sets of the values the indexer
 * returns for it. The store does not copy or freeze: callers store read-only objects.
 */
export class Store<T extends KubeObject> implements ObjectCache<T> {
  readonly #items = new Map<string, T>();
  readonly #indexers = new Map<string, IndexFunc<T>>();
  /** Index name → value → the keys with that value (see key-sets.ts: most hold one key, or a few). */
  readonly #indices = new Map<string, Map<string, Keys>>();

  constructor(indexers: Indexers<T> = {}) {
    this.addIndexers(indexers);
  }

  get size(): number { return this.#items.size; }

  get(key: string): T | undefined { return this.#items.get(key); }

  has(key: string): boolean { return this.#items.has(key); }

  /** All objects, in insertion order. */
  list(): T[] { return [...this.#items.values()]; }

  keys(): string[] { return [...this.#items.keys()]; }

  values(): IterableIterator<T> { return this.#items.values(); }

  /** The objects whose indexer `indexName` returned `indexValue`. Throws for an unknown index. */
  byIndex(indexName: string, indexValue: string): T[] {
    const keys = this.#index(indexName).get(indexValue);
    const out: T[] = [];
    for (const k of keysIn(keys)) out.push(this.#items.get(k)!);
    return out;
  }

  /** The keys of the objects whose indexer `indexName` returned `indexValue`. */
  indexKeys(indexName: string, indexValue: string): string[] {
    return [...keysIn(this.#index(indexName).get(indexValue))];
  }

  /** Every value the index `indexName` currently holds. */
  indexValues(indexName: string): string[] {
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
      const index = new Map<string, Keys>();
      this.#indices.set(name, index);
      for (const [key, obj] of this.#items) for (const v of fn(obj)) addTo(index, v, key);
    }
  }

  /**
   * Inserts or replaces the object under its key. A replaced object's index entries are touched only
   * where its index values changed, so the key string an index holds stays the one it was first given
   * (one copy of each key, not one per version).
   */
  upsert(obj: T): Delta<T> {
    const key = objectKey(obj);
    const old = this.#items.get(key);
    this.#items.set(key, obj);
    if (old) this.#reindex(key, old, obj);
    else this.#indexObject(key, obj);
    return old ? { type: 'update', old, obj } : { type: 'add', obj };
  }

  /** Removes the object under `key`; returns what was stored. */
  delete(key: string): T | undefined {
    const old = this.#items.get(key);
    if (!old) return undefined;
    this.#unindex(key, old);
    this.#items.delete(key);
    return old;
  }

  /**
   * Makes the store hold exactly `objs` and returns the differences: adds, updates (only for objects whose
   * resourceVersion changed; an unchanged object keeps its stored identity) and deletes (with the last
   * stored state). O(stored + new).
   */
  replace(objs: Iterable<T>): Delta<T>[] {
    const deltas: Delta<T>[] = [];
    const seen = new Set<string>();
    for (const obj of objs) {
      const key = objectKey(obj);
      seen.add(key);
      const old = this.#items.get(key);
      if (old && old.metadata.resourceVersion === obj.metadata.resourceVersion && old.metadata.resourceVersion !== undefined) continue;
      deltas.push(this.upsert(obj));
    }
    for (const [key, old] of this.#items) {
      if (seen.has(key)) continue;
      this.delete(key);
      deltas.push({ type: 'delete', obj: old });
    }
    return deltas;
  }

  #index(name: string): Map<string, Keys> {
    const index = this.#indices.get(name);
    if (!index) throw new Error(`no index named ${name}`);
    return index;
  }

  #indexObject(key: string, obj: T): void {
    for (const [name, fn] of this.#indexers) {
      const index = this.#indices.get(name)!;
      for (const v of fn(obj)) addTo(index, v, key);
    }
  }

  #reindex(key: string, old: T, obj: T): void {
    for (const [name, fn] of this.#indexers) {
      const before = fn(old);
      const after = fn(obj);
      if (sameValues(before, after)) continue;
      const index = this.#indices.get(name)!;
      for (const v of before) removeFrom(index, v, key);
      for (const v of after) addTo(index, v, key);
    }
  }

  #unindex(key: string, obj: T): void {
    for (const [name, fn] of this.#indexers) {
      const index = this.#indices.get(name)!;
      for (const v of fn(obj)) removeFrom(index, v, key);
    }
  }
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a === b || (a.length === b.length && a.every((v, i) => v === b[i]));
}
