import { finished, type Readable } from 'node:stream';
import type { WatchEvent } from './types';
import { LineSplitter, parseWatchLine } from './watch-lines';

/**
 * Parsed events, and the bytes of their lines, held unread past which the body is paused until the
 * reader has taken them all: what a watch holds beyond the response's own buffer is bounded by these,
 * plus one chunk and one line (a line's own bound is LineSplitter's).
 */
const READ_AHEAD_EVENTS = 1024;
const READ_AHEAD_BYTES = 4 * 1024 * 1024;

export interface WatchEventsOptions {
  /** Bound on one line (see LineSplitter). */
  maxLineBytes?: number;
  /** Once this has aborted, the stream's failure (the abort it caused) is its end: the reader is done. */
  signal?: AbortSignal;
  /** Called once, when the stream is over: ended, failed, or left by its reader. */
  onOver?: () => void;
}

/**
 * The watch events of a response body, parsed as its chunks arrive and handed to one reader in order.
 * Each chunk is split and parsed in its own 'data' event, and a reader waiting for an event is resumed
 * by the chunk that completes it: one promise per event read. (A Readable's async iterator, a line
 * generator and a parsing generator in a chain cost a promise and a generator resumption each, on every
 * event every cache receives, before the event reaches the cache.)
 *
 * One reader, one read at a time (as `for await` reads): a second `next` while one waits is refused.
 * The events parsed before a failure are read first; then `next` rejects with it — the body's error, a
 * premature close, an over-long line, a line that is not an event (the body is destroyed) — unless
 * `signal` aborted, which ends the stream. `return` (a reader that stops) destroys the body.
 */
export class WatchEvents<T> implements AsyncIterableIterator<WatchEvent<T>> {
  readonly #body: Readable;
  readonly #options: WatchEventsOptions;
  readonly #splitter: LineSplitter;
  /** Parsed and not yet read, oldest first. */
  #queue: WatchEvent<T>[] = [];
  #read = 0;
  /** The bytes of the lines of the events in #queue (read or not). */
  #queuedBytes = 0;
  #failure: { error: unknown } | undefined;
  #ended = false;
  #over = false;
  #waiting: { resolve: (r: IteratorResult<WatchEvent<T>>) => void; reject: (err: unknown) => void } | undefined;

  constructor(body: Readable, options: WatchEventsOptions = {}) {
    this.#body = body;
    this.#options = options;
    this.#splitter = new LineSplitter(options.maxLineBytes);
    const onLine = (line: Buffer): void => {
      this.#queue.push(parseWatchLine<T>(line));
      this.#queuedBytes += line.length;
    };
    body.on('data', (chunk: Buffer | string) => {
      // A destroyed body still emits what it had buffered: nothing after a failure (or the reader's
      // leaving) is an event of this watch, as the events after a bad line are not.
      if (this.#failure || this.#ended) return;
      try {
        this.#splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, onLine);
      } catch (err) {
        this.#fail(err);
        body.destroy();
        return;
      }
      if (this.#queue.length - this.#read >= READ_AHEAD_EVENTS || this.#queuedBytes >= READ_AHEAD_BYTES) body.pause();
      this.#wake();
    });
    finished(body, (err) => {
      if (err) return this.#fail(err);
      try {
        this.#splitter.end(onLine);
      } catch (error) {
        return this.#fail(error);
      }
      this.#ended = true;
      this.#wake();
    });
  }

  next(): Promise<IteratorResult<WatchEvent<T>>> {
    if (this.#waiting) return Promise.reject(new Error('a watch has one reader, reading one event at a time'));
    const event = this.#take();
    if (event) return Promise.resolve({ value: event, done: false });
    if (this.#failure || this.#ended) return this.#finish();
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  return(): Promise<IteratorResult<WatchEvent<T>>> {
    this.#ended = true;
    this.#failure = undefined;
    this.#queue = [];
    this.#read = 0;
    this.#queuedBytes = 0;
    this.#body.destroy();
    const waiting = this.#waiting;
    this.#waiting = undefined;
    const done = this.#finish();
    if (waiting) void done.then(waiting.resolve, waiting.reject);
    return done;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The oldest unread event, if any; resumes a paused body once all are read. */
  #take(): WatchEvent<T> | undefined {
    if (this.#read === this.#queue.length) return undefined;
    const event = this.#queue[this.#read++]!;
    if (this.#read === this.#queue.length) {
      this.#queue = [];
      this.#read = 0;
      this.#queuedBytes = 0;
      if (this.#body.isPaused() && !this.#body.destroyed) this.#body.resume();
    }
    return event;
  }

  /** Hands the waiting reader its next event, or the end. */
  #wake(): void {
    const waiting = this.#waiting;
    if (!waiting) return;
    const event = this.#take();
    if (event) {
      this.#waiting = undefined;
      waiting.resolve({ value: event, done: false });
    } else if (this.#failure || this.#ended) {
      this.#waiting = undefined;
      this.#finish().then(waiting.resolve, waiting.reject);
    }
  }

  #fail(error: unknown): void {
    if (this.#failure || this.#ended) return;
    this.#failure = { error };
    this.#wake();
  }

  /** The end, once every event before it was read: done, or the failure (done when the signal aborted). */
  #finish(): Promise<IteratorResult<WatchEvent<T>>> {
    const failure = this.#failure;
    this.#failure = undefined;
    this.#ended = true;
    if (!this.#over) {
      this.#over = true;
      this.#options.onOver?.();
    }
    if (failure && !this.#options.signal?.aborted) return Promise.reject(failure.error);
    return Promise.resolve({ value: undefined, done: true });
  }
}
