import { readFileSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { controlPlane, waitFor } from '../env';
import { eachJsonLine } from '../../../src/testing/lines';

/** One event of a watch, parsed. */
export interface WatchEvent {
  type: string;
  object: any;
}

/** A watch through kube-apiserver as admin, its events collected as they arrive. */
export class AdminWatch {
  readonly events: WatchEvent[] = [];
  #req?: ClientRequest;

  /** Opens `path` (with its query, `watch=1` included) and resolves once the response has begun. */
  static open(path: string, accept: string): Promise<AdminWatch> {
    const w = new AdminWatch();
    const { pki, server } = controlPlane();
    const u = new URL(`${server}${path}`);
    return new Promise((resolve, reject) => {
      w.#req = request({
        host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, servername: 'localhost', headers: { Accept: accept },
        ca: readFileSync(pki.ca.cert), cert: readFileSync(pki.users['admin']!.cert), key: readFileSync(pki.users['admin']!.key),
      }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`watch ${path}: ${res.statusCode}`));
        eachJsonLine<WatchEvent>(res, (e) => w.events.push(e));
        resolve(w);
      });
      w.#req.on('error', reject);
      w.#req.end();
    });
  }

  /** The first event `pred` picks, once it has arrived. */
  async next(describe: string, pred: (e: WatchEvent) => boolean, timeoutMs = 30_000): Promise<WatchEvent> {
    await waitFor(describe, async () => this.events.some(pred), timeoutMs, 50);
    return this.events.find(pred)!;
  }

  close(): void {
    this.#req?.destroy();
  }
}
