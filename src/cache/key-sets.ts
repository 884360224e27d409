/**
 * Maps from a value to the set of keys that have it (an index), stored by size: one key as the string
 * itself, a few as an array, more as a Set. Most index values have one key or a few (a tenant's
 * namespaces, an owner's tenants), and a Set costs several times what an array of a few strings does.
 *
 * Invariants: an entry holds each key once; an array entry holds 2..SMALL keys in insertion order, and
 * is replaced (not grown) when a key is added, so it has no spare room; an entry that drops to one key
 * is stored as the string, one that drops to none is removed.
 */
export type KeySet = string | string[] | Set<string>;

/** The most keys held in an array; one more makes a Set. */
const SMALL = 8;

export function addKey(index: Map<string, KeySet>, value: string, key: string): void {
  const keys = index.get(value);
  if (keys === undefined) index.set(value, key);
  else if (typeof keys === 'string') {
    if (keys !== key) index.set(value, [keys, key]);
  } else if (Array.isArray(keys)) {
    if (keys.includes(key)) return;
    // A new array of the exact length: one grown by push keeps room for about 16 more keys.
    if (keys.length < SMALL) index.set(value, keys.concat(key));
    else index.set(value, new Set([...keys, key]));
  } else keys.add(key);
}

export function removeKey(index: Map<string, KeySet>, value: string, key: string): void {
  const keys = index.get(value);
  if (keys === undefined) return;
  if (typeof keys === 'string') {
    if (keys === key) index.delete(value);
    return;
  }
  if (Array.isArray(keys)) {
    const i = keys.indexOf(key);
    if (i < 0) return;
    keys.splice(i, 1);
    if (keys.length === 1) index.set(value, keys[0]);
    return;
  }
  keys.delete(key);
  if (keys.size === 1) index.set(value, keys.values().next().value!);
  else if (keys.size === 0) index.delete(value);
}

/** The keys of an entry (none for undefined). */
export function keysIn(keys: KeySet | undefined): Iterable<string> {
  return keys === undefined ? [] : typeof keys === 'string' ? [keys] : keys;
}

/** Whether an entry holds `key`. */
export function hasKey(keys: KeySet | undefined, key: string): boolean {
  return keys === undefined ? false : typeof keys === 'string' ? keys === key : Array.isArray(keys) ? keys.includes(key) : keys.has(key);
}

/** How many keys an entry holds. */
export function countKeys(keys: KeySet | undefined): number {
  return keys === undefined ? 0 : typeof keys === 'string' ? 1 : Array.isArray(keys) ? keys.length : keys.size;
}
