import { hash } from 'node:crypto';
import type { KubeObject } from '../kube/types';
import type { EventHandler, HandlerRegistration } from './informer';
import { objectKey } from './keys';
import type { ObjectCache } from './store';

/** What a history needs of an informer: its store (the state now) and its events. */
export interface HistorySource<T extends KubeObject> {
  readonly store: Pick<ObjectCache<T>, 'get' | 'byIndex' | 'list'>;
  addEventHandler(handler: EventHandler<T>): HandlerRegistration;
}

/** One change of one source collection: the object `key` went from `before` to `after`. Immutable. */
export interface HistoryEntry<T> {
  /** Position after this change, counted by this process (one per change). */
  readonly seq: number;
  /** The revision kube-apiserver gave the change (for a change noticed by a relist, the list's). */
  readonly rev: number;
  readonly key: string;
  /** undefined: the object did not exist before the change. */
  readonly before: T | undefined;
  /** undefined: the change deleted it. */
  readonly after: T | undefined;
  /** The fingerprint of the collection after the change. */
  readonly fingerprint: string;
}

/** Where a client stands in one source collection: the state it has seen, and the revision it had reached. */
export interface SourcePosition {
  readonly rev: number;
  readonly fingerprint: string;
}

/**
 * The recent history of one cached collection, recorded from its informer's events, so that any
 * replica can tell what changed since a state a client saw — even one this replica never passed
 * through itself.
 *
 * A state of the collection is named by its **fingerprint**: the XOR of a hash of `(key,
 * resourceVersion)` over the objects it holds. kube-apiserver gives every write a new resourceVersion
 * from one global counter, so two processes that hold the same objects hold the same fingerprint,
 * whatever order they received the other collections' events in, and whether they got there by watch
 * events or by a list (a replica that has just started, or relisted). The fingerprint is what makes a
 * position portable across replicas and restarts.
 *
 * Invariants:
 * - the store of the source is the state at `head`: the history's handler is registered before any
 *   view's, and events are applied synchronously, so every reader sees store and history agree;
 * - positions `floor..head` are retained: `locate(fp, rev)` finds the retained position whose state has
 *   that fingerprint and held at that revision, and `entriesAfter(p)` gives every change after it, in order;
 * - `rev` never decreases: it is the highest revision this replica knows the collection is current at
 *   (events, bookmarks and lists), so a client position with a higher `rev` and an unknown fingerprint
 *   is ahead of this replica, not lost;
 * - at most `capacity` entries and about `maxBytes` of replaced objects are kept; older positions are
 *   forgotten (a client there gets 410 Expired and relists).
 *
 * Storage: the retained changes are kept as columns (see {@link Ring}), one slot per change and no object
 * per change; a change's key is its object's, its sequence number its slot's. {@link HistoryEntry}
 * objects are made only when asked for (a replay).
 */
export class SourceHistory<T extends KubeObject> {
  readonly #ring: Ring<T>;
  /**
   * The retained positions by the high half of their state's fingerprint (a small integer), oldest
   * first: one position as a number (most fingerprints name one position), several as an array. Two
   * fingerprints may share a high half: readers compare the low half too.
   */
  readonly #positions = new Map<number, number | number[]>();
  readonly #waiters = new Set<() => void>();
  #head = 0;
  #floor = 0;
  #floorHi = 0;
  #floorLo = 0;
  #floorRev = 0;
  #hi = 0;
  #lo = 0;
  #rev = 0;
  #bytes = 0;

