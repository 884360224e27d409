import type { PaddockCache } from '../../cache/paddock-cache';
import { KubeApiError } from '../../kube/errors';
import type { KubeObject, ResourceQuota, Tenant } from '../../kube/types';
import { tenant as tenantNamed } from '../../testing/tenants';
import type { EventRecorder } from '../events';
import type { Writer } from '../writer';
import { QuotaRebalancer } from './rebalance';

/**
 * Two rebalancers (two leaders overlapping) against an in-memory kube-apiserver with its optimistic
 * concurrency, each reading a cache that lags by a random number of versions, while a quota admission
 * counts creates up to each share and deletes free them — every step interleaved at random. After every
 * write the sum of the shares must be within the budget.
 */
const BUDGET = 20;
const NAMESPACES = ['t-a', 't-b', 't-c', 't-d'];

let seed = 1;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const tick = () => new Promise<void>((r) => (rand(3) === 0 ? setImmediate(r) : queueMicrotask(r)));
const status = (code: number) => new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason: code === 409 ? 'Conflict' : 'NotFound' });
const clone = <T>(o: T): T => structuredClone(o);

class FakeKube {
  rv = 1;
  readonly objects = new Map<string, KubeObject>();
  /** Every version of every object, oldest first: what a lagging cache serves. */
  readonly versions = new Map<string, KubeObject[]>();
  maxShares = 0;
  maxUsed = 0;
  raisedTotal = 0;

  key(o: KubeObject): string {
    return o.kind === 'Tenant' ? `tenant/${o.metadata.name}` : `${o.metadata.namespace}/${o.metadata.name}`;
  }

  put(o: KubeObject): KubeObject {
    const stored = { ...clone(o), metadata: { ...clone(o.metadata), resourceVersion: String(++this.rv) } };
    this.objects.set(this.key(o), stored);
    this.versions.set(this.key(o), [...(this.versions.get(this.key(o)) ?? []), stored].slice(-8));
    this.check();
    return clone(stored);
  }

  shares(): ResourceQuota[] {
    return NAMESPACES.map((ns) => this.objects.get(`${ns}/paddock-tenant-quota`) as ResourceQuota);
  }

  check(): void {
    const shares = this.shares().filter(Boolean);
    const sum = shares.reduce((s, q) => s + Number(q.spec?.hard?.pods ?? 0), 0);
    const used = shares.reduce((s, q) => s + Number(q.status?.used?.pods ?? 0), 0);
    this.maxShares = Math.max(this.maxShares, sum);
    this.maxUsed = Math.max(this.maxUsed, used);
    expect(sum).toBeLessThanOrEqual(BUDGET);
  }

  async update<T extends KubeObject>(o: T, subresource?: 'status'): Promise<T> {
    await tick();
    const current = this.objects.get(this.key(o));
    if (!current) throw status(404);
    if (current.metadata.resourceVersion !== o.metadata.resourceVersion) throw status(409);
    const next = subresource === 'status' ? { ...current, status: (o as Tenant).status } : { ...o, status: (current as ResourceQuota).status };
    if (o.kind === 'ResourceQuota' && Number((o as ResourceQuota).spec?.hard?.pods) > Number((current as ResourceQuota).spec?.hard?.pods ?? 0)) this.raisedTotal++;
    return this.put(next as KubeObject) as T;
  }

  /** kube-apiserver's quota admission: one pod more in `ns` if its share allows, or one fewer. */
  admit(ns: string, create: boolean): void {
    const q = this.objects.get(`${ns}/paddock-tenant-quota`) as ResourceQuota;
    const used = Number(q.status?.used?.pods ?? 0);
    const hard = Number(q.spec?.hard?.pods ?? 0);
    if (create && used >= hard) return; // refused: exceeded quota
    if (!create && used === 0) return;
    this.put({ ...q, status: { hard: { pods: String(hard) }, used: { pods: String(used + (create ? 1 : -1)) } } });
  }

  /** A cache behind by up to three versions of each object. */
  lagging(key: string): KubeObject | undefined {
    const all = this.versions.get(key) ?? [];
    return all.length === 0 ? undefined : clone(all[Math.max(0, all.length - 1 - rand(4))]);
  }
}

function setup(kube: FakeKube): Tenant {
  const t = tenantNamed('t', { namespaces: NAMESPACES.map((n) => n.slice(2)), quota: { hard: { pods: String(BUDGET) } } }, { claims: NAMESPACES.map((n) => ({ name: n, origin: 'Declared', uid: `uid-${n}` })) });
  kube.put(t);
  for (const ns of NAMESPACES) {
    kube.put({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'paddock-tenant-quota', namespace: ns, labels: { 'paddock.dev/tenant': 't' } }, spec: { hard: { pods: '0' } }, status: { hard: { pods: '0' }, used: { pods: '0' } } } as ResourceQuota);
  }
  return t;
}

function rebalancer(kube: FakeKube): QuotaRebalancer {
  const cache = {
    tenants: { store: { get: (name: string) => kube.lagging(`tenant/${name}`) } },
    namespaces: { store: { get: (name: string) => (NAMESPACES.includes(name) ? { metadata: { name, uid: `uid-${name}` }, status: { phase: 'Active' } } : undefined) } },
    resourceQuotas: { store: { get: (key: string) => kube.lagging(key) } },
  } as unknown as PaddockCache;
  const writer = {
    get: async (like: KubeObject) => (await tick(), clone(kube.objects.get(kube.key({ ...like, kind: like.kind }))) ),
    update: (o: KubeObject) => kube.update(o),
    updateStatus: (o: KubeObject) => kube.update(o, 'status'),
  } as unknown as Writer;
  return new QuotaRebalancer(cache, writer, { record: () => undefined } as unknown as EventRecorder);
}

describe('QuotaRebalancer under two leaders and lagging caches', () => {
  it.each([1, 2, 3, 4, 5])('keeps the sum of the shares within the budget at every write (seed %i)', async (s) => {
    seed = s;
    const kube = new FakeKube();
    setup(kube);
    const leaders = [rebalancer(kube), rebalancer(kube)];
    let running = true;
    const load = (async () => {
      while (running) {
        await tick();
        kube.admit(NAMESPACES[rand(4)]!, rand(10) < 9);
      }
    })();
    for (let round = 0; round < 150; round++) {
      await Promise.all(leaders.map((l) => l.reconcile('t').catch((err: unknown) => {
        if (!(err instanceof KubeApiError)) throw err;
      })));
    }
    running = false;
    await load;
    expect(kube.maxShares).toBeLessThanOrEqual(BUDGET);
    // Not vacuous: shares were raised, and the tenant got close to its budget.
    expect(kube.raisedTotal).toBeGreaterThanOrEqual(4);
    expect(kube.maxUsed).toBeGreaterThanOrEqual(BUDGET - 6);
  });
});
