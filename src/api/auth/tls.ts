import type { ServerOptions } from 'node:https';
import type { SecureContextOptions, Server } from 'node:tls';
import type { AuthConfigSource, AuthenticationConfig } from './config';

/** The server's own certificate chain and key, PEM. */
export interface ServingCertificate {
  cert: string | Buffer;
  key: string | Buffer;
}

/**
 * The TLS context for the current configuration: our serving certificate, and both client CAs so that
 * the handshake asks for (and clients pick) a certificate of either. OpenSSL's own verification against
 * this merged list decides nothing: {@link Authenticator} verifies each CA separately per request.
 */
export function secureContextOptions(config: AuthenticationConfig, serving: ServingCertificate): SecureContextOptions {
  const ca = [config.clientCA?.pem, config.requestHeader?.ca.pem].filter((p): p is string => !!p);
  return { cert: serving.cert, key: serving.key, ...(ca.length ? { ca } : {}) };
}

/**
 * Options for `https.createServer`: a client certificate is requested but never required (callers may use
 * tokens or nothing and get a 401 from the handler), TLS 1.2 at least.
 */
export function tlsServerOptions(config: AuthenticationConfig, serving: ServingCertificate): ServerOptions {
  return { ...secureContextOptions(config, serving), requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' };
}

/**
 * Installs a new TLS context on `server` whenever the authentication configuration changes, so new
 * connections are offered the current CA list; established connections keep theirs, which is harmless
 * because trust is decided per request. `serving` is read at each change (it may itself rotate). Returns
 * the unsubscribe function.
 */
export function reloadTlsOnChange(server: Server, source: AuthConfigSource, serving: () => ServingCertificate): () => void {
  return source.onChange((config) => server.setSecureContext(secureContextOptions(config, serving())));
}

/**
 * Re-reads the serving certificate every `intervalMs` and installs a new TLS context when it changed, so
 * a rotated certificate (files rewritten in place, or a Secret volume's symlink swapped) is served on
 * new connections without a restart; established connections keep theirs. A pair read mid-rotation
 * (certificate and key that do not match yet) is skipped and tried again at the next tick. Returns the
 * stop function.
 */
export function reloadServingCertificate(server: Server, source: AuthConfigSource, serving: () => ServingCertificate,
  opts: { intervalMs?: number; onError?: (err: unknown) => void } = {}): () => void {
  const same = (a: string | Buffer, b: string | Buffer) => Buffer.from(a).equals(Buffer.from(b));
  let current: ServingCertificate | undefined;
  try {
    current = serving();
  } catch {
    current = undefined;
  }
  let failing = false;
  const timer = setInterval(() => {
    let next: ServingCertificate;
    try {
      next = serving();
      if (current && same(next.cert, current.cert) && same(next.key, current.key)) return;
      server.setSecureContext(secureContextOptions(source.current, next));
    } catch (err) {
      if (!failing) opts.onError?.(err);
      failing = true;
      return;
    }
    failing = false;
    current = next;
  }, opts.intervalMs ?? 2000);
  timer.unref();
  return () => clearInterval(timer);
}
