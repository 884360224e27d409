/**
 * A bounded map whose entries expire: the memo behind token and access reviews. Each entry carries its own
 * time to live; when the map is full the oldest insertion is evicted first (a `Map` keeps insertion order,
 * and a refreshed key is re-inserted at the end), so memory never grows past `maxEntries`.
 */
export class ExpiringCache<V> {
  readonly #entries = new Map<string, { value: V; expiresAt: number }>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(maxEntries: number, now: () => number = Date.now) {
    if (!(maxEntries > 0)) throw new Error(`maxEntries must be positive, got ${maxEntries}`);
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  /** The live value for `key`, or undefined when absent or expired (an expired entry is dropped). */
  get(key: string): V | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` for `ttlMs` milliseconds; a non-positive TTL stores nothing. */
  set(key: string, value: V, ttlMs: number): void {
    if (ttlMs <= 0) return;
    this.#entries.delete(key);
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
