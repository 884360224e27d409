import type { Change, ChangeType } from '../storage/change';
import { eventFor, type Sight } from '../storage/visibility';

/** Where a watcher's bytes go: an HTTP response or a WebSocket adapter. */
export interface WatchSink {
  /** Queues bytes; returns false once the sink's own buffer is past its high-water mark. */
  write(bytes: Buffer): boolean;
  /** Bytes queued and not yet taken by the peer. */
  readonly bufferedBytes: number;
  /**
   * Hands what was written so far to the connection now (TLS record and socket write in this call), not
   * when the event loop next turns: until then a live event would wait for whatever else runs in this
   * turn (the reconciles its own change started, the next watcher's writes).
   */
  flush(): void;
  /**
   * Calls `ready` once, when the sink has handed everything written to the connection (its buffer
   * emptied) or will take nothing more (closed): a catch-up writes its next slice then.
   */
  onDrain(ready: () => void): void;
  end(): void;
  destroy(): void;
}

export interface WatcherOptions<T> {
  /** Whom the watch is for and what it selects: decides each change's event (see `eventFor`). */
  sight: Sight<T>;
  /** The bytes of one event in this watcher's form; shared with every watcher of the same form. */
  encode(change: Change<T>, type: ChangeType, object: T): Buffer;
  /**
   * How far behind the live events a client may fall, in unread bytes: past this for longer than
   * `slowGraceMs` the watcher is closed as too slow; past four times as many, at once. A live burst (a
   * tenant change that rewrites every row) may pass it briefly; a client that keeps up brings it back
   * within the grace. The initial events and a resume's replay are not live: see Watcher.
   */
  maxBufferedBytes: number;
  /** Default 2 s. */
  slowGraceMs?: number;
  /** Called once when the watcher closes, with why ('failed': making a catch-up's events threw, see onError). */
  onClose(reason: CloseReason): void;
  /** Told what made a catch-up fail after its first slice (the watch is then closed as 'failed'). */
  onError?(err: unknown): void;
}

export type CloseReason = 'slow' | 'done' | 'client' | 'failed';

/**
 * The most of a catch-up handed to the sink at a time (and the bound, when smaller): the next slice is
 * made once the client has taken the last one. So a WatchList of every row (tens of MiB at 100k
 * namespaces) holds at most about this much in memory however slowly it is read, no more than a client
 * may fall behind the live events, and making it never blocks the event loop for longer than one slice.
 */
export const CATCH_UP_SLICE_BYTES = 1 << 20;

/**
 * One open watch. The type of each event is what its client must see, whatever the change was in the
 * view: a row that becomes visible (ownership granted, now matches the selector) arrives as ADDED, one
 * that stops being visible as DELETED carrying the last state the client could see. It keeps no copy of
 * what it sent: each change records the states before and after it and who could see each.
 *
 * Invariant: given the visible subset of the view as of some change (the initial events, or the list a
 * resuming client made), after each later change is delivered the client's picture — {rows announced by
 * ADDED/MODIFIED} minus {rows announced by DELETED} — equals the visible subset as of that change.
 */
export class Watcher<T> {
  #closed = false;
  #slowCheck: NodeJS.Timeout | undefined;
  /** Bytes handed to the sink so far: with its unread bytes, how far the client has read. */
  #written = 0;
  /**
   * Where the last catch-up ends in the stream (#written after it): the initial events or a resume's
   * replay. Its bytes are what the client asked to be brought up to date with, as many as it may see (a
   * WatchList of every row is tens of MiB at 100k namespaces), and never count as falling behind, as long
   * as the client reads.
   */
  #catchUpEnd = 0;
  /**
   * The rest of a catch-up under way, made slice by slice as the client takes it (as kube-apiserver sends
   * initial events); undefined when none is. Its events are made from states fixed when it began (a
   * snapshot of rows, a replay's changes), so making them later changes nothing they say.
   */
  #catchUp: Iterator<Buffer> | undefined;
  /**
   * What came while a catch-up was under way — live events, bookmarks — in order, written right after
   * it: the client's picture is the catch-up's state, then each later change. These bytes are how far
   * behind the live events the client is meanwhile.
   */
  #queued: Buffer[] = [];
  #queuedBytes = 0;

