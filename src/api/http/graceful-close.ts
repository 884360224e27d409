import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';

/**
 * The responses of a server that are not yet delivered. A response counts until it has been handed to the
 * operating system whole ('finish') or its connection is gone ('close') — not merely until it has ended:
 * the bytes of an ended response can still wait in the socket for a slow peer.
 */
export class UndeliveredResponses {
  readonly #open = new Set<ServerResponse>();
  readonly #waiters = new Set<() => void>();

  constructor(server: HttpServer) {
    server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
      this.#open.add(res);
      const done = (): void => {
        if (!this.#open.delete(res) || this.#open.size > 0) return;
        for (const wake of this.#waiters) wake();
        this.#waiters.clear();
      };
      res.once('finish', done).once('close', done);
    });
  }

  get size(): number {
    return this.#open.size;
  }

  /** Resolves once no response is undelivered. */
  drained(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.add(resolve));
  }
}

/**
 * Closes `server` without cutting a response short: stops accepting connections, waits until every
 * response under way has been delivered, then closes the connections (idle ones at once, the rest at the
 * deadline). Resolves once every connection has closed, or after `graceMs`.
 *
 * Node's own `http.Server#close` (and `closeIdleConnections`) destroys every connection whose current
 * response has *ended*, including one whose last bytes are still queued for a slow peer: the peer reads a
 * truncated body. For a watch that is a stream without its final chunk, which kube-apiserver's proxy reports
 * as "unexpected EOF" and client-go answers with a relist. The caller must stop new requests from starting
 * responses meanwhile (a closing server drops them: see ApiServer.close).
 */
export async function closeGracefully(server: HttpServer, responses: UndeliveredResponses, graceMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  // net.Server's close only stops the listener; connections are left to what follows.
  const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
  await Promise.race([responses.drained(), deadline]);
  // Every connection still open is idle now, or holds a response the deadline gave up on. http's close
  // closes the idle ones (and stops its connection checks); the listener is already closed.
  server.close();
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  await Promise.race([closed, deadline]);
  clearInterval(idle);
  clearTimeout(timer);
  server.closeAllConnections();
}
