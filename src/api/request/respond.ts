import type { ServerResponse } from 'node:http';
import { dump } from 'js-yaml';
import type { Negotiated } from '../negotiation';
import { listChunks } from '../encoding/chunk-pool';
import { lingerOnClose } from '../http/linger';
import { toStatusError, type StatusError } from '../status';

export function encodeBody(value: unknown, mediaType: Negotiated['mediaType'], pretty: boolean): Buffer {
  // YAML of exactly what JSON writes: js-yaml does not call toJSON (flat records), JSON.stringify does.
  if (mediaType === 'application/yaml') return Buffer.from(dump(JSON.parse(JSON.stringify(value)), { noRefs: true, lineWidth: -1, sortKeys: false }));
  return Buffer.from(pretty ? JSON.stringify(value, null, 2) + '\n' : JSON.stringify(value));
}

/**
 * Writes one whole response. A response that already ended (a deadline answered first) stays as it was;
 * one already under way cannot take a second head and is cut. When the request body was not read to its
 * end (refused for size or time, or never needed), the connection closes after this answer, as Go's
 * server does, so the unread rest is never parsed as a next request and never holds the connection.
 */
export function send(res: ServerResponse, status: number, contentType: string, body: Buffer, headers: Record<string, string> = {}): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (closesUnread(res)) headers = { ...headers, Connection: 'close' };
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(body.length), 'Cache-Control': 'no-cache, private', ...headers });
  res.end(body);
}

/**
 * True when the request's body was not read to its end: its connection then closes after this answer,
 * lingering (see lingerOnClose) so that the client can finish sending and read the answer.
 */
function closesUnread(res: ServerResponse): boolean {
  if (!res.req || res.req.complete) return false;
  lingerOnClose(res.req.socket);
  return true;
}

/** How much of a streamed body is gathered before it is written: one write per chunk. */
export const CHUNK_BYTES = 64 * 1024;

/**
 * How much of a streamed body may wait in the connection before the writer waits for it to drain. Each
 * wait is a turn of the event loop, and every turn may give reconciles their slice (controller/
 * event-loop-slice.ts): waiting at every 64 KiB made a 6 MB list take 95 turns, and during a resync
 * 95 slices of 5 ms. At 1 MiB it takes 6 or 7.
 */
export const STREAM_HIGH_WATER = 1024 * 1024;

/**
 * Writes a response whose body comes in pieces (see serving/render.ts), gathered into chunks of about
 * {@link CHUNK_BYTES}, written while the connection holds less than {@link STREAM_HIGH_WATER} of them
 * (backpressure): the whole body is never held at once. A body that fits in one chunk, and any answer to HEAD, is sent as
 * {@link send} sends it (with Content-Length); a longer one goes out chunked. When the response ends
 * early (the client left, a deadline answered), the rest of the body is never made.
 *
 * Every Buffer of the body is offered back to listChunks once the connection has written it (the pool
 * takes back only the chunks it lent, see chunk-pool.ts); one whose write failed is left to the collector.
 */
export async function sendStream(res: ServerResponse, status: number, contentType: string, body: Iterable<string | Buffer>): Promise<void> {
  const chunks = chunked(body);
  const first = chunks.next();
  if (first.done) {
    send(res, status, contentType, Buffer.alloc(0));
    return;
  }
  const second = res.req?.method === 'HEAD' ? undefined : chunks.next();
  if (!second || second.done) {
    const all = [first.value, ...chunks].map((c) => (typeof c === 'string' ? Buffer.from(c) : c));
    const body = all.length === 1 ? all[0] : Buffer.concat(all);
    // 'finish' comes once the connection has written the last of the response (never, if it fails).
    if (body === first.value) res.once('finish', () => listChunks.give(body));
    send(res, status, contentType, body);
    return;
  }
  if (res.writableEnded) return;
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { 'Content-Type': contentType, 'Cache-Control': 'no-cache, private' };
  if (closesUnread(res)) headers.Connection = 'close';
  res.writeHead(status, headers);
  const write = async (chunk: string | Buffer): Promise<boolean> => {
    if (res.destroyed || res.writableEnded) return false;
    // The wait is decided right after the write (no drain can come in between): when it waits, the
    // connection's buffer is full (write returned false) and its 'drain' is still to come.
    if (!res.write(chunk, typeof chunk === 'string' ? undefined : givenBackOnceWritten(chunk)) && res.writableLength >= STREAM_HIGH_WATER) await drained(res);
    return true;
  };
  if ((await write(first.value)) && (await write(second.value))) {
    for (const chunk of chunks) if (!(await write(chunk))) break;
  }
  if (!res.destroyed && !res.writableEnded) res.end();
}

/** A write's callback: `chunk` goes back to its pool when the write succeeded (the connection no longer reads it). */
function givenBackOnceWritten(chunk: Buffer): (error?: Error | null) => void {
  return (error) => {
    if (!error) listChunks.give(chunk);
  };
}

/** Resolves when `res` may take more (drain) or will take nothing more (close). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * The pieces of a body gathered into chunks of about CHUNK_BYTES. Text stays text: the socket encodes it
 * as UTF-8 straight into what it sends, with no Buffer of its own (measurably less work per list).
 */
function* chunked(body: Iterable<string | Buffer>): Generator<string | Buffer, void, undefined> {
  let text = '';
  for (const piece of body) {
    if (typeof piece === 'string') {
      text += piece;
      if (text.length >= CHUNK_BYTES) {
        yield text;
        text = '';
      }
    } else {
      if (text) yield text;
      text = '';
      if (piece.length) yield piece;
    }
  }
  if (text) yield text;
}

export function sendValue(res: ServerResponse, status: number, value: unknown, negotiated: Pick<Negotiated, 'mediaType' | 'contentType'>, pretty = false): void {
  send(res, status, negotiated.contentType, encodeBody(value, negotiated.mediaType, pretty));
}

/** Renders any error as a Kubernetes Status; a 429 or a 503 also gets its Retry-After header. */
export function sendError(res: ServerResponse, err: unknown, mediaType: Negotiated['mediaType'] = 'application/json'): StatusError {
  const status = toStatusError(err);
  const headers: Record<string, string> = {};
  if (status.retryAfter) headers['Retry-After'] = status.retryAfter;
  const contentType = mediaType === 'application/yaml' ? 'application/yaml' : 'application/json';
  send(res, status.code, contentType, mediaType === 'application/yaml' ? encodeBody(status.status, mediaType, false) : Buffer.from(status.body), headers);
  return status;
}
