import { X509Certificate } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { DetailedPeerCertificate, TLSSocket } from 'node:tls';
import type { AuthenticationConfig } from './config';
import { bearerToken, type DistinctHeaders, identityFromHeaders, websocketBearerToken } from './headers';
import type { TokenReviewer } from './tokenreview';
import { CREDENTIAL_ID_KEY, type UserInfo, withAuthenticatedGroup } from './types';
import { certCredentialId, certSubject, type ChainVerification, verifyClientChain } from './x509';

/** How a caller proved who it is. */
export type AuthMethod = 'front-proxy' | 'client-certificate' | 'token';

/**
 * The outcome of authenticating one request: the user (with `system:authenticated`) and how it was
 * established, or every reason each method declined. A failure means 401.
 */
export type Authentication =
  | { ok: true; user: UserInfo; method: AuthMethod }
  | { ok: false; reasons: string[] };

/** What a request offers as credentials: the peer's certificate chain (leaf first) and its headers. */
export interface Credentials {
  peerCertificates: readonly X509Certificate[];
  headers: DistinctHeaders;
}

export interface AuthenticatorOptions {
  /** The configuration in force, read on every request (e.g. `() => source.current`). */
  config: () => AuthenticationConfig;
  /** Bearer-token reviews; without it tokens are not accepted. */
  tokens?: TokenReviewer;
  now?: () => Date;
}

/** Verification results for one TLS connection under one configuration. */
interface ConnectionMemo {
  config: AuthenticationConfig;
  checkedUntil: number;
  frontProxy?: ChainVerification;
  clientCert?: ChainVerification;
  /** The verified front proxy's common name, and the identity a verified client certificate names: parsed once per memo. */
  frontProxyName?: string;
  clientCertUser?: UserInfo | string;
}

/** How long a connection's certificate verification is reused before it is redone (never past a certificate's expiry). */
const CONNECTION_MEMO_MS = 60_000;

/**
 * Authenticates requests in kube's order (SPEC §6): a front-proxy certificate verified against the
 * request-header CA alone whose CN is allowed, with the identity from its X-Remote-* headers; a client
 * certificate verified against the client CA alone (CN → user, O → groups); a bearer token via
 * TokenReview. The first method that yields a user wins; X-Remote-* headers are read only in the first
 * case. Certificate verification is memoized per connection and redone when the configuration changes.
 */
export class Authenticator {
  readonly #config: () => AuthenticationConfig;
  readonly #tokens: TokenReviewer | undefined;
  readonly #now: () => Date;
  readonly #connections = new WeakMap<object, { peer: X509Certificate[]; memo?: ConnectionMemo }>();

  constructor(opts: AuthenticatorOptions) {
    this.#config = opts.config;
    this.#tokens = opts.tokens;
    this.#now = opts.now ?? (() => new Date());
  }

  /** Authenticates an HTTP(S) request; a plain-HTTP request can only use a bearer token. */
  async authenticate(req: IncomingMessage): Promise<Authentication> {
    const socket = req.socket as Partial<TLSSocket>;
    const config = this.#config();
    let conn = this.#connections.get(req.socket);
    if (!conn) {
      conn = { peer: typeof socket.getPeerCertificate === 'function' ? peerChain(socket as TLSSocket) : [] };
      this.#connections.set(req.socket, conn);
    }
    const now = this.#now();
    if (!conn.memo || conn.memo.config !== config || conn.memo.checkedUntil < now.getTime()) {
      const expiries = conn.peer.map((c) => c.validToDate.getTime());
      conn.memo = { config, checkedUntil: Math.min(now.getTime() + CONNECTION_MEMO_MS, ...expiries) };
    }
    return this.#authenticate({ peerCertificates: conn.peer, headers: req.headersDistinct }, config, now, conn.memo);
  }

  /** Authenticates the given credentials against the configuration in force (no memoization). */
  authenticateCredentials(credentials: Credentials): Promise<Authentication> {
    const now = this.#now();
    const config = this.#config();
    return this.#authenticate(credentials, config, now, { config, checkedUntil: 0 });
  }

