import { ResourceVersions } from './resource-version';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/**
 * Who may see one state of a row: the owner subject keys (`User:alice`, `Group:gas-devs`, ...) of its
 * tenant as of that state. One set is shared by every state with the same owners; callers allowed to see
 * everything do not consult it.
 */
export type Audience = ReadonlySet<string>;

/** One state of a row as the log keeps it: the object served and who could see it then. Immutable. */
export interface RowState<T> {
  readonly object: T;
  readonly audience: Audience;
}

/** A copy of `object` carrying `resourceVersion` (a row's last state, sent with the change that removed it). */
export type Restamp<T> = (object: T, resourceVersion: string) => T;

/**
 * One change of the view: the row's state before and after it, each with who could see it. A watch judges
 * every change by those two recorded states, never by the present, so its events (live or replayed from an
 * older resourceVersion) are what its caller could see at each step.
 *
 * Its encodings (a JSON watch line, a one-row Table line, ...) are computed at most once per distinct form
 * and shared by every watcher that sends that form: `encoded(key, build)`.
 */
export class Change<T> {
  readonly type: ChangeType;
  readonly #encodings = new Map<string, Buffer>();
  readonly #restamp: Restamp<T>;
  #departed: T | undefined;

  constructor(
    readonly seq: number,
    readonly rv: string,
    /** The row before the change; undefined for ADDED. */
    readonly before: RowState<T> | undefined,
    /** The row after the change; undefined for DELETED. */
    readonly after: RowState<T> | undefined,
    restamp: Restamp<T> = (o) => o,
  ) {
    if (!before && !after) throw new TypeError('a change needs a state before or after it');
    this.type = !before ? 'ADDED' : after ? 'MODIFIED' : 'DELETED';
    this.#restamp = restamp;
  }

  /** The object after the change; for DELETED, its last state (see `departed`). */
  get object(): T {
    return this.after ? this.after.object : this.departed;
  }

  /** The object before the change; undefined for ADDED. */
  get previous(): T | undefined {
    return this.before?.object;
  }

  /**
   * The state before the change, numbered as this change: what a DELETED event carries to a watcher that
   * could see the row before the change and cannot after it (the row is gone, moved to other owners or out
   * of the watch's selectors). Made on first use and kept with the change.
   */
  get departed(): T {
    if (!this.before) throw new TypeError('an ADDED change has no previous state');
    return (this.#departed ??= this.#restamp(this.before.object, this.rv));
  }

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
 * Each change holds references to the row states before and after it (the view's own immutable rows,
 * shared with lists and every watcher), never anything per caller, so its memory is bounded by
 * `capacity` whatever the number of watchers.
 *
 * Invariants: seqs are consecutive; `since(s)` returns exactly the retained changes with seq > s, in
 * order; listeners run synchronously inside `append`, so a caller that reads a snapshot and subscribes
 * in the same tick sees every later change exactly once; for one row, each change's `before` is the
 * previous change's `after`.
 */
export class ChangeLog<T> {
  readonly #ring: (Change<T> | undefined)[];
  readonly #listeners = new Set<ChangeListener<T>>();
  #seq = 0;

  constructor(readonly versions: ResourceVersions, readonly capacity: number, readonly restamp: Restamp<T> = (o) => o) {
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

  /** Records that a row went from `before` (undefined: it did not exist) to `after` (undefined: it is gone). */
  append(before: RowState<T> | undefined, after: RowState<T> | undefined): Change<T> {
    const seq = ++this.#seq;
    const change = new Change(seq, this.versions.format(seq), before, after, this.restamp);
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
