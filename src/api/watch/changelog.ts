import { ResourceVersions } from './resource-version';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * One change of the view. Its encodings (a JSON watch line, a one-row Table line, ...) are computed at
 * most once per distinct form and shared by every watcher that sends that form: `encoded(key, build)`.
 */
export class Change<T> {
  readonly #encodings = new Map<string, Buffer>();

  constructor(
    readonly seq: number,
    readonly rv: string,
    readonly type: ChangeType,
    /** The object after the change (for DELETED: its last state). */
    readonly object: T,
    /** The object before the change; undefined for ADDED. */
    readonly previous: T | undefined,
  ) {}

  encoded(key: string, build: () => Buffer): Buffer {
    let bytes = this.#encodings.get(key);
    if (!bytes) {
      bytes = build();
      this.#encodings.set(key, bytes);
    }
    return bytes;
  }
}

export type ChangeListener<T> = (change: Change<T>) => void;

/**
 * The bounded history of a view's changes, numbered by {@link ResourceVersions}. It keeps the last
 * `capacity` changes so a client can resume a watch from a resourceVersion it holds; anything older is
 * answered with 410 Expired.
 *
 * Invariants: seqs are consecutive; `since(s)` returns exactly the retained changes with seq > s, in
 * order; listeners run synchronously inside `append`, so a caller that reads a snapshot and subscribes
 * in the same tick sees every later change exactly once.
 */
export class ChangeLog<T> {
  readonly #ring: (Change<T> | undefined)[];
  readonly #listeners = new Set<ChangeListener<T>>();
  #seq = 0;

  constructor(readonly versions: ResourceVersions, readonly capacity: number) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
    this.#ring = new Array(capacity);
  }

  /** The seq of the latest change (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  /** The resourceVersion of the view as of now. */
  get resourceVersion(): string {
    return this.versions.format(this.#seq);
  }

  /** The oldest seq a client may resume from (changes after it are all retained). */
  get oldestResumable(): number {
    return Math.max(0, this.#seq - this.capacity);
  }

  append(type: ChangeType, object: T, previous: T | undefined): Change<T> {
    const seq = ++this.#seq;
    const change = new Change(seq, this.versions.format(seq), type, object, previous);
    this.#ring[seq % this.capacity] = change;
    for (const listener of this.#listeners) listener(change);
    return change;
  }

  /** The retained changes after `seq`, or 'expired' when some of them are no longer retained. */
  since(seq: number): Change<T>[] | 'expired' {
    if (seq < this.oldestResumable) return 'expired';
    const out: Change<T>[] = [];
    for (let s = seq + 1; s <= this.#seq; s++) out.push(this.#ring[s % this.capacity]!);
    return out;
  }

  subscribe(listener: ChangeListener<T>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}
