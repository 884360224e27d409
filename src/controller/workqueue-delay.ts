interface Entry<K> {
  readonly key: K;
  readonly readyAt: number;
}

/**
 * Keys waiting until a time, earliest first (a binary min-heap). Each key waits at most once: adding a key
 * that already waits keeps the earlier time. Superseded heap entries are skipped lazily when they surface,
 * so the heap holds at most one live entry per key plus one stale entry per move-earlier.
 */
export class DelayHeap<K> {
  readonly #heap: Entry<K>[] = [];
  readonly #readyAt = new Map<K, number>();

  /** Keys waiting. */
  get size(): number { return this.#readyAt.size; }

  /** Schedules `key` for `readyAt`; returns false if it already waits for an earlier (or equal) time. */
  schedule(key: K, readyAt: number): boolean {
    const existing = this.#readyAt.get(key);
    if (existing !== undefined && existing <= readyAt) return false;
    this.#readyAt.set(key, readyAt);
    this.#push({ key, readyAt });
    return true;
  }

  /** The earliest time any key is due, or undefined. */
  nextReadyAt(): number | undefined {
    this.#dropStale();
    return this.#heap[0]?.readyAt;
  }

  /** Removes and returns every key due at `now`, earliest first. */
  popReady(now: number): K[] {
    const out: K[] = [];
    for (;;) {
      this.#dropStale();
      const top = this.#heap[0];
      if (!top || top.readyAt > now) return out;
      this.#pop();
      this.#readyAt.delete(top.key);
      out.push(top.key);
    }
  }

  clear(): void {
    this.#heap.length = 0;
    this.#readyAt.clear();
  }

  #dropStale(): void {
    while (this.#heap.length > 0 && this.#readyAt.get(this.#heap[0]!.key) !== this.#heap[0]!.readyAt) this.#pop();
  }

  #push(e: Entry<K>): void {
    const h = this.#heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent]!.readyAt <= h[i]!.readyAt) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  #pop(): void {
    const h = this.#heap;
    const last = h.pop()!;
    if (h.length === 0) return;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && h[l]!.readyAt < h[m]!.readyAt) m = l;
      if (r < h.length && h[r]!.readyAt < h[m]!.readyAt) m = r;
      if (m === i) return;
      [h[m], h[i]] = [h[i]!, h[m]!];
      i = m;
    }
  }
}