  async #authenticate(creds: Credentials, config: AuthenticationConfig, now: Date, memo: ConnectionMemo): Promise<Authentication> {
    const reasons: string[] = [];
    const success = (user: UserInfo, method: AuthMethod): Authentication => ({ ok: true, user: withAuthenticatedGroup(user), method });
    const hasCert = creds.peerCertificates.length > 0;

    const rh = config.requestHeader;
    if (hasCert && rh) {
      memo.frontProxy ??= verifyClientChain(creds.peerCertificates, rh.ca.certs, now);
      const verified = memo.frontProxy;
      if (!verified.ok) {
        reasons.push(`front proxy: ${verified.reason}`);
      } else {
        const cn = (memo.frontProxyName ??= certSubject(verified.leaf).commonName);
        if (rh.allowedNames.length > 0 && !rh.allowedNames.includes(cn)) {
          reasons.push(`front proxy: subject with cn=${cn} is not in the allowed list`);
        } else {
          const user = identityFromHeaders(creds.headers, rh);
          if (user) return success(user, 'front-proxy');
          reasons.push('front proxy: no user name header');
        }
      }
    }

    if (hasCert && config.clientCA) {
      memo.clientCert ??= verifyClientChain(creds.peerCertificates, config.clientCA.certs, now);
      const verified = memo.clientCert;
      if (!verified.ok) {
        reasons.push(`client certificate: ${verified.reason}`);
      } else {
        const user = (memo.clientCertUser ??= userFromCertificate(verified.leaf));
        if (typeof user === 'string') reasons.push(`client certificate: ${user}`);
        else return success(copyUser(user), 'client-certificate');
      }
    }

    const ws = websocketBearerToken(creds.headers);
    const token = bearerToken(creds.headers) ?? (ws && 'token' in ws ? ws.token : undefined);
    if (ws && 'error' in ws) reasons.push(`websocket token: ${ws.error}`);
    if (token !== undefined) {
      if (!this.#tokens) {
        reasons.push('token: bearer tokens are not accepted');
      } else {
        const result = await this.#tokens.review(token);
        if (result.ok) return success(result.user, 'token');
        reasons.push(`token: ${result.reason}`);
      }
    }

    if (reasons.length === 0) reasons.push('no credentials');
    return { ok: false, reasons };
  }
}

/** A copy of `user` that shares no arrays with it (memoized identities are handed out per request). */
function copyUser(user: UserInfo): UserInfo {
  return { ...user, groups: [...user.groups], extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) };
}

/**
 * The identity of a verified client certificate, as kube's CommonNameUserConversion builds it: CN is the
 * name, each O a group, a single subject UID attribute the UID, and the certificate's SHA-256 the
 * credential id. Returns a reason string when the certificate names no usable identity.
 */
export function userFromCertificate(leaf: X509Certificate): UserInfo | string {
  const subject = certSubject(leaf);
  if (!subject.commonName) return 'certificate has no common name';
  if (subject.uids.length > 1) return `expected 1 UID, but found multiple: ${subject.uids.join(', ')}`;
  const user: UserInfo = {
    name: subject.commonName,
    groups: [...subject.organizations],
    extra: { [CREDENTIAL_ID_KEY]: [certCredentialId(leaf)] },
  };
  if (subject.uids.length === 1) {
    if (!subject.uids[0]) return 'UID cannot be an empty string';
    user.uid = subject.uids[0];
  }
  return user;
}

/**
 * The certificates a TLS peer presented, leaf first, as parsed X509Certificates. Node links each to its
 * issuer where it can (possibly ending at one of our own CAs); every link after the leaf is treated as
 * an untrusted intermediate, and trust is decided by {@link verifyClientChain} alone.
 */
export function peerChain(socket: TLSSocket): X509Certificate[] {
  const first = socket.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
  const chain: X509Certificate[] = [];
  const seen = new Set<DetailedPeerCertificate>();
  for (let c = first; c && c.raw && !seen.has(c) && chain.length < 10; c = c.issuerCertificate) {
    seen.add(c);
    try {
      chain.push(new X509Certificate(c.raw));
    } catch {
      break;
    }
  }
  return chain;
}
