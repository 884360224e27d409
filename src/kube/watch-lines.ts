import type { WatchEvent, WatchEventType } from './types';

/** Default bound on one watch line: a single object larger than this ends the stream with an error. */
export const DEFAULT_MAX_WATCH_LINE_BYTES = 128 * 1024 * 1024;

const NEWLINE = 0x0a;
const EVENT_TYPES: ReadonlySet<string> = new Set<WatchEventType>(['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK', 'ERROR']);

/** Thrown when a watch line exceeds its bound. */
export class WatchLineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`watch line exceeds ${limit} bytes`);
    this.name = 'WatchLineTooLongError';
  }
}

/**
 * Splits a byte stream into newline-terminated lines, chunk by chunk, synchronously. A line may span any
 * number of chunks: the pieces are kept as a list and joined once (never re-concatenated per chunk), so
 * a very large line costs O(its size). Blank lines are skipped; `end` gives a trailing line that has no
 * newline.
 */
export class LineSplitter {
  #pending: Buffer[] = [];
  #pendingBytes = 0;

  constructor(readonly maxLineBytes = DEFAULT_MAX_WATCH_LINE_BYTES) {}

  /** Calls `line` with each line `chunk` completes, in order; throws WatchLineTooLongError past the bound. */
  push(chunk: Buffer, line: (bytes: Buffer) => void): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.#pendingBytes + piece.length > this.maxLineBytes) throw new WatchLineTooLongError(this.maxLineBytes);
      const whole = this.#pending.length === 0 ? piece : Buffer.concat([...this.#pending, piece], this.#pendingBytes + piece.length);
      this.#pending = [];
      this.#pendingBytes = 0;
      if (!isBlank(whole)) line(whole);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.#pendingBytes += rest.length;
      if (this.#pendingBytes > this.maxLineBytes) throw new WatchLineTooLongError(this.maxLineBytes);
      this.#pending.push(rest);
    }
  }

  /** The stream ended: calls `line` with what followed the last newline, unless blank. */
  end(line: (bytes: Buffer) => void): void {
    if (this.#pendingBytes === 0) return;
    const whole = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#pending = [];
    this.#pendingBytes = 0;
    if (!isBlank(whole)) line(whole);
  }
}

/** Parses one line of a watch stream; throws on anything that is not a `{type, object}` event. */
export function parseWatchLine<T>(line: Buffer | string): WatchEvent<T> {
  const text = typeof line === 'string' ? line : line.toString('utf8');
  const ev = JSON.parse(text) as { type?: unknown; object?: unknown };
  if (typeof ev !== 'object' || ev === null || typeof ev.type !== 'string' || !EVENT_TYPES.has(ev.type)
    || typeof ev.object !== 'object' || ev.object === null) {
    throw new Error(`malformed watch event: ${text.slice(0, 200)}`);
  }
  return ev as WatchEvent<T>;
}

function isBlank(line: Buffer): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x0d && b !== 0x09) return false;
  return true;
}
