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
  /** Called once when the watcher closes, with why. */
  onClose(reason: 'slow' | 'done' | 'client'): void;
}

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
   * replay, written at once. Its bytes are what the client asked to be brought up to date with, as many
   * as it may see (a WatchList of every row is tens of MiB at 100k namespaces), and never count as
   * falling behind, as long as the client reads: kube-apiserver sends them as the client takes them.
   */
  #catchUpEnd = 0;

  constructor(readonly sink: WatchSink, readonly options: WatcherOptions<T>) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Where the client stands, in bytes (for the log line of a watch closed as slow): sent, where the last catch-up ends among them, unread, behind the live events. */
  get pace(): { sentBytes: number; catchUpEndsAt: number; bufferedBytes: number; behindBytes: number } {
    const buffered = this.sink.bufferedBytes;
    return { sentBytes: this.#written, catchUpEndsAt: this.#catchUpEnd, bufferedBytes: buffered, behindBytes: this.#behind(this.#written - buffered) };
  }

  /** Sends the initial state: an ADDED for each object (already filtered for visibility). */
  sendInitial(change: (object: T) => Change<T>, objects: Iterable<T>): void {
    for (const object of objects) {
      if (this.#closed) return;
      this.#put(this.options.encode(change(object), 'ADDED', object));
    }
    this.#caughtUp();
  }

  /** Sends the event, if any, that `change` makes for this watch, and puts it on the wire at once. */
  deliver(change: Change<T>): void {
    if (this.#send(change)) this.#flush();
  }

  /** Sends the events of `changes` (a resume's replay), in order, then puts them on the wire together. */
  replay(changes: Iterable<Change<T>>): void {
    let sent = false;
    for (const change of changes) sent = this.#send(change, true) || sent;
    if (sent) this.#flush();
    this.#caughtUp();
  }

  /** Writes bytes that are not a change (bookmarks, the final ERROR event). */
  writeRaw(bytes: Buffer): void {
    if (!this.#closed) this.#write(bytes);
  }

  close(reason: 'slow' | 'done' | 'client'): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#slowCheck);
    if (reason === 'slow') this.sink.destroy();
    else if (reason === 'done') this.sink.end();
    this.options.onClose(reason);
  }

  /** Writes the event `change` makes for this watch, if any (in a catch-up, or live); true when it wrote one. */
  #send(change: Change<T>, catchUp = false): boolean {
    if (this.#closed) return false;
    const event = eventFor(this.options.sight, change);
    if (!event) return false;
    const bytes = this.options.encode(change, event.type, event.object);
    if (catchUp) this.#put(bytes);
    else this.#write(bytes);
    return true;
  }

  #flush(): void {
    // A write past the slow bound may have closed (destroyed) the sink.
    if (!this.#closed) this.sink.flush();
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

  /** A catch-up was written: the client has until it reads it, as long as it reads. */
  #caughtUp(): void {
    this.#catchUpEnd = this.#written;
    this.#checkPace();
  }

  /** Unread bytes beyond the last catch-up, given how far the client has read: how far it is behind the live events. */
  #behind(read: number): number {
    return this.#written - Math.max(read, this.#catchUpEnd);
  }

  /**
   * Closes the watcher as slow once its client is more than `maxBufferedBytes` behind the live events for
   * the grace (more than four times as many: at once), or has more unread bytes than that and read none
   * of them for STALLED_GRACES graces: a client that stopped reading holds no catch-up for ever, and one
   * that is busy starting (kube-controller-manager opens its informers all at once) is not taken for one.
   */
  #checkPace(stillGraces = 0): void {
    if (this.#closed) return;
    const { maxBufferedBytes, slowGraceMs = 2000 } = this.options;
    const read = this.#written - this.sink.bufferedBytes;
    if (this.#behind(read) > 4 * maxBufferedBytes) {
      this.close('slow');
    } else if (this.sink.bufferedBytes > maxBufferedBytes && !this.#slowCheck) {
      this.#slowCheck = setTimeout(() => {
        this.#slowCheck = undefined;
        const unread = this.sink.bufferedBytes;
        if (unread <= maxBufferedBytes) return;
        const readNow = this.#written - unread;
        // Graces in a row in which the client read nothing.
        const still = readNow === read ? stillGraces + 1 : 0;
        if (this.#behind(readNow) > maxBufferedBytes || still >= STALLED_GRACES) this.close('slow');
        else this.#checkPace(still); // still reading its catch-up: look again after another grace
      }, slowGraceMs);
      this.#slowCheck.unref();
    }
  }
}

/** Graces in a row without reading a byte after which a client with more than the bound unread is closed (30 s by default). */
export const STALLED_GRACES = 15;
