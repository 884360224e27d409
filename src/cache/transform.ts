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

/** strip managedFields → caller's transform → freeze: what the informer does to each incoming object. */
export function prepareForCache<T extends KubeObject>(obj: T, transform?: Transform<T>): T {
  const stripped = stripManagedFields(obj);
  return deepFreeze(transform ? transform(stripped) : stripped);
}
