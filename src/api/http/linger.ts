import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** A closing connection keeps reading (and dropping) what its client still sends while it keeps coming, this long apart at most… */
export const LINGER_IDLE_MS = 500;
/** …and for this long in all. */
export const LINGER_MAX_MS = 5_000;

/** Connections closing after an answer given before their request body was read to its end. */
const lingering = new WeakSet<Duplex>();

/**
 * Makes `socket` close, once its answer is written, without resetting a client that is still sending
 * the body nobody read: the write side closes first (the client reads the whole answer, then end of
 * stream), and what the client still sends is read and dropped until it closes too, stops sending
 * for {@link LINGER_IDLE_MS}, or {@link LINGER_MAX_MS} pass. Go's server does the same in spirit (it
 * closes the write side and waits 500 ms before closing; it does not read meanwhile); a client still
 * sending a large body from a busy machine gets the time its bytes take, within the bound. Closing at
 * once with unread bytes makes the kernel answer them with a reset: the client's write fails (EPIPE, ECONNRESET) and it may never read
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
    const close = (): void => void this.destroy();
    // Progress is read off the byte count: node:http's parser may read the socket itself, without 'data' events.
    let read = this.bytesRead;
    const idle = setInterval(() => {
      if (this.bytesRead === read) close();
      read = this.bytesRead;
    }, LINGER_IDLE_MS).unref();
    const cap = setTimeout(close, LINGER_MAX_MS).unref();
    this.once('end', close);
    this.once('close', () => {
      clearInterval(idle);
      clearTimeout(cap);
    });
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
