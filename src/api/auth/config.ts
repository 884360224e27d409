import type { X509Certificate } from 'node:crypto';
import type { KubeObject } from '../../kube/types';
import type { KubeRequester } from './types';
import { parseCertBundle } from './x509';

/** Where kube-apiserver publishes the client-authentication settings of the cluster for extension servers. */
export const AUTHENTICATION_CONFIGMAP = { namespace: 'kube-system', name: 'extension-apiserver-authentication' } as const;

/** A CA bundle: the PEM as published (for the TLS context) and its parsed certificates (for verification). */
export interface TrustBundle {
  pem: string;
  certs: X509Certificate[];
}

/** How the front proxy (kube-apiserver's aggregator) is recognized and how it passes the caller's identity. */
export interface RequestHeaderConfig {
  /** `requestheader-client-ca-file`: the only CA a front-proxy certificate is verified against. */
  ca: TrustBundle;
  /** CNs a front-proxy certificate may carry (exact match); empty means any certificate of `ca`. */
  allowedNames: string[];
  usernameHeaders: string[];
  uidHeaders: string[];
  groupHeaders: string[];
  extraHeaderPrefixes: string[];
}

/**
 * The cluster's client-authentication settings, immutable once built: a reload produces a new object, so
 * anything derived from one (a verified connection, a TLS context) can be keyed by its identity.
 */
export interface AuthenticationConfig {
  /** `client-ca-file`: CA of client certificates whose CN/O are the identity; absent disables them. */
  clientCA?: TrustBundle;
  /** Absent when the cluster publishes no `requestheader-client-ca-file`: no front proxy is trusted. */
  requestHeader?: RequestHeaderConfig;
  /** resourceVersion of the ConfigMap this was read from. */
  resourceVersion?: string;
}

/** The configuration of a server that trusts nobody's certificate (before the first load). */
export const EMPTY_AUTHENTICATION_CONFIG: AuthenticationConfig = Object.freeze({});

/** Decodes a JSON array of strings as kube's request-header controller does: '' or absent → []. */
function stringList(data: Record<string, string>, key: string): string[] {
  const raw = data[key];
  if (raw === undefined || raw === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new Error(`${key}: not a JSON array of strings: ${(err as Error).message}`);
  }
  if (parsed === null) return [];
  if (!Array.isArray(parsed) || parsed.some((v) => typeof v !== 'string')) throw new Error(`${key}: not a JSON array of strings`);
  return parsed as string[];
}

/** Header names are matched case-insensitively; surrounding spaces are dropped and blank names ignored. */
function headerNames(data: Record<string, string>, key: string): string[] {
  return stringList(data, key).map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
}

function bundle(data: Record<string, string>, key: string): TrustBundle | undefined {
  const pem = data[key];
  if (pem === undefined || pem.trim() === '') return undefined;
  try {
    return { pem, certs: parseCertBundle(pem) };
  } catch (err) {
    throw new Error(`${key}: ${(err as Error).message}`);
  }
}

/**
 * Builds the configuration from the data of ConfigMap `kube-system/extension-apiserver-authentication`
 * (keys `client-ca-file`, `requestheader-client-ca-file`, and the JSON string arrays
 * `requestheader-allowed-names`, `-username-headers`, `-uid-headers`, `-group-headers`,
 * `-extra-headers-prefix`). Header names and prefixes are returned lowercased, as Node presents
 * header names. Throws with the offending key when a value is malformed.
 */
export function parseAuthenticationConfig(data: Record<string, string> | undefined, resourceVersion?: string): AuthenticationConfig {
  const d = data ?? {};
  const config: AuthenticationConfig = { resourceVersion };
  const clientCA = bundle(d, 'client-ca-file');
  if (clientCA) config.clientCA = clientCA;
  const requestHeaderCA = bundle(d, 'requestheader-client-ca-file');
  if (requestHeaderCA) {
    config.requestHeader = {
      ca: requestHeaderCA,
      allowedNames: stringList(d, 'requestheader-allowed-names'),
      usernameHeaders: headerNames(d, 'requestheader-username-headers'),
      uidHeaders: headerNames(d, 'requestheader-uid-headers'),
      groupHeaders: headerNames(d, 'requestheader-group-headers'),
      extraHeaderPrefixes: headerNames(d, 'requestheader-extra-headers-prefix'),
    };
  }
  return Object.freeze(config);
}

interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
}

export interface AuthConfigSourceOptions {
  /** Defaults to kube-system/extension-apiserver-authentication. */
  namespace?: string;
  name?: string;
  /** How often the ConfigMap is re-read; default 10 s. */
  intervalMs?: number;
  /** Called when a re-read fails; the last good configuration stays in force. */
  onError?: (err: Error) => void;
}

/**
 * Keeps the authentication configuration current by polling the ConfigMap. `start()` loads it once and
 * fails if that is impossible (a server must not run without knowing whom to trust, as kube's delegated
 * authentication refuses to start); afterwards a failed or malformed read keeps the last good
 * configuration. Listeners run after each change, with the new configuration.
 */
export class AuthConfigSource {
  readonly #client: KubeRequester;
  readonly #path: string;
  readonly #intervalMs: number;
  readonly #onError: (err: Error) => void;
  readonly #listeners = new Set<(config: AuthenticationConfig) => void>();
  #current: AuthenticationConfig = EMPTY_AUTHENTICATION_CONFIG;
  #lastData: string | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(client: KubeRequester, opts: AuthConfigSourceOptions = {}) {
    this.#client = client;
    const namespace = opts.namespace ?? AUTHENTICATION_CONFIGMAP.namespace;
    const name = opts.name ?? AUTHENTICATION_CONFIGMAP.name;
    this.#path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps/${encodeURIComponent(name)}`;
    this.#intervalMs = opts.intervalMs ?? 10_000;
    this.#onError = opts.onError ?? (() => undefined);
  }

  /** The configuration in force; {@link EMPTY_AUTHENTICATION_CONFIG} until the first load. */
  get current(): AuthenticationConfig {
    return this.#current;
  }

  /** Loads the configuration (rejecting if it cannot) and starts polling. */
  async start(): Promise<AuthenticationConfig> {
    this.#stopped = false;
    await this.refresh();
    this.#schedule();
    return this.#current;
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onChange(listener: (config: AuthenticationConfig) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the ConfigMap now; resolves true when the configuration changed. Rejects on failure. */
  async refresh(): Promise<boolean> {
    const cm = await this.#client.request<ConfigMap>('GET', this.#path);
    const serialized = JSON.stringify(Object.entries(cm.data ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    if (serialized === this.#lastData) return false;
    const next = parseAuthenticationConfig(cm.data, cm.metadata?.resourceVersion);
    this.#lastData = serialized;
    this.#current = next;
    for (const listener of this.#listeners) {
      try {
        listener(next);
      } catch (err) {
        this.#onError(err as Error);
      }
    }
    return true;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.refresh().catch((err: Error) => this.#onError(err)).finally(() => this.#schedule());
    }, this.#intervalMs);
    this.#timer.unref();
  }
}
