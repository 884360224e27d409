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
