import type { Socket } from 'node:net';

/** How long a closing connection keeps reading (and dropping) what its client still sends. */
export const LINGER_MS = 500;

/**
 * Makes `socket` close, once its answer is written, the way Go's server closes a connection whose
 * request body it did not read to the end: the write side first (the client reads the whole answer,
 * then end of stream), and what the client still sends is read and dropped until it closes too or
 * {@link LINGER_MS} pass. Closing at once with unread bytes makes the kernel answer them with a reset:
 * the client's write fails (EPIPE, ECONNRESET) and it may never read the answer already sent — a 413
 * would reach a client sending a large body as a dropped connection.
 */
export function lingerOnClose(socket: Socket): void {
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
