import { randomBytes } from 'node:crypto';
import type { TenantNamespace } from '../../kube/types';

interface Snapshot {
  owner: string;
  rows: readonly TenantNamespace[];
  expires: number;
}

/**
 * Recent list results kept so that `continue` pages come from the same snapshot as the first page, as
 * kube-apiserver serves them from one etcd revision. Rows are immutable and shared with the view, so a
 * snapshot costs one array of references. Bounded by count and age; a page whose snapshot is gone
 * falls back to the view's change log (see list.ts).
 *
 * Invariant: a snapshot is only ever read back by the caller it was taken for (`owner`).
 */
export class ListSnapshots {
  readonly #items = new Map<string, Snapshot>();

  constructor(readonly maxSnapshots = 256, readonly ttlMs = 120_000, readonly now: () => number = Date.now) {}

  /** Keeps `rows` (ordered by name) for `owner`; returns the id to put in the continue token ('' when none are kept). */
  put(owner: string, rows: readonly TenantNamespace[]): string {
    if (this.maxSnapshots <= 0) return '';
    this.#expire();
    while (this.#items.size >= this.maxSnapshots) this.#items.delete(this.#items.keys().next().value!);
    const id = randomBytes(9).toString('base64url');
    this.#items.set(id, { owner, rows, expires: this.now() + this.ttlMs });
    return id;
  }

  get(id: string, owner: string): readonly TenantNamespace[] | undefined {
    const s = this.#items.get(id);
    if (!s || s.owner !== owner || s.expires <= this.now()) return undefined;
    return s.rows;
  }

  get size(): number {
    return this.#items.size;
  }

  #expire(): void {
    const now = this.now();
    for (const [id, s] of this.#items) {
      if (s.expires > now) break; // insertion order is expiry order
      this.#items.delete(id);
    }
  }
}
