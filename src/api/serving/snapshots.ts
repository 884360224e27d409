import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../../kube/types';

interface Snapshot {
  owner: string;
  rows: readonly KubeObject[];
  expires: number;
}

/**
 * Recent list results kept so that `continue` pages come from the same snapshot as the first page, as
 * kube-apiserver serves them from one etcd revision. Rows are immutable and shared with the view, and an
 * unfiltered list keeps the view's own array of rows (shared until a row changes), so a snapshot costs
 * at most one array of references. Bounded by count and age, and per caller: a caller past
 * `maxPerOwner` loses its own oldest snapshot, never another caller's, so one caller paging in a loop
 * cannot push everyone else's pages out. A page whose snapshot is gone falls back to the view's change
 * log (see list.ts).
 *
 * Invariant: a snapshot is only ever read back by the caller it was taken for (`owner`).
 */
export class ListSnapshots {
  readonly #items = new Map<string, Snapshot>();
  /** Each owner's snapshot ids, oldest first. */
  readonly #byOwner = new Map<string, string[]>();
  /** Wakes when the oldest snapshot expires, so that a snapshot is let go when it expires, lists or not. */
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly maxSnapshots = 256, readonly ttlMs = 120_000, readonly now: () => number = Date.now, readonly maxPerOwner = 16) {}

  /** Keeps `rows` (ordered by name) for `owner`; returns the id to put in the continue token ('' when none are kept). */
  put(owner: string, rows: readonly KubeObject[]): string {
    if (this.maxSnapshots <= 0 || this.maxPerOwner <= 0) return '';
    this.#expire();
    const own = this.#byOwner.get(owner) ?? [];
    while (own.length >= this.maxPerOwner) this.#delete(own[0]!);
    while (this.#items.size >= this.maxSnapshots) this.#delete(this.#items.keys().next().value!);
    const id = randomBytes(9).toString('base64url');
    this.#items.set(id, { owner, rows, expires: this.now() + this.ttlMs });
    const ids = this.#byOwner.get(owner) ?? [];
    ids.push(id);
    this.#byOwner.set(owner, ids);
    this.#schedule();
    return id;
  }

  get(id: string, owner: string): readonly KubeObject[] | undefined {
    const s = this.#items.get(id);
    if (!s || s.owner !== owner || s.expires <= this.now()) return undefined;
    return s.rows;
  }

  get size(): number {
    return this.#items.size;
  }

  #delete(id: string): void {
    const s = this.#items.get(id);
    if (!s) return;
    this.#items.delete(id);
    const ids = this.#byOwner.get(s.owner);
    if (!ids) return;
    const i = ids.indexOf(id);
    if (i >= 0) ids.splice(i, 1);
    if (ids.length === 0) this.#byOwner.delete(s.owner);
  }

  #expire(): void {
    const now = this.now();
    for (const [id, s] of this.#items) {
      if (s.expires > now) break; // insertion order is expiry order
      this.#delete(id);
    }
  }

  #schedule(): void {
    if (this.#timer !== undefined) return;
    const oldest = this.#items.values().next().value;
    if (oldest === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#expire();
      this.#schedule();
    }, Math.max(0, oldest.expires - this.now()) + 10).unref();
  }
}
