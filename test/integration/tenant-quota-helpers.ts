/**
 * What the tenant-wide quota suites share: creating pods and Services as an owner straight over HTTPS
 * (sixty at once, as kubectl processes could not), and a watch of every pod event of a tenant that
 * keeps, event by event, how many pods (and how much requested CPU) the tenant holds — the maximum over
 * every instant, not a final count.
 */
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { readFileSync } from 'node:fs';
import { controlPlane, httpsRequest } from './env';
import { eachJsonLine } from '../../src/testing/lines';

export interface CreateAnswer {
  status: number;
  message: string;
  /** The resourceVersion the object was created at (a success). */
  resourceVersion?: string;
}

/** POSTs `body` to `path` of kube-apiserver as `user` (a client certificate of the test PKI). */
export async function createAs(user: string, path: string, body: unknown): Promise<CreateAnswer> {
  const { server, pki } = controlPlane();
  const res = await httpsRequest(`${server}${path}`, { cert: pki.users[user], method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const parsed = JSON.parse(res.body) as { message?: string; metadata?: { resourceVersion?: string } };
  return { status: res.status, message: parsed.message ?? '', resourceVersion: res.status < 300 ? parsed.metadata?.resourceVersion : undefined };
}

export const pod = (name: string, label: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, labels: { 'quota-test': label } },
  spec: { containers: [{ name: 'c', image: 'registry.example.com/app:1' }] },
});

export const createPod = (user: string, namespace: string, name: string, label: string) => createAs(user, `/api/v1/namespaces/${namespace}/pods`, pod(name, label));

/** kube-apiserver's quota refusal of a create past a namespace's share. */
export const isQuotaRefusal = (a: CreateAnswer) => a.status === 403 && a.message.includes('exceeded quota: paddock-tenant-quota');

/**
 * kube-apiserver's quota admission gave up recording the create's use: its update of the share met a
 * newer version three times in a row (it re-reads the share from its own cache, which can lag a rewrite
 * of the share). Nothing is created; clients retry a 409.
 */
const isQuotaConflict = (a: CreateAnswer) => a.status === 409 && a.message.includes('resourcequotas "paddock-tenant-quota"');

/** What a create may get from kube-apiserver while the shares move: created, or not admitted by quota admission. */
export const createdOrRefusedByQuota = (a: CreateAnswer) => a.status === 201 || isQuotaRefusal(a) || isQuotaConflict(a);

/** Millicores a pod requests (after LimitRange defaults, as the watch shows it). */
function cpuOf(pod: any): number {
  let m = 0;
  for (const c of pod.spec?.containers ?? []) {
    const v: string | undefined = c.resources?.requests?.cpu;
    if (v) m += v.endsWith('m') ? Number(v.slice(0, -1)) : Number(v) * 1000;
  }
  return m;
}

/** A watch of the pods (or Services, or quotas) matching `selector` in every namespace, counting as it goes. */
export class HeldWatch {
  readonly held = new Map<string, number>(); // namespace/name → millicores
  /** The resourceVersion of each object's ADDED event: for an object created while watched, its creation. */
  readonly addedAt = new Map<string, number>();
  maxCount = 0;
  maxCpu = 0;
  events = 0;
  lastResourceVersion = '';
  #req?: ClientRequest;

  static open(resource: 'pods' | 'services' | 'resourcequotas', selector: string): Promise<HeldWatch> {
    const w = new HeldWatch();
    const { server, pki } = controlPlane();
    const u = new URL(`${server}/api/v1/${resource}?watch=true&labelSelector=${encodeURIComponent(selector)}`);
    return new Promise((resolve, reject) => {
      w.#req = request({
        host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, servername: 'localhost',
        ca: readFileSync(pki.ca.cert), cert: readFileSync(pki.users.admin!.cert), key: readFileSync(pki.users.admin!.key),
      }, (res) => {
        eachJsonLine<{ type: string; object: any }>(res, (e) => w.#event(e));
        resolve(w);
      });
      w.#req.on('error', reject);
      w.#req.end();
    });
  }

  #event(e: { type: string; object: any }): void {
    this.events++;
    const key = `${e.object.metadata.namespace}/${e.object.metadata.name}`;
    this.lastResourceVersion = e.object.metadata.resourceVersion;
    if (e.type === 'ADDED' && !this.addedAt.has(key)) this.addedAt.set(key, Number(e.object.metadata.resourceVersion));
    if (e.type === 'ADDED' || e.type === 'MODIFIED') this.held.set(key, cpuOf(e.object));
    else if (e.type === 'DELETED') this.held.delete(key);
    this.maxCount = Math.max(this.maxCount, this.held.size);
    this.maxCpu = Math.max(this.maxCpu, this.cpu);
  }

  get cpu(): number {
    let m = 0;
    for (const v of this.held.values()) m += v;
    return m;
  }

  close(): void {
    this.#req?.destroy();
  }
}
