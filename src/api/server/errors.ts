import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { sendError } from '../request/respond';
import { badRequest, isStatusError } from '../status';

/** Writes a Status as a plain HTTP response on a socket that asked to upgrade; returns its code. */
export function sendErrorToSocket(socket: Duplex, err: unknown, extraHeaders: Record<string, string> = {}): number {
  const chunks: Buffer[] = [];
  const res = {
    headersSent: false,
    writableEnded: false,
    writeHead(status: number, headers: Record<string, string>) {
      const all = { ...headers, ...extraHeaders };
      chunks.push(Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\nConnection: close\r\n\r\n`));
    },
    end(body: Buffer) {
      chunks.push(body);
      socket.end(Buffer.concat(chunks));
    },
    destroy() {
      socket.destroy();
    },
  } as unknown as ServerResponse;
  return sendError(res, err).code;
}

/**
 * Errors raised by the HTTP layer for the client's mistakes (a malformed percent-encoding in the path,
 * which the router decodes before any handler runs, or any error that carries a 4xx status) are the
 * client's: 400, never a 500.
 */
export function clientErrorOf(err: unknown) {
  if (err instanceof URIError) return badRequest(`malformed URL: ${err.message}`);
  const status = (err as { status?: unknown })?.status;
  if (!isStatusError(err) && typeof status === 'number' && status >= 400 && status < 500) return badRequest((err as Error).message);
  return undefined;
}
