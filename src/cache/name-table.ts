/**
 * A table of values by name that keeps no keys: each value carries its own name (`nameOf`), so a slot
 * holds the value alone. A Map of the same entries keeps each key beside its value and a chain link,
 * plus a bucket per two entries: 28 B per slot, 46 B per entry at 10,000 entries (V8, no pointer
 * compression). Here a slot is one pointer: 11–21 B per entry, from just before to just after a growth.
 * The caches hold several such tables per tenant namespace (the Namespaces, each guardrail kind, the
 * TenantNamespace rows), so this is most of a tenant namespace's bookkeeping.
 *
 * Open addressing with linear probing over a power-of-two array of slots, at most three quarters full;
 * a deletion moves later entries of the same run back (Knuth's Algorithm R), so there are no tombstones
 * and a lookup stops at the first empty slot. The hash of a name is seeded per process: names are chosen
 * by tenants, and a fixed hash would let one craft names that all land in one run.
 *
 * Invariants: every value is reachable from the home slot of its name's hash without crossing an empty
 * slot; no two values have the same name; `size` values are held. Iteration visits slot order (no
 * insertion order); it reads the live slots, so the table must not change while it is iterated — except
 * that `set` of a name already held replaces in place and may run during iteration.
 */
export class NameTable<V> {
  #slots: (V | undefined)[];
  #size = 0;

  constructor(readonly nameOf: (value: V) => string, capacity = MIN_CAPACITY) {
    this.#slots = emptySlots(capacity);
  }

  get size(): number {
    return this.#size;
  }

  get(name: string): V | undefined {
    const at = this.#find(name);
    return at < 0 ? undefined : this.#slots[at];
  }

  has(name: string): boolean {
    return this.#find(name) >= 0;
  }

  /** Puts `value` under `name`, which must be `nameOf(value)`, replacing the value of that name. */
  set(name: string, value: V): this {
    if (this.nameOf(value) !== name) throw new Error(`a value named ${JSON.stringify(this.nameOf(value))} set under ${JSON.stringify(name)}`);
    const at = this.#find(name);
    if (at >= 0) {
      this.#slots[at] = value;
      return this;
    }
    if ((this.#size + 1) * 4 > this.#slots.length * 3) {
      this.#resize(this.#slots.length * 2);
      this.#slots[this.#find(name) ^ -1] = value;
    } else this.#slots[at ^ -1] = value;
    this.#size++;
    return this;
  }

  /** Removes the value named `name`; whether there was one. */
  delete(name: string): boolean {
    let hole = this.#find(name);
    if (hole < 0) return false;
    const slots = this.#slots;
    const mask = slots.length - 1;
    slots[hole] = undefined;
    this.#size--;
    // Algorithm R: a later value of the run whose home is not cyclically in (hole, j] moves into the hole.
    for (let j = (hole + 1) & mask; ; j = (j + 1) & mask) {
      const value = slots[j];
      if (value === undefined) break;
      const home = this.#home(this.nameOf(value), mask);
      const stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
      if (stays) continue;
      slots[hole] = value;
      slots[j] = undefined;
      hole = j;
    }
    if (this.#slots.length > MIN_CAPACITY && this.#size * 8 < this.#slots.length) this.#resize(this.#slots.length / 2);
    return true;
  }

  clear(): void {
    this.#slots = emptySlots(MIN_CAPACITY);
    this.#size = 0;
  }

  *values(): IterableIterator<V> {
    for (const value of this.#slots) if (value !== undefined) yield value;
  }

  *keys(): IterableIterator<string> {
    for (const value of this.values()) yield this.nameOf(value);
  }

  *entries(): IterableIterator<[string, V]> {
    for (const value of this.values()) yield [this.nameOf(value), value];
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }

  /** The slot of the value named `name`, or the one's complement of the empty slot where it would go. */
  #find(name: string): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = this.#home(name, mask); ; i = (i + 1) & mask) {
      const value = slots[i];
      if (value === undefined) return i ^ -1;
      if (this.nameOf(value) === name) return i;
    }
  }

  #home(name: string, mask: number): number {
    return hashName(name) & mask;
  }

  #resize(capacity: number): void {
    const old = this.#slots;
    this.#slots = emptySlots(capacity);
    const mask = capacity - 1;
    for (const value of old) {
      if (value === undefined) continue;
      let i = this.#home(this.nameOf(value), mask);
      while (this.#slots[i] !== undefined) i = (i + 1) & mask;
      this.#slots[i] = value;
    }
  }
}

const MIN_CAPACITY = 8;

/** A filled (not holey) array: reads of its slots need no prototype lookup. */
function emptySlots<V>(capacity: number): (V | undefined)[] {
  return new Array<V | undefined>(capacity).fill(undefined);
}

/** This process's seed of the name hash (see NameTable). */
const SEED = (Math.random() * 2 ** 32) >>> 0;

/** FNV-1a over the UTF-16 code units from a random offset basis, then MurmurHash3's finalizer (its low bits pick the slot). */
export function hashName(name: string): number {
  let h = (0x811c9dc5 ^ SEED) >>> 0;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
