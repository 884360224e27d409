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
 * Splits a byte stream into newline-terminated lines. A line may span any number of chunks: the pieces
 * are kept as a list and joined once (never re-concatenated per chunk), so a very large line costs
 * O(its size). Blank lines are skipped; a trailing line without a newline is yielded at the end.
 */
export async function* splitLines(chunks: AsyncIterable<Buffer | string>, maxLineBytes = DEFAULT_MAX_WATCH_LINE_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? Buffer.from(raw) : raw;
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE, start); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (pendingBytes + piece.length > maxLineBytes) throw new WatchLineTooLongError(maxLineBytes);
      const line = pending.length === 0 ? piece : Buffer.concat([...pending, piece], pendingBytes + piece.length);
      pending = [];
      pendingBytes = 0;
      if (!isBlank(line)) yield line;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw new WatchLineTooLongError(maxLineBytes);
      pending.push(rest);
    }
  }
  if (pendingBytes > 0) {
    const line = Buffer.concat(pending, pendingBytes);
    if (!isBlank(line)) yield line;
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

/** The watch events of a line-delimited JSON stream, in order. */
export async function* parseWatchStream<T>(chunks: AsyncIterable<Buffer | string>, maxLineBytes?: number): AsyncGenerator<WatchEvent<T>> {
  for await (const line of splitLines(chunks, maxLineBytes)) yield parseWatchLine<T>(line);
}

function isBlank(line: Buffer): boolean {
  for (const b of line) if (b !== 0x20 && b !== 0x0d && b !== 0x09) return false;
  return true;
}