  constructor(readonly source: HistorySource<T>, readonly capacity: number, readonly maxBytes = Infinity) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
    this.#ring = new Ring(capacity);
    this.#positions.set(0, 0);
    source.addEventHandler({
      add: (obj) => this.#record(obj, undefined, obj, revisionOf(obj)),
      update: (old, obj) => this.#record(obj, old, obj, revisionOf(obj)),
      // A watch's DELETED carries the deletion's revision; a relist's does not (the list's comes next).
      delete: (obj, info) => this.#record(info.cached, info.cached, undefined, info.finalStateUnknown ? this.#rev : revisionOf(obj)),
      progress: (rv) => this.#advance(Number(rv)),
    });
  }

  /** The fingerprint of the collection now. */
  get fingerprint(): string {
    return this.#fingerprintAt(this.#head);
  }

  get position(): SourcePosition {
    return { rev: this.#rev, fingerprint: this.fingerprint };
  }

  get head(): number {
    return this.#head;
  }

  get rev(): number {
    return this.#rev;
  }

  /**
   * The retained position whose state has fingerprint `fp` and that held at revision `rev` (the one a
   * client's resourceVersion carries for this collection): a state can recur (objects created, then
   * deleted), and only the position the client was at has the changes it has not seen after it.
   * Without a match by revision, the latest with that fingerprint; undefined when none is retained.
   */
  locate(fp: string, rev = Infinity): number | undefined {
    if (!FINGERPRINT.test(fp)) return undefined;
    const hi = parseInt(fp.slice(0, 8), 16) | 0;
    const lo = parseInt(fp.slice(8), 16) | 0;
    const held = this.#positions.get(hi);
    if (held === undefined) return undefined;
    const positions = (typeof held === 'number' ? [held] : held).filter((seq) => this.#loAt(seq) === lo);
    if (positions.length === 0) return undefined;
    for (let k = positions.length - 1; k >= 0; k--) if (this.#since(positions[k]) <= rev) return positions[k];
    return positions[positions.length - 1];
  }

  /** The revision from which retained position `seq` held: that of the change that made it. */
  #since(seq: number): number {
    return seq === this.#floor ? this.#floorRev : this.#ring.rev(seq);
  }

  /** Whether position `seq` is retained. */
  retains(seq: number): boolean {
    return seq >= this.#floor && seq <= this.#head;
  }

  /** Every retained change after position `seq` (which must be retained), oldest first. */
  entriesAfter(seq: number): HistoryEntry<T>[] {
    if (seq < this.#floor) throw new RangeError(`position ${seq} is no longer retained`);
    const out: HistoryEntry<T>[] = [];
    for (let s = seq + 1; s <= this.#head; s++) out.push(this.#entry(s));
    return out;
  }

  /** The state of the collection at retained position `seq`, read through the store. */
  at(seq: number): SourceAt<T> {
    return new SourceAt(this, seq);
  }

  /** Calls `listener` after every change or progress of the collection, until the returned function is called. */
  onAdvance(listener: () => void): () => void {
    this.#waiters.add(listener);
    return () => this.#waiters.delete(listener);
  }

  /** The change that made retained position `seq` (> floor), as an object. */
  #entry(seq: number): HistoryEntry<T> {
    const before = this.#ring.before(seq);
    const after = this.#ring.after(seq);
    return Object.freeze({ seq, rev: this.#ring.rev(seq), key: objectKey((after ?? before)!), before, after, fingerprint: this.#fingerprintAt(seq) });
  }

  #fingerprintAt(seq: number): string {
    return seq === this.#floor ? format(this.#floorHi, this.#floorLo) : format(this.#ring.hi(seq), this.#ring.lo(seq));
  }

  #loAt(seq: number): number {
    return seq === this.#floor ? this.#floorLo : this.#ring.lo(seq);
  }

  /** Records that the object `obj` (the state before or after) went from `before` to `after`. */
  #record(obj: T, before: T | undefined, after: T | undefined, rev: number): void {
    const key = objectKey(obj);
    if (before) this.#toggle(key, before);
    if (after) this.#toggle(key, after);
    const seq = ++this.#head;
    if (seq - this.#floor > this.capacity) this.#evict();
    const entryRev = Math.max(rev, this.#rev);
    this.#ring.put(seq, entryRev, this.#hi | 0, this.#lo | 0, before, after);
    const hi = this.#hi | 0;
    const positions = this.#positions.get(hi);
    if (positions === undefined) this.#positions.set(hi, seq);
    else if (typeof positions === 'number') this.#positions.set(hi, [positions, seq]);
    else positions.push(seq);
    this.#bytes += sizeOf(before);
    while (this.#bytes > this.maxBytes && this.#floor < this.#head - 1) this.#evict();
    this.#advance(entryRev);
  }

  /** Forgets the oldest retained position; the state after the oldest change becomes the floor. */
  #evict(): void {
    // The floor is the oldest retained position: when its fingerprint's list holds it, it is the first.
    const positions = this.#positions.get(this.#floorHi);
    if (positions === this.#floor) this.#positions.delete(this.#floorHi);
    else if (typeof positions === 'object' && positions[0] === this.#floor) {
      positions.shift();
      if (positions.length === 1) this.#positions.set(this.#floorHi, positions[0]);
    }
    const oldest = ++this.#floor;
    this.#floorHi = this.#ring.hi(oldest);
    this.#floorLo = this.#ring.lo(oldest);
    this.#floorRev = this.#ring.rev(oldest);
    this.#bytes -= sizeOf(this.#ring.before(oldest));
  }

  #advance(rev: number): void {
    if (Number.isFinite(rev) && rev > this.#rev) this.#rev = rev;
    for (const wake of [...this.#waiters]) wake();
  }

  #toggle(key: string, obj: T): void {
    const h = hash('sha256', `${key}\u0000${obj.metadata.resourceVersion ?? ''}`, 'buffer');
    this.#hi = (this.#hi ^ h.readUInt32BE(0)) >>> 0;
    this.#lo = (this.#lo ^ h.readUInt32BE(4)) >>> 0;
  }
}

const FINGERPRINT = /^[0-9a-f]{16}$/;

/** A fingerprint's text from its halves (each a 32-bit integer, signed or not). */
function format(hi: number, lo: number): string {
  return (hi >>> 0).toString(16).padStart(8, '0') + (lo >>> 0).toString(16).padStart(8, '0');
}

/**
 * The retained changes of a history, one slot per change (slot `(seq - 1) % capacity`), in five columns:
 * revision, the fingerprint's halves (as signed 32-bit integers, stored unboxed), the object before
 * and after. The columns grow with use up to `capacity` slots, then are reused in turn.
 */
class Ring<T> {
  readonly #revs: number[] = [];
  readonly #his: number[] = [];
  readonly #los: number[] = [];
  readonly #befores: (T | undefined)[] = [];
  readonly #afters: (T | undefined)[] = [];

  constructor(readonly capacity: number) {}

  put(seq: number, rev: number, hi: number, lo: number, before: T | undefined, after: T | undefined): void {
    const slot = (seq - 1) % this.capacity;
    this.#revs[slot] = rev;
    this.#his[slot] = hi;
    this.#los[slot] = lo;
    this.#befores[slot] = before;
    this.#afters[slot] = after;
  }

  rev(seq: number): number { return this.#revs[(seq - 1) % this.capacity]; }
  hi(seq: number): number { return this.#his[(seq - 1) % this.capacity]; }
  lo(seq: number): number { return this.#los[(seq - 1) % this.capacity]; }
  before(seq: number): T | undefined { return this.#befores[(seq - 1) % this.capacity]; }
  after(seq: number): T | undefined { return this.#afters[(seq - 1) % this.capacity]; }
}

/**
 * One collection as it was at a retained position: the store, with every object changed since then
 * read as it was before its first later change. `advance(entry)` moves it one change forward (a replay).
 */
export class SourceAt<T extends KubeObject> {
  /** Keys whose state here differs from the store's, and their state here (undefined: absent). */
  readonly overlay = new Map<string, T | undefined>();
  #seq: number;

  constructor(readonly history: SourceHistory<T>, seq: number) {
    this.#seq = seq;
    const later = history.entriesAfter(seq);
    for (let i = later.length - 1; i >= 0; i--) this.overlay.set(later[i].key, later[i].before);
  }

  get seq(): number {
    return this.#seq;
  }

  get(key: string): T | undefined {
    return this.overlay.has(key) ? this.overlay.get(key) : this.history.source.store.get(key);
  }

  /** Every object here. */
  list(): T[] {
    const out = this.history.source.store.list().filter((o) => !this.overlay.has(objectKey(o)));
    for (const obj of this.overlay.values()) if (obj) out.push(obj);
    return out;
  }

  /**
   * The objects of index `index` = `value` here: the store's, less those that differ here, plus those
   * here that `belongs` says have that value.
   */
  byIndex(index: string, value: string, belongs: (obj: T) => boolean): T[] {
    const out = this.history.source.store.byIndex(index, value).filter((o) => !this.overlay.has(objectKey(o)));
    for (const obj of this.overlay.values()) if (obj && belongs(obj)) out.push(obj);
    return out;
  }

  /** Applies the next change (`entry.seq` must be this position's next). */
  advance(entry: HistoryEntry<T>): void {
    if (entry.seq !== this.#seq + 1) throw new RangeError(`cannot advance from ${this.#seq} by change ${entry.seq}`);
    this.#seq = entry.seq;
    this.overlay.set(entry.key, entry.after);
  }
}

/** The replaced objects a history keeps alive at most, per collection (JSON length). */
const DEFAULT_MAX_BYTES = 64 * 2 ** 20;

const histories = new WeakMap<object, SourceHistory<KubeObject>>();

/**
 * The one history of `source`, made on first use. Views ask for it before they register their own
 * handlers, so it records each event before any view reacts to it.
 */
export function historyOf<T extends KubeObject>(source: HistorySource<T>, capacity: number, maxBytes = DEFAULT_MAX_BYTES): SourceHistory<T> {
  let history = histories.get(source) as SourceHistory<T> | undefined;
  if (!history) histories.set(source, (history = new SourceHistory(source, capacity, maxBytes) as SourceHistory<T>) as unknown as SourceHistory<KubeObject>);
  return history;
}

function revisionOf(obj: KubeObject): number {
  const rv = obj.metadata.resourceVersion;
  return rv && /^\d{1,16}$/.test(rv) ? Number(rv) : 0;
}

/** A rough size of an object kept alive by the history (its JSON length): what the byte bound counts. */
function sizeOf(obj: KubeObject | undefined): number {
  return obj ? JSON.stringify(obj).length : 0;
}
