import type { RequestHeaderConfig } from './config';
import type { UserInfo } from './types';

/**
 * Request headers as Node's `IncomingMessage.headersDistinct` gives them: lowercased names, one array
 * entry per header line (never comma-joined, so a group name containing a comma stays one group).
 */
export type DistinctHeaders = Record<string, string[] | undefined>;

/**
 * Decodes the %-escapes of an extra key as Go's `url.PathUnescape` does (`+` stays `+`); a key with a
 * malformed escape is kept as it is, so an extra is always recorded.
 */
export function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const ch = encoded[i];
    if (ch === '%') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      for (const b of Buffer.from(ch, 'utf8')) bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The first non-empty value among `names`, trying each header in order (Go's `Header.Get` per name). */
function firstValue(headers: DistinctHeaders, names: readonly string[]): string {
  for (const name of names) {
    const value = headers[name]?.[0];
    if (value) return value;
  }
  return '';
}

/**
 * The identity a trusted front proxy asserts, read as kube's request-header authenticator reads it:
 * the user from the first username header that has a value (no user → undefined: the proxy asserted
 * nobody); the UID likewise; every non-empty value of every group header, in order; and for each header
 * starting with an extra prefix, the rest of its name lowercased and %-decoded as the key, with all its
 * values. `system:authenticated` is not added here.
 *
 * Only call this for a connection whose certificate was verified against the request-header CA: on any
 * other connection these headers are the caller's own claims and must be ignored.
 */
export function identityFromHeaders(headers: DistinctHeaders, config: Pick<RequestHeaderConfig,
  'usernameHeaders' | 'uidHeaders' | 'groupHeaders' | 'extraHeaderPrefixes'>): UserInfo | undefined {
  const name = firstValue(headers, config.usernameHeaders);
  if (!name) return undefined;
  const user: UserInfo = { name, groups: [], extra: {} };
  const uid = firstValue(headers, config.uidHeaders);
  if (uid) user.uid = uid;
  for (const header of config.groupHeaders) {
    for (const value of headers[header] ?? []) if (value) user.groups.push(value);
  }
  for (const prefix of config.extraHeaderPrefixes) {
    for (const [header, values] of Object.entries(headers)) {
      if (!values || header.length < prefix.length || header.slice(0, prefix.length).toLowerCase() !== prefix) continue;
      const key = unescapeExtraKey(header.slice(prefix.length).toLowerCase());
      (user.extra[key] ??= []).push(...values);
    }
  }
  return user;
}

/**
 * The bearer token of an `Authorization: Bearer <token>` header, parsed as kube does: the scheme is
 * case-insensitive, the token is the second space-separated field; anything else yields undefined.
 */
export function bearerToken(headers: DistinctHeaders): string | undefined {
  const auth = (headers['authorization']?.[0] ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0].toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

/** Prefix of the WebSocket subprotocol that carries a base64url bearer token (browsers cannot set headers). */
export const WEBSOCKET_BEARER_PROTOCOL_PREFIX = 'base64url.bearer.authorization.k8s.io.';

/**
 * The bearer token carried in `Sec-WebSocket-Protocol` of a WebSocket upgrade, as kube's protocol
 * authenticator reads it. Returns `{token}`, nothing when there is none, or `{error}` for a malformed
 * offer (several tokens, bad encoding, or no other subprotocol to select). The server must not echo the
 * token subprotocol back in its handshake answer.
 */
export function websocketBearerToken(headers: DistinctHeaders): { token: string } | { error: string } | undefined {
  const upgrade = (headers['upgrade']?.[0] ?? '').toLowerCase();
  const connection = (headers['connection'] ?? []).join(',').toLowerCase();
  if (upgrade !== 'websocket' || !connection.split(',').some((t) => t.trim() === 'upgrade')) return undefined;
  let token: string | undefined;
  let others = 0;
  for (const line of headers['sec-websocket-protocol'] ?? []) {
    for (const raw of line.split(',')) {
      const protocol = raw.trim();
      if (!protocol.startsWith(WEBSOCKET_BEARER_PROTOCOL_PREFIX)) {
        others++;
        continue;
      }
      if (token !== undefined) return { error: 'multiple base64.bearer.authorization tokens specified' };
      const encoded = protocol.slice(WEBSOCKET_BEARER_PROTOCOL_PREFIX.length);
      if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) return { error: 'invalid base64.bearer.authorization token encoding' };
      const decoded = Buffer.from(encoded, 'base64url');
      const text = decoded.toString('utf8');
      if (!Buffer.from(text, 'utf8').equals(decoded)) return { error: 'invalid base64.bearer.authorization token' };
      token = text;
    }
  }
  if (!token) return undefined;
  if (others === 0) return { error: 'missing additional subprotocol' };
  return { token };
}
