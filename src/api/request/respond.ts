import type { ServerResponse } from 'node:http';
import { dump } from 'js-yaml';
import type { Negotiated } from '../negotiation';
import { toStatusError, type StatusError } from '../status';

/** JSON of each served object, computed once per object (objects in the view are immutable). */
const jsonCache = new WeakMap<object, string>();

/** The JSON text of an immutable object, shared by every response that carries it. */
export function cachedJson(obj: object): string {
  let text = jsonCache.get(obj);
  if (text === undefined) {
    text = JSON.stringify(obj);
    jsonCache.set(obj, text);
  }
  return text;
}

export function encodeBody(value: unknown, mediaType: Negotiated['mediaType'], pretty: boolean): Buffer {
  if (mediaType === 'application/yaml') return Buffer.from(dump(value, { noRefs: true, lineWidth: -1, sortKeys: false }));
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
  if (res.req && !res.req.complete) headers = { ...headers, Connection: 'close' };
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': String(body.length), 'Cache-Control': 'no-cache, private', ...headers });
  res.end(body);
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
