import type { Change, ChangeType } from './changelog';

/** Where a watcher's bytes go: an HTTP response or a WebSocket adapter. */
export interface WatchSink {
  /** Queues bytes; returns false once the sink's own buffer is past its high-water mark. */
  write(bytes: Buffer): boolean;
  /** Bytes queued and not yet taken by the peer. */
  readonly bufferedBytes: number;
  end(): void;
  destroy(): void;
}

export interface WatcherOptions<T> {
  /** Row name, the identity that ADDED/MODIFIED/DELETED refer to. */
  nameOf(object: T): string;
  /** Whether this caller, with this request's selectors, sees the object now. Evaluated at delivery. */
  visible(object: T): boolean;
  /** The bytes of one event in this watcher's form; shared with every watcher of the same form. */
  encode(change: Change<T>, type: ChangeType, object: T): Buffer;
  /**
   * Past this many unread bytes for longer than `slowGraceMs` the watcher is closed as too slow; past four
   * times as many it is closed at once. A burst (the initial events, a tenant change that rewrites every
   * row) may pass the bound briefly; a client that keeps up brings it back within the grace.
   */
  maxBufferedBytes: number;
  /** Default 2 s. */
  slowGraceMs?: number;
  /** Called once when the watcher closes, with why. */
  onClose(reason: 'slow' | 'done' | 'client'): void;
}

/**
 * One open watch. It remembers which rows it has told its client about, so the type of each event is
 * what that client must see: a row that becomes visible (ownership granted, now matches the selector)
 * arrives as ADDED, one that stops being visible as DELETED, whatever the change was in the view.
 *
 * Invariant: the client's picture of the view equals {rows announced by ADDED/MODIFIED} minus
 * {rows announced by DELETED}, and after each delivered change it equals the visible subset of the view.
 */
export class Watcher<T> {
  readonly #sent = new Set<string>();
  #closed = false;
  #slowCheck: NodeJS.Timeout | undefined;

  constructor(readonly sink: WatchSink, readonly options: WatcherOptions<T>) {}

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends the initial state: an ADDED for each object (already filtered for visibility). */
  sendInitial(change: (object: T) => Change<T>, objects: Iterable<T>): void {
    for (const object of objects) {
      if (this.#closed) return;
      this.#sent.add(this.options.nameOf(object));
      this.#write(this.options.encode(change(object), 'ADDED', object));
    }
  }

  /** Remembers rows the client already knows (it resumed from a resourceVersion after listing them). */
  assumeKnown(objects: Iterable<T>): void {
    for (const object of objects) this.#sent.add(this.options.nameOf(object));
  }

  deliver(change: Change<T>): void {
    if (this.#closed) return;
    const name = this.options.nameOf(change.object);
    const known = this.#sent.has(name);
    const visibleNow = change.type !== 'DELETED' && this.options.visible(change.object);
    let type: ChangeType;
    if (visibleNow) {
      type = known ? 'MODIFIED' : 'ADDED';
      this.#sent.add(name);
    } else if (known) {
      type = 'DELETED';
      this.#sent.delete(name);
    } else {
      return;
    }
    this.#write(this.options.encode(change, type, change.object));
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

  #write(bytes: Buffer): void {
    this.sink.write(bytes);
    const { maxBufferedBytes, slowGraceMs = 2000 } = this.options;
    const buffered = this.sink.bufferedBytes;
    if (buffered > 4 * maxBufferedBytes) {
      this.close('slow');
    } else if (buffered > maxBufferedBytes && !this.#slowCheck) {
      this.#slowCheck = setTimeout(() => {
        this.#slowCheck = undefined;
        if (this.sink.bufferedBytes > maxBufferedBytes) this.close('slow');
      }, slowGraceMs);
      this.#slowCheck.unref();
    }
  }
}
