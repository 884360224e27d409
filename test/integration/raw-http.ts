import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import type { CertFiles } from '../controlplane/pki';
import { controlPlane } from './env';

/** One answer read off a raw TLS connection. */
export interface RawAnswer {
  /** The status code of the first response; 0 when none arrived. */
  status: number;
  /** Its header block, lowercased names. */
  headers: Record<string, string>;
  body: string;
  /** Every byte received on the connection. */
  bytes: number;
  /** The server closed the connection. */
  closed: boolean;
  /** Nothing arrived within the time allowed. */
  timedOut: boolean;
  error?: string;
}

export interface RawOptions {
  cert?: CertFiles;
  /** Give up waiting after this long (the answer then has `timedOut`). */
  timeoutMs?: number;
  /** Stop reading past this many bytes. */
  maxBytes?: number;
  /** Also wait for the server to close the connection after the answer. */
  waitForClose?: boolean;
}

/** Parses the first complete response in `buf`, or undefined while it is incomplete. */
function parseFirst(buf: Buffer): { status: number; headers: Record<string, string>; body: string } | undefined {
  // Informational answers (100 Continue) precede the one that counts.
  while (/^HTTP\/1\.[01] 1(?!01)\d\d/.test(buf.subarray(0, 16).toString('latin1'))) {
    const at = buf.indexOf('\r\n\r\n');
    if (at < 0) return undefined;
    buf = buf.subarray(at + 4);
  }
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = buf.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0] ?? '')?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of head.slice(1)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const rest = buf.subarray(end + 4);
  if (headers['content-length'] !== undefined) {
    const n = Number(headers['content-length']);
    if (rest.length < n) return undefined;
    return { status, headers, body: rest.subarray(0, n).toString('utf8') };
  }
  if ((headers['transfer-encoding'] ?? '').includes('chunked')) {
    if (!rest.includes('0\r\n\r\n')) return undefined;
    return { status, headers, body: rest.toString('utf8') };
  }
  if (status === 101) return { status, headers, body: '' };
  return undefined; // read to close
}

/**
 * Writes `payload` (pieces written in order) on a new TLS connection to a Paddock replica and reads the
 * answer: resolves once one whole response arrived (and, with `waitForClose`, the connection closed), the
 * connection closed, or the time ran out. Never rejects.
 */
export function rawRequest(port: number, payload: (string | Buffer)[] | string | Buffer, opts: RawOptions = {}): Promise<RawAnswer> {
  const { pki } = controlPlane();
  const pieces = Array.isArray(payload) ? payload : [payload];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let parsed: ReturnType<typeof parseFirst>;
    const socket = connect({
      host: '127.0.0.1', port, servername: 'localhost', ca: readFileSync(pki.ca.cert),
      ...(opts.cert ? { cert: readFileSync(opts.cert.cert), key: readFileSync(opts.cert.key) } : {}),
    });
    const finish = (closed: boolean, timedOut: boolean, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const p = parsed ?? parseFirst(all) ?? (() => {
        const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(all.subarray(0, 64).toString('latin1'))?.[1] ?? 0);
        const at = all.indexOf('\r\n\r\n');
        return { status, headers: {}, body: at >= 0 ? all.subarray(at + 4).toString('utf8') : '' };
      })();
      socket.destroy();
      resolve({ ...p, bytes: size, closed, timedOut, ...(error ? { error } : {}) });
    };
    const timer = setTimeout(() => finish(false, true), opts.timeoutMs ?? 10_000);
    socket.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= (opts.maxBytes ?? 2 << 20)) chunks.push(c);
      else return finish(false, false, 'answer too large');
      parsed ??= parseFirst(Buffer.concat(chunks));
      if (parsed && !opts.waitForClose) finish(false, false);
    });
    socket.on('end', () => finish(true, false));
    socket.on('close', () => finish(true, false));
    socket.on('error', (err) => finish(true, false, err.message));
    socket.once('secureConnect', () => {
      for (const p of pieces) socket.write(p);
    });
  });
}
