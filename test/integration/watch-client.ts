import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import WebSocket from 'ws';
import type { CertFiles } from '../controlplane/pki';
import { controlPlane, kubeconfigOf, waitFor } from './env';
import { eachJsonLine } from '../../src/testing/lines';

export interface WatchEventLine {
  type: string;
  object: any;
}

/** A watch straight to a Paddock replica over HTTPS, collecting parsed events. */
export class DirectWatch {
  readonly events: WatchEventLine[] = [];
  status = 0;
  ended = false;
  endedAt = 0;
  #req?: ClientRequest;
  #res?: IncomingMessage;

  static open(port: number, query: string, cert: CertFiles, headers: Record<string, string> = {}): Promise<DirectWatch> {
    const w = new DirectWatch();
    const { pki } = controlPlane();
    return new Promise((resolve, reject) => {
      w.#req = request({
        host: '127.0.0.1', port, path: `/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?watch=true&${query}`, servername: 'localhost',
        ca: readFileSync(pki.ca.cert), cert: readFileSync(cert.cert), key: readFileSync(cert.key), headers,
      }, (res) => {
        w.status = res.statusCode ?? 0;
        w.#res = res;
        eachJsonLine<WatchEventLine>(res, (e) => w.events.push(e));
        res.on('end', () => {
          w.ended = true;
          w.endedAt = Date.now();
        });
        res.on('error', () => (w.ended = true));
        resolve(w);
      });
      w.#req.on('error', reject);
      w.#req.end();
    });
  }

  /** Stops reading: the server's writes back up into its buffers. */
  pause(): void {
    this.#res?.pause();
  }

  close(): void {
    this.#req?.destroy();
  }

  names(type?: string): string[] {
    return this.events.filter((e) => !type || e.type === type).map((e) => e.object?.metadata?.name);
  }

  async waitFor(describe: string, pred: (events: WatchEventLine[]) => boolean, timeoutMs = 30_000): Promise<void> {
    await waitFor(describe, async () => pred(this.events), timeoutMs, 50).catch((err) => {
      const seen = JSON.stringify(this.events.slice(-20).map((e) => [e.type, e.object?.metadata?.name]));
      throw new Error(`${(err as Error).message}; ${this.events.length} events, the last: ${seen}`);
    });
  }
}

/** The same watch over a WebSocket (one message per event). */
export class WebSocketWatch {
  readonly events: WatchEventLine[] = [];
  #ws!: WebSocket;

  /** The subprotocol the server accepted ('' for none). */
  get protocol(): string {
    return this.#ws.protocol;
  }

  /** Opens the watch as a browser would: with an Origin (the server refuses a handshake without one). */
  static open(port: number, query: string, cert: CertFiles, opts: { protocols?: string[]; origin?: string } = {}): Promise<WebSocketWatch> {
    const w = new WebSocketWatch();
    const { pki } = controlPlane();
    return new Promise((resolve, reject) => {
      w.#ws = new WebSocket(`wss://127.0.0.1:${port}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces?watch=true&${query}`, opts.protocols ?? [], {
        ca: readFileSync(pki.ca.cert), cert: readFileSync(cert.cert), key: readFileSync(cert.key), origin: opts.origin ?? `https://127.0.0.1:${port}`,
      });
      w.#ws.on('unexpected-response', (_req, res) => reject(new Error(`websocket handshake answered ${res.statusCode}`)));
      w.#ws.on('message', (data) => w.events.push(JSON.parse(String(data)) as WatchEventLine));
      w.#ws.on('open', () => resolve(w));
      w.#ws.on('error', reject);
    });
  }

  close(): void {
    this.#ws.close();
  }
}

/** `kubectl get <resource> -w --output-watch-events` as `user`, its output lines collected as they come. */
export class KubectlWatch {
  readonly lines: string[] = [];
  readonly #child: ChildProcess;

  constructor(user: string, args: string[] = [], resource = 'tns') {
    this.#child = spawn('kubectl', ['--kubeconfig', kubeconfigOf(user)!, 'get', resource, '-w', '--output-watch-events', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let buf = '';
    this.#child.stdout!.setEncoding('utf8');
    this.#child.stdout!.on('data', (chunk: string) => {
      buf += chunk;
      const parts = buf.split('\n');
      buf = parts.pop()!;
      this.lines.push(...parts.filter(Boolean));
    });
  }

  /** Lines of the form `EVENT NAME TENANT STATUS AGE` parsed into [event, name, status]. */
  rows(): [string, string, string][] {
    return this.lines.filter((l) => !l.startsWith('EVENT')).map((l) => {
      const f = l.trim().split(/\s+/);
      return [f[0], f[1], f[3]];
    });
  }

  async waitFor(describe: string, pred: (rows: [string, string, string][]) => boolean, timeoutMs = 60_000): Promise<void> {
    await waitFor(describe, async () => pred(this.rows()), timeoutMs, 100).catch((err) => {
      throw new Error(`${(err as Error).message}; kubectl printed (last lines):\n${this.lines.slice(-20).join('\n')}`);
    });
  }

  stop(): void {
    this.#child.kill();
  }
}
