/**
 * Weak references to objects by a 32-bit hash of each (computed by the caller, kept beside it): the
 * table of the pool of shared values (summaries.ts's Interner). A Map from hash to reference costs 28 B
 * per slot and 46–56 B per entry; here a slot is a hash (4 B) and a reference (8 B): 16–24 B per entry.
 *
 * Open addressing with linear probing over a power-of-two array of slots, at most three quarters taken
 * (by live references and those to collected objects alike). Nothing is deleted one by one: a reference
 * whose object was collected is reused by the next object of the same hash that a lookup brings past it,
 * and `sweep` rebuilds the table from the live references alone.
 *
 * Invariants: every reference is reachable from the home slot of its hash without crossing an empty slot;
 * `size` references are held, some perhaps to collected objects.
 */
export class WeakSlots {
  #hashes: Int32Array;
  #refs: (WeakRef<object> | undefined)[];
  #size = 0;

  constructor(capacity = MIN_CAPACITY) {
    this.#hashes = new Int32Array(capacity);
    this.#refs = new Array<WeakRef<object> | undefined>(capacity).fill(undefined);
  }

  /** References held, including those to objects collected since the last sweep. */
  get size(): number {
    return this.#size;
  }

  /**
   * The live object of hash `hash` that `matches`, or else `make()`'s object, held from now on (in the
   * slot of a collected one of the same hash when the lookup passed one).
   */
  findOrAdd<T extends object>(hash: number, matches: (candidate: object) => boolean, make: () => T): T {
    const mask = this.#refs.length - 1;
    let reusable = -1;
    let i = hash & mask;
    for (; this.#refs[i] !== undefined; i = (i + 1) & mask) {
      if (this.#hashes[i] !== hash) continue;
      const hit = this.#refs[i]!.deref();
      if (hit === undefined) reusable = reusable < 0 ? i : reusable;
      else if (matches(hit)) return hit as T;
    }
    const made = make();
    if (reusable >= 0) {
      this.#refs[reusable] = new WeakRef(made);
      return made;
    }
    if ((this.#size + 1) * 4 > this.#refs.length * 3) {
      this.#rebuild(this.#size + 1);
      i = hash & (this.#refs.length - 1);
      while (this.#refs[i] !== undefined) i = (i + 1) & (this.#refs.length - 1);
    }
    this.#hashes[i] = hash;
    this.#refs[i] = new WeakRef(made);
    this.#size++;
    return made;
  }

  /** Drops the references to collected objects (the table is rebuilt from the live ones). */
  sweep(): void {
    this.#rebuild(0);
  }

  /** Rebuilds the table from its live references, with room for `more` beyond them at half load. */
  #rebuild(more: number): void {
    const live: number[] = [];
    for (let j = 0; j < this.#refs.length; j++) if (this.#refs[j]?.deref() !== undefined) live.push(j);
    let capacity = MIN_CAPACITY;
    while (capacity < (live.length + more) * 2) capacity *= 2;
    const [hashes, refs] = [this.#hashes, this.#refs];
    this.#hashes = new Int32Array(capacity);
    this.#refs = new Array<WeakRef<object> | undefined>(capacity).fill(undefined);
    const mask = capacity - 1;
    for (const j of live) {
      let i = hashes[j] & mask;
      while (this.#refs[i] !== undefined) i = (i + 1) & mask;
      this.#hashes[i] = hashes[j];
      this.#refs[i] = refs[j];
    }
    this.#size = live.length;
  }
}

const MIN_CAPACITY = 16;
