import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { performance } from 'node:perf_hooks';
import type { CertFiles } from '../test/controlplane/pki';

/** The Accept header kubectl sends for `kubectl get` (server-side printing). */
export const ACCEPT_TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const ACCEPT_JSON = 'application/json';

export interface Response {
  status: number;
  body: Buffer;
  /** Milliseconds from sending the request to the last byte of the body. */
  ms: number;
  /** Seconds the server asked the client to wait before retrying (Retry-After), if it did. */
  retryAfter?: number;
}

/**
 * An HTTPS client for one identity (a client certificate) and one server, over keep-alive connections:
 * what a long-lived client such as kubectl's transport or an informer does.
 */
export class Client {
  readonly agent: Agent;

  constructor(readonly base: string, caFile: string, cert: CertFiles, maxSockets = 16) {
    this.agent = new Agent({
      keepAlive: true,
      maxSockets,
      maxFreeSockets: maxSockets,
      ca: readFileSync(caFile),
      cert: readFileSync(cert.cert),
      key: readFileSync(cert.key),
    });
  }

  /**
   * One request, timed from send to the end of the body; rejects on a transport error only. A GET sent
   * on a kept-alive connection that the server closed meanwhile (as idle) is sent again on a new one, as
   * Go's transport does for an idempotent request that got no response: the race is the connection's,
   * not the server's answer.
   */
  send(method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer, started = performance.now(), again = true): Promise<Response> {
    return new Promise((resolve, reject) => {
      const req = request(this.base + path, { method, agent: this.agent, headers, timeout: 60_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const retryAfter = Number(res.headers['retry-after']);
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), ms: performance.now() - started, ...(retryAfter >= 0 ? { retryAfter } : {}) }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
      req.on('error', (err: NodeJS.ErrnoException) => {
        if (again && method === 'GET' && req.reusedSocket && err.code === 'ECONNRESET') resolve(this.send(method, path, headers, body, started, false));
        else reject(err);
      });
      req.end(body);
    });
  }

  get(path: string, accept = ACCEPT_JSON): Promise<Response> {
    return this.send('GET', path, { Accept: accept });
  }

  /** GET that must answer 200; returns the parsed JSON body. */
  async getJson<T>(path: string, accept = ACCEPT_JSON): Promise<T> {
    const res = await this.get(path, accept);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.toString('utf8').slice(0, 300)}`);
    return JSON.parse(res.body.toString('utf8')) as T;
  }

  async postJson<T>(path: string, obj: unknown): Promise<{ status: number; body: T }> {
    const res = await this.send('POST', path, { 'Content-Type': 'application/json', Accept: ACCEPT_JSON }, JSON.stringify(obj));
    return { status: res.status, body: JSON.parse(res.body.toString('utf8')) as T };
  }

  async patchJson<T>(path: string, obj: unknown): Promise<{ status: number; body: T }> {
    const res = await this.send('PATCH', path, { 'Content-Type': 'application/merge-patch+json', Accept: ACCEPT_JSON }, JSON.stringify(obj));
    return { status: res.status, body: JSON.parse(res.body.toString('utf8')) as T };
  }

  close(): void {
    this.agent.destroy();
  }
}

/** Runs `fn` over `items` with at most `concurrency` calls in flight. */
export async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
