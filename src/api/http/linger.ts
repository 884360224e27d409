import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** How long a closing connection keeps reading (and dropping) what its client still sends. */
export const LINGER_MS = 500;

/** Connections closing after an answer given before their request body was read to its end. */
const lingering = new WeakSet<Duplex>();

/**
 * Makes `socket` close, once its answer is written, without resetting a client that is still sending
 * the body nobody read: the write side closes first (the client reads the whole answer, then end of
 * stream), and what the client still sends is read and dropped until it closes too or
 * {@link LINGER_MS} pass. Go's server does the same in spirit (it closes the write side and waits
 * 500 ms before closing; it does not read meanwhile). Closing at once with unread bytes makes the
 * kernel answer them with a reset: the client's write fails (EPIPE, ECONNRESET) and it may never read
 * the answer already sent — a 413 would reach a client sending a large body as a dropped connection.
 *
 * Nothing that arrives meanwhile is served, as on a connection closed at once: a request on it goes to
 * nobody (see {@link unlessLingering}), nor do an upgrade or a parse error ({@link isLingering}).
 */
export function lingerOnClose(socket: Socket): void {
  lingering.add(socket);
  // node:http closes a connection after its last response with destroySoon(); only this socket's changes.
  socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    this.resume();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
  };
}

/** True for a connection that is closing after an answer (see lingerOnClose): what it sends now is dropped. */
export function isLingering(socket: Duplex): boolean {
  return lingering.has(socket);
}

/** The server's request listener `listener`, except that a request on a lingering connection is read and dropped, unanswered. */
export function unlessLingering(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (lingering.has(req.socket)) req.resume();
    else listener(req, res);
  };
}