  constructor(readonly sink: WatchSink, readonly options: WatcherOptions<T>) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Where the client stands, in bytes (for the log line of a watch closed as slow): sent, where the last catch-up ends among them, unread, waiting behind a catch-up under way, behind the live events. */
  get pace(): { sentBytes: number; catchUpEndsAt: number; bufferedBytes: number; queuedBytes: number; behindBytes: number } {
    const buffered = this.sink.bufferedBytes;
    return { sentBytes: this.#written, catchUpEndsAt: this.#catchUpEnd, bufferedBytes: buffered, queuedBytes: this.#queuedBytes, behindBytes: this.#behind(this.#written - buffered) };
  }

  /**
   * Sends the initial state: an ADDED for each object (already filtered for visibility), as the client
   * takes them. `objects` is a snapshot (a view's rows are immutable, its lists frozen copies): it is read
   * slice by slice, after later changes may have come.
   */
  sendInitial(change: (object: T) => Change<T>, objects: Iterable<T>): void {
    const { encode } = this.options;
    this.#startCatchUp((function* () {
      for (const object of objects) yield encode(change(object), 'ADDED', object);
    })());
  }

  /** Sends the event, if any, that `change` makes for this watch, and puts it on the wire at once. */
  deliver(change: Change<T>): void {
    const bytes = this.#eventOf(change);
    if (!bytes) return;
    if (this.#catchUp) return this.#queue(bytes);
    this.#write(bytes);
    this.#flush();
  }

  /** Sends the events of `changes` (a resume's replay, a fixed list), in order, as the client takes them. */
  replay(changes: Iterable<Change<T>>): void {
    this.#startCatchUp(this.#eventsOf(changes));
  }

  /** Writes bytes that are not a change (bookmarks, the final ERROR event). */
  writeRaw(bytes: Buffer): void {
    if (this.#closed) return;
    if (this.#catchUp) this.#queue(bytes);
    else this.#write(bytes);
  }

  /**
   * Closes the watch. What waits behind a catch-up under way is dropped with it, bookmarks included:
   * a client is never told a resourceVersion whose state it has not been sent in full.
   */
  close(reason: CloseReason): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#slowCheck);
    this.#catchUp = undefined;
    this.#queued = [];
    this.#queuedBytes = 0;
    if (reason === 'slow' || reason === 'failed') this.sink.destroy();
    else if (reason === 'done') this.sink.end();
    this.options.onClose(reason);
  }

  /** The bytes of the event `change` makes for this watch; undefined when it makes none (or the watch is closed). */
  #eventOf(change: Change<T>): Buffer | undefined {
    if (this.#closed) return undefined;
    const event = eventFor(this.options.sight, change);
    return event ? this.options.encode(change, event.type, event.object) : undefined;
  }

  /** The bytes of the events `changes` make for this watch, made as they are asked for. */
  *#eventsOf(changes: Iterable<Change<T>>): Generator<Buffer> {
    for (const change of changes) {
      const bytes = this.#eventOf(change);
      if (bytes) yield bytes;
    }
  }

  #flush(): void {
    // A write past the slow bound may have closed (destroyed) the sink.
    if (!this.#closed) this.sink.flush();
  }

  #startCatchUp(events: Iterator<Buffer>): void {
    if (this.#closed) return;
    this.#catchUp = events;
    this.#pump(true);
  }

  /**
   * Writes the catch-up's next slice, and the next in a later turn, once the sink has handed this one to
   * the connection. The first slice is made in the caller's turn and holds at least one event, so a
   * catch-up that fits in one is written at once, and its first event is the first this watch makes (a
   * Table's column headers go with the first).
   */
  #pump(first = false): void {
    const events = this.#catchUp;
    if (!events || this.#closed) return;
    const slice = Math.min(this.options.maxBufferedBytes, CATCH_UP_SLICE_BYTES);
    // A slice ends when this much has been made in this turn, or is waiting in the sink: the connection
    // may take everything at once (the kernel's buffers), and the event loop is not held for more.
    let made = 0;
    try {
      while ((first && made === 0) || (made < slice && this.sink.bufferedBytes < slice)) {
        const next = events.next();
        if (next.done) return this.#endCatchUp();
        this.#put(next.value);
        made += next.value.length;
      }
    } catch (err) {
      // Closed either way (nothing may wait behind a catch-up that cannot end); the first slice's failure
      // is the caller's to report, as the request it serves fails with it.
      if (!first) this.options.onError?.(err);
      this.close('failed');
      if (first) throw err;
      return;
    }
    this.#flush();
    this.#checkPace();
    if (!this.#closed) this.sink.onDrain(() => this.#pump());
  }

  /** The catch-up is all written: what waited behind it follows, and the bound applies from its end. */
  #endCatchUp(): void {
    this.#catchUp = undefined;
    this.#catchUpEnd = this.#written;
    const queued = this.#queued;
    this.#queued = [];
    this.#queuedBytes = 0;
    for (const bytes of queued) this.#put(bytes);
    this.#flush();
    this.#checkPace();
  }

  /** Keeps bytes that came during a catch-up, to be written after it; they count as falling behind. */
  #queue(bytes: Buffer): void {
    this.#queued.push(bytes);
    this.#queuedBytes += bytes.length;
    this.#checkPace();
  }

  /** Hands bytes to the sink, not yet judged against the client's pace (a catch-up's: see #catchUpEnd). */
  #put(bytes: Buffer): void {
    this.sink.write(bytes);
    this.#written += bytes.length;
  }

  /** Writes live bytes, and closes the watcher if its client has fallen too far behind. */
  #write(bytes: Buffer): void {
    this.#put(bytes);
    this.#checkPace();
  }

  /**
   * How far behind the live events the client is, given how far it has read: what waits behind a
   * catch-up under way, or else the unread bytes beyond the last catch-up.
   */
  #behind(read: number): number {
    if (this.#catchUp) return this.#queuedBytes;
    return this.#written - Math.max(read, this.#catchUpEnd);
  }

  /**
   * Whether the client holds bytes it must read for the watch to go on: more than the bound unread, or
   * any of a catch-up's slice (its next slice waits for it; with a bound above the slice size it never
   * holds more than the bound, and a client that stopped reading must not hold its catch-up for ever).
   */
  #holding(): boolean {
    const buffered = this.sink.bufferedBytes;
    return buffered + this.#queuedBytes > this.options.maxBufferedBytes || (this.#catchUp !== undefined && buffered > 0);
  }

  /**
   * Closes the watcher as slow once its client is more than `maxBufferedBytes` behind the live events for
   * the grace (more than four times as many: at once), or holds bytes it must read (see #holding) and read
   * none of them for STALLED_GRACES graces: a client that stopped reading holds no catch-up for ever, and one
   * that is busy starting (kube-controller-manager opens its informers all at once) is not taken for one.
   */
  #checkPace(stillGraces = 0): void {
    if (this.#closed) return;
    const { maxBufferedBytes, slowGraceMs = 2000 } = this.options;
    const read = this.#written - this.sink.bufferedBytes;
    if (this.#behind(read) > 4 * maxBufferedBytes) {
      this.close('slow');
    } else if (this.#holding() && !this.#slowCheck) {
      this.#slowCheck = setTimeout(() => {
        this.#slowCheck = undefined;
        if (!this.#holding()) return;
        const readNow = this.#written - this.sink.bufferedBytes;
        // Graces in a row in which the client read nothing.
        const still = readNow === read ? stillGraces + 1 : 0;
        if (this.#behind(readNow) > maxBufferedBytes || still >= STALLED_GRACES) this.close('slow');
        else this.#checkPace(still); // still reading its catch-up: look again after another grace
      }, slowGraceMs);
      this.#slowCheck.unref();
    }
  }
}

/** Graces in a row without reading a byte after which a client holding bytes it must read is closed (30 s by default; see Watcher's #holding). */
export const STALLED_GRACES = 15;
