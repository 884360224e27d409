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
 * A change of who may see a row and nothing else (`audienceOnly`: another tenant allowed the class, an
 * owner added to another Tenant) is news only to the callers who gain or lose the row: the row keeps its
 * object and resourceVersion, and a caller who sees it before and after gets no event.
 *
 * Its encodings (a JSON watch line, a one-row Table line, ...) are computed at most once per distinct form
 * and shared by every watcher that sends that form: `encoded(key, build)`.
 */
export class Change<T> {
  readonly type: ChangeType;
  readonly #encodings = new Map<string, Buffer>();
  readonly #restamp: Restamp<T>;
  #departed: T | undefined;
  #arrived: T | undefined;

  constructor(
    readonly rv: string,
    /** The row before the change; undefined for ADDED. */
    readonly before: RowState<T> | undefined,
    /** The row after the change; undefined for DELETED. */
    readonly after: RowState<T> | undefined,
    restamp: Restamp<T> = (o) => o,
    /** Only the audience changed: the object after is the object before (see the class comment). */
    readonly audienceOnly = false,
  ) {
    if (!before && !after) throw new TypeError('a change needs a state before or after it');
    this.type = !before ? 'ADDED' : after ? 'MODIFIED' : 'DELETED';
    this.#restamp = restamp;
  }

  /** The object after the change; for DELETED, its last state (see `departed`). */
  get object(): T {
    return this.after ? this.after.object : this.departed;
  }

  /**
   * What an ADDED event carries to a watcher that sees the row only after the change: the state after it.
   * After an audience-only change that state still carries the resourceVersion of the row's last content
   * change, a position before the ones this watcher was sent: it is numbered as this change instead, so
   * that a client resuming from its event repeats nothing. Made on first use and kept with the change.
   */
  get arrived(): T {
    if (!this.after) throw new TypeError('a DELETED change has no state after it');
    if (!this.audienceOnly) return this.after.object;
    return (this.#arrived ??= this.#restamp(this.after.object, this.rv));
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
 * Changes as they happen, handed to every subscriber synchronously: a caller that reads a snapshot and
 * subscribes in one tick sees every later change exactly once.
 */
export class ChangeFeed<T> {
  readonly #listeners = new Set<ChangeListener<T>>();

  publish(change: Change<T>): Change<T> {
    for (const listener of this.#listeners) listener(change);
    return change;
  }

  subscribe(listener: ChangeListener<T>): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  get listenerCount(): number {
    return this.#listeners.size;
  }
}
