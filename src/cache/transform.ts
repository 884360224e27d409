import type { KubeObject } from '../kube/types';

/** A hook applied to every object before it is stored; it may return a trimmed copy, never mutate its input. */
export type Transform<T extends KubeObject> = (obj: T) => T;

/** Drops `metadata.managedFields` (often half an object's size, never needed by Paddock). */
export function stripManagedFields<T extends KubeObject>(obj: T): T {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** Freezes an object graph in place so cached objects are read-only everywhere they are shared. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

/**
 * strip managedFields → caller's transform → share what did not change with `previous` (the cached
 * version of the same object) → freeze: what the informer does to each incoming object.
 */
export function prepareForCache<T extends KubeObject>(obj: T, transform?: Transform<T>, previous?: T): T {
  const stripped = stripManagedFields(obj);
  const transformed = transform ? transform(stripped) : stripped;
  return deepFreeze(previous === undefined ? transformed : (shareUnchanged(previous, transformed) as T));
}

/**
 * `next` with every part equal to the same part of `previous` replaced by that part — strings and whole
 * subtrees — so that consecutive versions of an object (the cache's, and those a history still holds)
 * share what did not change. Returns `previous` itself when all is equal. Only unfrozen objects of
 * `next` are modified (a frozen part is already shared, e.g. interned); `previous` never is.
 */
export function shareUnchanged(previous: unknown, next: unknown): unknown {
  if (previous === next || typeof next !== 'object' || next === null) return previous === next ? previous : next;
  if (typeof previous !== 'object' || previous === null || Array.isArray(previous) !== Array.isArray(next)) return next;
  const before = previous as Record<string, unknown>;
  const after = next as Record<string, unknown>;
  const keys = Object.keys(after);
  let same = keys.length === Object.keys(before).length;
  const writable = !Object.isFrozen(after);
  for (const key of keys) {
    const value = after[key];
    const shared = Object.hasOwn(before, key) ? shareUnchanged(before[key], value) : value;
    if (shared !== value && writable) after[key] = shared;
    if (shared !== before[key] || !Object.hasOwn(before, key)) same = false;
  }
  return same ? previous : next;
}
