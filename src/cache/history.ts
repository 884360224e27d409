import { hash } from 'node:crypto';
import type { KubeObject } from '../kube/types';
import { countHistory } from '../metrics/cache';
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
 * - at most `capacity` entries and about `maxBytes` of replaced objects are kept, and of the changes
 *   older than the window's age (see {@link WatchWindow}) at most its `minKept`; older positions are
 *   forgotten (a client there gets 410 Expired and relists). The current position is always retained.
 *
 * Storage: the retained changes are kept as columns (see {@link Columns}), one slot per change and no
 * object per change, in blocks dropped as soon as every change they hold is forgotten, so a quiet
 * collection keeps only its last `minKept` changes; a change's key is its object's, its sequence number
 * its slot's. {@link HistoryEntry} objects are made only when asked for (a replay).
 */
export class SourceHistory<T extends KubeObject> {
  readonly #columns: Columns<T>;
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
  /** Armed while changes older than the window's age may have to be forgotten. */
  #trimTimer: NodeJS.Timeout | undefined;
  readonly window: Required<WatchWindow>;

  constructor(readonly source: HistorySource<T>, readonly capacity: number, readonly maxBytes = Infinity, window: WatchWindow = {}) {
    if (capacity < 1) throw new RangeError('capacity must be at least 1');
    this.window = { maxAgeMs: Infinity, minKept: capacity, now: Date.now, ...window };
    this.#columns = new Columns();
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
    return seq === this.#floor ? this.#floorRev : this.#columns.rev(seq);
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
    const before = this.#columns.before(seq);
    const after = this.#columns.after(seq);
    return Object.freeze({ seq, rev: this.#columns.rev(seq), key: objectKey((after ?? before)!), before, after, fingerprint: this.#fingerprintAt(seq) });
  }

  #fingerprintAt(seq: number): string {
    return seq === this.#floor ? format(this.#floorHi, this.#floorLo) : format(this.#columns.hi(seq), this.#columns.lo(seq));
  }

  #loAt(seq: number): number {
    return seq === this.#floor ? this.#floorLo : this.#columns.lo(seq);
  }

