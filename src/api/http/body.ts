import type { IncomingMessage } from 'node:http';
import { apiRejected } from '../../metrics/api';
import { negotiateInput } from '../negotiation';
import { clientTimeout, requestEntityTooLarge } from '../status';
import { decodeBody, DEFAULT_DECODE_LIMITS, type DecodeLimits } from './decode';

/** How much of a request body the server reads, for how long, and what it may decode into. */
export interface BodyLimits {
  /** Largest body accepted (413 past it). */
  maxBytes: number;
  /** The whole body must arrive within this time from when the server starts reading it (408 past it). */
  timeoutMs: number;
  decode?: DecodeLimits;
}

/** The Status of a body that did not arrive in time: 408, reason Timeout (the client's doing, so a 4xx). */
export function bodyTimeout(timeoutMs: number) {
  return clientTimeout(`the request body was not received within ${timeoutMs / 1000}s`);
}

/**
 * Reads a request body within `limits` and decodes it as JSON or YAML (by Content-Type): 413 past the
 * size, 408 Timeout when it stalls, 415 for another media type, 400 when it cannot be decoded. Call it
 * only after the caller is authenticated and authorized, so that nobody unknown holds a request slot while
 * trickling a body in. A body the server stops reading early leaves its connection to be closed once the
 * answer is written (see `send`), so the unread rest is never taken as the next request.
 */
export async function readBody(req: IncomingMessage, limits: BodyLimits): Promise<unknown> {
  const length = Number(req.headers['content-length'] ?? 0);
  if (length > limits.maxBytes) {
    apiRejected.inc({ reason: 'body-size' });
    throw requestEntityTooLarge(limits.maxBytes);
  }
  const text = await receive(req, limits);
  if (text === undefined) return undefined;
  const mediaType = negotiateInput(req.headers['content-type']);
  return decodeBody(text, mediaType, limits.decode ?? DEFAULT_DECODE_LIMITS);
}

function receive(req: IncomingMessage, limits: BodyLimits): Promise<string | undefined> {
  if (req.readableEnded) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (err: unknown, value?: string) => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) {
        req.pause();
        reject(err);
      } else {
        resolve(value);
      }
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        apiRejected.inc({ reason: 'body-size' });
        done(requestEntityTooLarge(limits.maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(undefined, size === 0 ? undefined : Buffer.concat(chunks).toString('utf8'));
    const onError = (err: Error) => done(err);
    const onClose = () => {
      if (!req.complete) done(new Error('the client closed the connection before sending the whole body'));
    };
    const timer = setTimeout(() => {
      apiRejected.inc({ reason: 'body-timeout' });
      done(bodyTimeout(limits.timeoutMs));
    }, limits.timeoutMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
