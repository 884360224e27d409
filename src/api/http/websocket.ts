import type { IncomingMessage } from 'node:http';
import { WEBSOCKET_BEARER_PROTOCOL_PREFIX } from '../auth';
import { badRequest, failure, type StatusError } from '../status';

/** RFC 6455 §4.1: the key is 16 random bytes, base64. */
const KEY = /^[+/0-9A-Za-z]{22}==$/;
/** RFC 7230 token characters, the syntax of a subprotocol name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export interface Handshake {
  /** The one subprotocol to answer with, if the client offered any besides a bearer token. */
  protocol?: string;
}

function refused(reason: 'BadRequest' | 'Forbidden' | 'MethodNotAllowed', message: string): StatusError {
  return reason === 'BadRequest' ? badRequest(message) : failure(reason, message);
}

/**
 * Checks a WebSocket upgrade as kube-apiserver's watch handler does before it switches protocols
 * (golang.org/x/net/websocket with its default origin check), so that a handshake that cannot succeed is
 * refused with a Status before anything is admitted for it:
 *
 * - the method must be GET (405); `Upgrade: websocket` and `Connection: upgrade` (400);
 * - `Sec-WebSocket-Key` must be present (400; here also well formed, since the handshake library refuses
 *   any other), `Sec-WebSocket-Version` must be 13 (400, answered with `Sec-WebSocket-Version: 13`);
 * - `Origin` must be present and a URL, else 403 as x/net's origin check answers ("null origin");
 * - subprotocols must be tokens, each offered once (400). The bearer-token subprotocol
 *   (`base64url.bearer.authorization.k8s.io.<token>`) is a credential, read by authentication and never
 *   echoed; of the others the first offered is accepted (`base64.binary.k8s.io`, `binary.k8s.io`, ...: a
 *   watch sends text frames of JSON whatever the name), as kube-apiserver echoes the one it is offered.
 *
 * @throws StatusError
 */
export function checkHandshake(req: IncomingMessage): Handshake {
  if (req.method !== 'GET') throw refused('MethodNotAllowed', 'websocket: the handshake must be a GET request');
  const upgrade = (req.headers.upgrade ?? '').toLowerCase();
  const connection = (req.headers.connection ?? '').toLowerCase().split(',').map((t) => t.trim());
  if (upgrade !== 'websocket' || !connection.includes('upgrade')) throw refused('BadRequest', 'websocket: not websocket protocol');
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY.test(key.trim())) throw refused('BadRequest', 'websocket: missing or invalid Sec-WebSocket-Key');
  if ((req.headers['sec-websocket-version'] ?? '').trim() !== '13') throw refused('BadRequest', 'websocket: missing or bad WebSocket Version');
  const origin = req.headers.origin;
  if (!origin) throw refused('Forbidden', 'websocket: null origin');
  if (!isOrigin(origin)) throw refused('Forbidden', 'websocket: invalid Origin header');
  const offered: string[] = [];
  for (const line of req.headersDistinct['sec-websocket-protocol'] ?? []) {
    for (const raw of line.split(',')) {
      const p = raw.trim();
      if (!TOKEN.test(p) || offered.includes(p)) throw refused('BadRequest', 'websocket: invalid Sec-WebSocket-Protocol header');
      offered.push(p);
    }
  }
  const protocol = offered.find((p) => !p.startsWith(WEBSOCKET_BEARER_PROTOCOL_PREFIX));
  return protocol ? { protocol } : {};
}

/** What Go's url.ParseRequestURI accepts for an Origin: an absolute URL, or an absolute path. */
function isOrigin(origin: string): boolean {
  if (/[\s\x00-\x1f\x7f]/.test(origin)) return false;
  if (origin.startsWith('/')) return true;
  try {
    return new URL(origin).protocol.length > 1;
  } catch {
    return false;
  }
}

/** The subprotocol to answer with, for the handshake library: the one {@link checkHandshake} chose. */
export function selectProtocol(offered: Set<string>): string | false {
  for (const p of offered) if (!p.startsWith(WEBSOCKET_BEARER_PROTOCOL_PREFIX)) return p;
  return false;
}
