import type { Logger } from '../../log/logger';
import type { AuthConfigSource, Authenticator, Authorizer, ServingCertificate } from '../auth';
import type { DiscoveryDocuments } from '../discovery';
import type { BodyLimits } from '../http/body';
import type { OpenAPIDocuments } from '../openapi';
import type { AnyServedResource } from '../registration/served-resource';
import type { WatchHub } from '../watch/hub';

export interface ApiServerLimits {
  maxRequestsInflight: number;
  maxWatchersPerUser: number;
  maxBodyBytes: number;
  /** Overall deadline of a non-watch request (504 past it); default 60 s as kube-apiserver. */
  requestTimeoutMs?: number;
  /** Deadline for a request body once reading starts (408 past it); default 30 s. */
  requestBodyTimeoutMs?: number;
  /** Deadline for request headers (408); default 32 s as kube-apiserver's ReadHeaderTimeout. */
  headerTimeoutMs?: number;
  /** Idle keep-alive connections close after this; default 90 s as kube-apiserver's IdleTimeout. */
  idleTimeoutMs?: number;
}

/** A served resource and the hub that serves its watches. */
export interface Served {
  resource: AnyServedResource;
  hub: WatchHub<any>;
}

/** What the server is built from: its options and every registration it serves. */
export interface ApiServerConfig {
  /** Every resource of the group version, each one registration (see registration/served-resource.ts). */
  served: readonly Served[];
  authSource: AuthConfigSource;
  authenticator: Authenticator;
  authorizer: Authorizer;
  discovery: DiscoveryDocuments;
  openapi: OpenAPIDocuments;
  serving: () => ServingCertificate;
  /** True once every cache has synced (readyz). */
  ready: () => boolean;
  limits: ApiServerLimits;
  log: Logger;
}

/** The timeouts of the HTTPS server itself, every default filled in. */
export interface ConnectionTimeouts {
  headersTimeout: number;
  /** Node's own bound on receiving a whole request: a backstop behind the handlers' deadlines. */
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
}

/**
 * A config with every default filled in, made only by {@link complete}: the one thing the server is
 * built from (as k8s.io/apiserver's Config → Complete() → New()).
 */
export interface CompletedConfig extends Omit<ApiServerConfig, 'limits'> {
  readonly completed: true;
  limits: Required<Pick<ApiServerLimits, 'maxRequestsInflight' | 'maxWatchersPerUser' | 'requestTimeoutMs'>>;
  body: BodyLimits;
  connections: ConnectionTimeouts;
}

export function complete(config: ApiServerConfig): CompletedConfig {
  const { limits } = config;
  const requestTimeoutMs = limits.requestTimeoutMs ?? 60_000;
  const body = { maxBytes: limits.maxBodyBytes, timeoutMs: limits.requestBodyTimeoutMs ?? 30_000 };
  const headersTimeout = limits.headerTimeoutMs ?? 32_000;
  return {
    ...config,
    completed: true,
    limits: { maxRequestsInflight: limits.maxRequestsInflight, maxWatchersPerUser: limits.maxWatchersPerUser, requestTimeoutMs },
    body,
    connections: {
      headersTimeout,
      // Watches are whole requests once their headers are in, so this never ends them.
      requestTimeout: Math.max(requestTimeoutMs, body.timeoutMs, headersTimeout) + 5_000,
      keepAliveTimeout: limits.idleTimeoutMs ?? 90_000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(headersTimeout / 4))),
    },
  };
}
