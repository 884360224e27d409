import type { Duplex } from 'node:stream';
import { isLingering } from './linger';

/**
 * The answer to a request the HTTP parser refused before any handler saw it, as Go's net/http (and so
 * kube-apiserver) answers: a status line, a short plain-text body naming the status, and the connection
 * closed. Header fields past the size limit are 431; a request that did not arrive in time is 408; every
 * other framing error (bad request line, method, Content-Length, Transfer-Encoding, control characters)
 * is 400. Go answers an unknown Transfer-Encoding with 501; here it is a 400 like the other malformed
 * framings, since nothing about it is the server's fault.
 */
export function clientErrorResponse(code: string | undefined): Buffer | undefined {
  if (code === 'ECONNRESET' || code === 'EPIPE') return undefined; // nobody left to answer
  const status =
    code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large'
      : code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT' ? '408 Request Timeout'
        : '400 Bad Request';
  return Buffer.from(`HTTP/1.1 ${status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${status.length}\r\nConnection: close\r\n\r\n${status}`);
}

/** The server's `clientError` listener: answer when the connection can still carry an answer, then close. */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  // Bytes after a refused body, on a connection closing already: nobody is answered, the linger ends it.
  if (isLingering(socket)) return;
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  const answer = clientErrorResponse(err.code);
  if (!answer || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(answer);
  // A peer that never reads the answer must not keep the socket open.
  setTimeout(() => socket.destroy(), 5000).unref();
}

/**
 * The server's `connect` listener. Node closes a CONNECT request's connection unanswered when nobody
 * listens; this server tunnels nothing, so the method is refused with a 405 Status, then the connection
 * closes.
 */
export function answerConnect(_req: unknown, socket: Duplex): void {
  const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server does not allow this method on the requested resource', reason: 'MethodNotAllowed', details: {}, code: 405 });
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(`HTTP/1.1 405 Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 5000).unref();
}