  /** Records that the object `obj` (the state before or after) went from `before` to `after`. */
  #record(obj: T, before: T | undefined, after: T | undefined, rev: number): void {
    const key = objectKey(obj);
    if (before) this.#toggle(key, before);
    if (after) this.#toggle(key, after);
    const seq = ++this.#head;
    if (seq - this.#floor > this.capacity) this.#evict();
    const entryRev = Math.max(rev, this.#rev);
    this.#columns.put(seq, entryRev, this.window.now(), this.#hi | 0, this.#lo | 0, before, after);
    const hi = this.#hi | 0;
    const positions = this.#positions.get(hi);
    if (positions === undefined) this.#positions.set(hi, seq);
    else if (typeof positions === 'number') this.#positions.set(hi, [positions, seq]);
    else positions.push(seq);
    this.#bytes += sizeOf(before);
    while (this.#bytes > this.maxBytes && this.#floor < this.#head - 1) this.#evict();
    this.trim();
    this.#advance(entryRev);
  }

  /** Changes retained (positions after the floor). */
  get retained(): number {
    return this.#head - this.#floor;
  }

  /**
   * Forgets the positions the window no longer needs: beyond the `minKept` latest changes, a position is
   * kept while the change that ended it (the next one) is younger than `maxAgeMs` — a client may have
   * been told of it (an event, a bookmark) until then. Runs after each change and, while something may
   * still have to go, on a timer (unref'd: it never keeps the process alive).
   */
  trim(): void {
    const { maxAgeMs, minKept, now } = this.window;
    if (!Number.isFinite(maxAgeMs)) return;
    const oldest = now() - maxAgeMs;
    while (this.#head - this.#floor > minKept && this.#columns.time(this.#floor + 1) <= oldest) this.#evict();
    if (this.#trimTimer !== undefined || this.#head - this.#floor <= minKept) return;
    const due = this.#columns.time(this.#floor + 1) + maxAgeMs - now();
    this.#trimTimer = setTimeout(() => {
      this.#trimTimer = undefined;
      this.trim();
    }, Math.max(0, due) + TRIM_SLACK_MS);
    this.#trimTimer.unref();
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
    this.#floorHi = this.#columns.hi(oldest);
    this.#floorLo = this.#columns.lo(oldest);
    this.#floorRev = this.#columns.rev(oldest);
    this.#bytes -= sizeOf(this.#columns.before(oldest));
    // The floor's own change is never read again (the floor's fields above say all of it).
    this.#columns.drop(oldest);
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

/** How long a forgotten change's position may wait to be trimmed after it is due (timers are coalesced). */
const TRIM_SLACK_MS = 1000;

/**
 * What the watch window must hold beyond the capacity and byte bounds: every change younger than
 * `maxAgeMs`, and at least the `minKept` latest whatever their age (as kube-apiserver's watch cache keeps
 * at least its lower bound of events, and sizes itself to hold those of the last 75 s). `now` is the
 * clock (milliseconds).
 */
export interface WatchWindow {
  maxAgeMs?: number;
  minKept?: number;
  now?: () => number;
}

/** Changes per block of {@link Columns}. */
const BLOCK = 256;

/** One block of columns: BLOCK consecutive changes. */
interface Block<T> {
  readonly revs: Float64Array;
  readonly times: Float64Array;
  readonly his: Int32Array;
  readonly los: Int32Array;
  readonly befores: (T | undefined)[];
  readonly afters: (T | undefined)[];
}

/**
 * The retained changes of a history, one slot per change, in six columns: revision, the time it was
 * recorded, the fingerprint's halves (signed 32-bit integers), the object before and after. Columns are
 * kept in blocks of BLOCK changes (block `(seq - 1) / BLOCK`), made when the first change of a block is
 * put and dropped when its last one is: memory follows what is retained, not the most ever retained.
 */
class Columns<T> {
  readonly #blocks = new Map<number, Block<T>>();

  put(seq: number, rev: number, time: number, hi: number, lo: number, before: T | undefined, after: T | undefined): void {
    const index = Math.floor((seq - 1) / BLOCK);
    let block = this.#blocks.get(index);
    if (!block) {
      block = { revs: new Float64Array(BLOCK), times: new Float64Array(BLOCK), his: new Int32Array(BLOCK), los: new Int32Array(BLOCK), befores: [], afters: [] };
      this.#blocks.set(index, block);
    }
    const slot = (seq - 1) % BLOCK;
    block.revs[slot] = rev;
    block.times[slot] = time;
    block.his[slot] = hi;
    block.los[slot] = lo;
    block.befores[slot] = before;
    block.afters[slot] = after;
  }

  /** Lets go of change `seq`'s objects; its block goes with its last change. */
  drop(seq: number): void {
    const index = Math.floor((seq - 1) / BLOCK);
    const block = this.#blocks.get(index);
    if (!block) return;
    const slot = (seq - 1) % BLOCK;
    block.befores[slot] = undefined;
    block.afters[slot] = undefined;
    if (slot === BLOCK - 1) this.#blocks.delete(index);
  }

  #block(seq: number): Block<T> {
    const block = this.#blocks.get(Math.floor((seq - 1) / BLOCK));
    if (!block) throw new RangeError(`change ${seq} is not retained`);
    return block;
  }

  rev(seq: number): number { return this.#block(seq).revs[(seq - 1) % BLOCK]; }
  time(seq: number): number { return this.#block(seq).times[(seq - 1) % BLOCK]; }
  hi(seq: number): number { return this.#block(seq).his[(seq - 1) % BLOCK]; }
  lo(seq: number): number { return this.#block(seq).los[(seq - 1) % BLOCK]; }
  before(seq: number): T | undefined { return this.#block(seq).befores[(seq - 1) % BLOCK]; }
  after(seq: number): T | undefined { return this.#block(seq).afters[(seq - 1) % BLOCK]; }
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

/**
 * The watch window of a served view's sources: every change of the last two minutes (a client told of a
 * position by an event or a bookmark — sent every 30 s — resumes from it after a dropped connection and
 * client-go's backoff; kube-apiserver's watch cache keeps 75 s), and at least the last 100 changes of a
 * quiet collection (kube-apiserver's lower bound).
 */
export const DEFAULT_WATCH_WINDOW: Required<Pick<WatchWindow, 'maxAgeMs' | 'minKept'>> = { maxAgeMs: 120_000, minKept: 100 };

/** The window of the histories made from now on (see useWatchWindowAge). */
let watchWindow: WatchWindow = DEFAULT_WATCH_WINDOW;

/** Sets the age of the watch window (`--watch-window-age`) of every history made from now on: call before any view is made. */
export function useWatchWindowAge(maxAgeMs: number): void {
  watchWindow = { ...DEFAULT_WATCH_WINDOW, maxAgeMs };
}

const histories = new WeakMap<object, SourceHistory<KubeObject>>();

/**
 * The one history of `source`, made on first use. Views ask for it before they register their own
 * handlers, so it records each event before any view reacts to it.
 */
export function historyOf<T extends KubeObject>(source: HistorySource<T>, capacity: number, maxBytes = DEFAULT_MAX_BYTES, window: WatchWindow = watchWindow): SourceHistory<T> {
  let history = histories.get(source) as SourceHistory<T> | undefined;
  if (!history) {
    const made = new SourceHistory(source, capacity, maxBytes, window);
    histories.set(source, made as unknown as SourceHistory<KubeObject>);
    const name = (source as { name?: unknown }).name;
    if (typeof name === 'string') {
      const ref = new WeakRef(made);
      countHistory(name, () => ref.deref()?.retained ?? 0);
    }
    history = made;
  }
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
