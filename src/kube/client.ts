import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { clientRateLimiterWait, clientRequestDuration } from '../metrics/client';
import { type Connection, type KubeConfigSource, loadConnection } from './connection';
import { KubeApiError } from './errors';
import { TokenBucket } from './token-bucket';
import type { KubeList, KubeObject, WatchEvent } from './types';
import { WatchEvents } from './watch-stream';
import { waitingForIo } from './io-wait';

export type QueryValue = string | number | boolean | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

export interface RequestOptions {
  query?: Query;
  /** Sent as JSON unless it is a string or Buffer. */
  body?: unknown;
  /** Defaults to `application/json` (`application/merge-patch+json` for `patch`). */
  contentType?: string;
  signal?: AbortSignal;
  /** Whole-request deadline (headers and body); defaults to the client's `timeoutMs`. */
  timeoutMs?: number;
  headers?: Readonly<Record<string, string>>;
  /**
   * Called once the rate limiter let the request through, immediately before it is sent; throwing
   * rejects the request with that error and nothing is sent (a write fence hooks in here).
   */
  beforeSend?: () => void;
}

export interface KubeClientOptions {
  /** Client-side rate limit, requests per second; client-go defaults 5 (Paddock configures more). <= 0 disables. */
  qps?: number;
  /** Bucket size of the rate limiter; client-go default 10. */
  burst?: number;
  /** Default per-request deadline; 60 s. Watches use it only until the response headers arrive. */
  timeoutMs?: number;
  /** Bound on a response body (non-watch); 256 MiB. */
  maxResponseBytes?: number;
  /** Bound on one watch line; 128 MiB. */
  maxWatchLineBytes?: number;
  userAgent?: string;
}

export type PatchType = 'merge' | 'strategic' | 'json' | 'apply';
const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  json: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

/**
 * A thin REST client for kube-apiserver over node:https with one keep-alive Agent. Every request (a watch
 * once, when it is opened) first takes a token from a client-side token bucket; time waited is recorded in
 * `paddock_client_rate_limiter_wait_seconds`. Failures answered by the server throw `KubeApiError`;
 * transport failures throw the underlying Error.
 */
export class KubeClient {
  readonly #conn: Connection;
  readonly #agent: http.Agent;
  readonly #limiter: TokenBucket;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;
  readonly #maxWatchLineBytes: number | undefined;
  readonly #userAgent: string;

  constructor(conn: Connection, options: KubeClientOptions = {}) {
    this.#conn = conn;
    const secure = conn.server.protocol === 'https:';
    this.#agent = secure ? new https.Agent({ ...conn.tls, keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.#limiter = new TokenBucket(options.qps ?? 5, options.burst ?? 10);
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#maxResponseBytes = options.maxResponseBytes ?? 256 * 1024 * 1024;
    this.#maxWatchLineBytes = options.maxWatchLineBytes;
    this.#userAgent = options.userAgent ?? `paddock/${paddockVersion()}`;
  }

  /** Reads a kubeconfig (file, in-cluster or default search) and returns a client for its current context. */
  static async fromKubeConfig(source: KubeConfigSource = {}, options: KubeClientOptions = {}): Promise<KubeClient> {
    return new KubeClient(await loadConnection(source), options);
  }

  get server(): URL { return this.#conn.server; }

  /** Sends one request and returns the parsed JSON body (undefined for an empty body). */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    // The deadline's timer is cleared when the request ends (AbortSignal.timeout would keep its timer and
    // signals alive for the whole timeout after every answer: thousands of them under a burst of writes).
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), opts.timeoutMs ?? this.#timeoutMs);
    timer.unref();
    const outer = opts.signal;
    const onAbort = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    let res: http.IncomingMessage;
    let body: Buffer;
    try {
      res = await this.#open(method, path, opts, controller.signal);
      body = await readBody(res, this.#maxResponseBytes);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    }
    const code = res.statusCode ?? 0;
    if (code < 200 || code >= 300) throw KubeApiError.fromResponse(code, body.toString('utf8'), `${method} ${path}`);
    if (body.length === 0) return undefined as T;
    return JSON.parse(body.toString('utf8')) as T;
  }

  get<T = KubeObject>(path: string, opts?: RequestOptions): Promise<T> {
    return this.request<T>('GET', path, opts);
  }

  list<T extends KubeObject = KubeObject>(path: string, query?: Query, signal?: AbortSignal): Promise<KubeList<T>> {
    return this.request<KubeList<T>>('GET', path, { query, signal });
  }

  create<T = KubeObject>(path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', path, { ...opts, body });
  }

  update<T = KubeObject>(path: string, body: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PUT', path, { ...opts, body });
  }

  /** PATCH; `type` picks the content type (merge by default). Server-side apply needs `query.fieldManager`. */
  patch<T = KubeObject>(path: string, body: unknown, type: PatchType = 'merge', opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PATCH', path, { ...opts, body, contentType: opts.contentType ?? PATCH_CONTENT_TYPES[type] });
  }

  delete<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', path, opts);
  }

  /**
   * Opens a watch (`watch=true` is added) when iteration starts and yields its events until the server ends
   * the stream or `signal` aborts (then iteration just ends). A non-2xx answer, e.g. 410 for a too-old
   * resourceVersion, throws KubeApiError from the first `next()`; ERROR events are yielded as they are.
   * Each event is parsed as its bytes arrive and handed straight to the reader (see WatchEvents): one
   * reader, one read at a time, as `for await` reads.
   */
  watch<T = KubeObject>(path: string, query: Query = {}, signal?: AbortSignal): AsyncIterableIterator<WatchEvent<T>> {
    const ended: AsyncIterator<WatchEvent<T>> = { next: () => Promise.resolve({ value: undefined, done: true }) };
    let events: AsyncIterator<WatchEvent<T>> | undefined;
    let opening: Promise<AsyncIterator<WatchEvent<T>>> | undefined;
    const stop = new AbortController();
    const open = (): Promise<AsyncIterator<WatchEvent<T>>> => (opening ??= this.#openWatch<T>(path, query, signal, stop.signal).then(
      (opened) => (events = opened ?? ended),
      (err: unknown) => {
        events = ended;
        throw err;
      },
    ));
    return {
      // Until the response has come, every read waits for it; then each goes straight to its events.
      next: () => events?.next() ?? open().then((e) => e.next()),
      return: () => {
        stop.abort();
        if (events) return events.return?.() ?? ended.next();
        // An open under way ends on the abort; one that has just made its events ends them here.
        return (opening ?? Promise.resolve(ended)).then((e) => e.return?.() ?? ended.next(), () => ended.next());
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /** Opens a watch for `watch()`; undefined when `signal` aborted first (or while it opened). */
  async #openWatch<T>(path: string, query: Query, signal: AbortSignal | undefined, stop: AbortSignal): Promise<WatchEvents<T> | undefined> {
    if (signal?.aborted || stop.aborted) return undefined;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    stop.addEventListener('abort', onAbort, { once: true });
    const forget = (): void => {
      signal?.removeEventListener('abort', onAbort);
      stop.removeEventListener('abort', onAbort);
    };
    const headersTimer = setTimeout(() => controller.abort(new Error(`watch ${path}: no response headers within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    try {
      let res: http.IncomingMessage;
      try {
        res = await this.#open('GET', path, { query: { ...query, watch: true } }, controller.signal);
      } finally {
        clearTimeout(headersTimer);
      }
      const code = res.statusCode ?? 0;
      if (code < 200 || code >= 300) {
        const body = await readBody(res, this.#maxResponseBytes);
        throw KubeApiError.fromResponse(code, body.toString('utf8'), `watch ${path}`);
      }
      return new WatchEvents<T>(res, { maxLineBytes: this.#maxWatchLineBytes, signal, onOver: forget });
    } catch (err) {
      forget();
      if (signal?.aborted || stop.aborted) return undefined;
      throw err;
    }
  }

  /** Closes idle keep-alive sockets; open watches end when their signals abort. */
  close(): void {
    this.#agent.destroy();
  }

  async #open(method: string, path: string, opts: RequestOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
    const verb = method.toLowerCase();
    // From here the caller waits: for the rate limiter, then for the server.
    waitingForIo();
    const waited = await this.#limiter.wait(signal);
    clientRateLimiterWait.observe({ verb }, waited / 1000);

    const url = new URL(path, this.#conn.server);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      ...(await this.#conn.authHeaders()),
      'User-Agent': this.#userAgent,
      Accept: 'application/json',
      ...opts.headers,
    };
    let payload: Buffer | undefined;
    if (opts.body !== undefined) {
      payload = Buffer.isBuffer(opts.body) ? opts.body : Buffer.from(typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body));
      headers['Content-Type'] = opts.contentType ?? 'application/json';
      headers['Content-Length'] = String(payload.length);
    }
    const started = performance.now();
    const transport = url.protocol === 'https:' ? https : http;
    signal.throwIfAborted();
    opts.beforeSend?.();
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = transport.request(url, { method, headers, agent: this.#agent, signal }, (res) => {
        clientRequestDuration.observe({ verb, code: String(res.statusCode ?? 0) }, (performance.now() - started) / 1000);
        resolve(res);
      });
      req.on('error', (err) => {
        clientRequestDuration.observe({ verb, code: 'error' }, (performance.now() - started) / 1000);
        reject(signal.aborted && signal.reason instanceof Error ? signal.reason : err);
      });
      req.end(payload);
    });
  }
}

async function readBody(res: http.IncomingMessage, max: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      res.destroy();
      throw new Error(`response body exceeds ${max} bytes`);
    }
    parts.push(chunk);
  }
  return Buffer.concat(parts, size);
}

let version: string | undefined;
/** Paddock's version from package.json (two levels above both `src/kube` and `dist/kube`). */
export function paddockVersion(): string {
  if (version === undefined) {
    try {
      version = (JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
    } catch {
      version = '0.0.0';
    }
  }
  return version;
}
