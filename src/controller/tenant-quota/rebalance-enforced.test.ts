import type { PaddockCache } from '../../cache/paddock-cache';
import { KubeApiError } from '../../kube/errors';
import type { KubeObject, ResourceQuota, Tenant } from '../../kube/types';
import { tenant as tenantNamed } from '../../testing/tenants';
import type { EventRecorder } from '../events';
import type { Writer } from '../writer';
import { QuotaRebalancer } from './rebalance';

/**
 * kube-apiserver's quota admission enforces a ResourceQuota's `status.hard`, not its `spec.hard`
 * (k8s.io/apiserver admission/plugin/resourcequota: `quota.LessThanOrEqual(newUsage, Status.Hard)`);
 * the resource quota controller of kube-controller-manager copies `spec.hard` into `status.hard` later,
 * one quota at a time, in no order the writer of `spec.hard` controls. So lowering share A's spec and
 * then raising share B's spec does not lower A's enforced limit before B's enforced limit rises.
 *
 * This suite models that: admission counts against `status.hard`, and a separate quota controller
 * copies spec to status for one share at a time, chosen at random. The budget must hold for what is
 * enforced (the sum of `status.hard`) and for what is used.
 */
jest.setTimeout(60_000);

const BUDGET = 20;
const NAMESPACES = ['t-a', 't-b', 't-c', 't-d'];

let seed = 1;
const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
async function tick(): Promise<void> {
  for (let i = rand(4); i > 0; i--) await new Promise<void>((r) => setImmediate(r));
}
const status = (code: number) => new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason: code === 409 ? 'Conflict' : 'NotFound' });
const clone = <T>(o: T): T => structuredClone(o);

class EnforcingKube {
  rv = 1;
  readonly objects = new Map<string, KubeObject>();
  maxEnforced = 0;
  maxUsed = 0;
  readonly violations: string[] = [];
  readonly log: string[] = [];

  key(o: KubeObject): string {
    return o.kind === 'Tenant' ? `tenant/${o.metadata.name}` : `${o.metadata.namespace}/${o.metadata.name}`;
  }

  put(o: KubeObject): KubeObject {
    const q = o as ResourceQuota;
    if (o.kind === 'ResourceQuota') this.log.push(`${this.key(o)} spec=${q.spec?.hard?.pods} status.hard=${q.status?.hard?.pods} used=${q.status?.used?.pods}`);
    const stored = { ...clone(o), metadata: { ...clone(o.metadata), resourceVersion: String(++this.rv) } };
    this.objects.set(this.key(o), stored);
    this.check();
    return clone(stored);
  }

  shares(): ResourceQuota[] {
    return NAMESPACES.map((ns) => this.objects.get(`${ns}/paddock-tenant-quota`) as ResourceQuota).filter(Boolean);
  }

  check(): void {
    const enforced = this.shares().reduce((s, q) => s + Number(q.status?.hard?.pods ?? 0), 0);
    const used = this.shares().reduce((s, q) => s + Number(q.status?.used?.pods ?? 0), 0);
    this.maxEnforced = Math.max(this.maxEnforced, enforced);
    this.maxUsed = Math.max(this.maxUsed, used);
    if (enforced > BUDGET || used > BUDGET) this.violations.push(`enforced ${enforced}, used ${used}, after:\n${this.log.slice(-12).join('\n')}`);
  }

  async update<T extends KubeObject>(o: T, subresource?: 'status'): Promise<T> {
    await tick();
    const current = this.objects.get(this.key(o));
    if (!current) throw status(404);
    if (current.metadata.resourceVersion !== o.metadata.resourceVersion) throw status(409);
    const next = subresource === 'status' ? { ...current, status: (o as unknown as Tenant).status } : { ...o, status: (current as ResourceQuota).status };
    return this.put(next as KubeObject) as T;
  }

  /** Quota admission: one pod more in `ns` if `status.hard` allows it, or one fewer. */
  admit(ns: string, create: boolean): void {
    const q = this.objects.get(`${ns}/paddock-tenant-quota`) as ResourceQuota;
    const used = Number(q.status?.used?.pods ?? 0);
    const hard = Number(q.status?.hard?.pods ?? 0);
    if (create && used >= hard) return;
    if (!create && used === 0) return;
    this.put({ ...q, status: { ...q.status, used: { pods: String(used + (create ? 1 : -1)) } } } as ResourceQuota);
  }

  /** kube-controller-manager's resource quota controller: copies spec.hard to status.hard of one share. */
  syncOne(): void {
    const stale = this.shares().filter((q) => q.status?.hard?.pods !== q.spec?.hard?.pods);
    if (stale.length === 0) return;
    const q = stale[rand(stale.length)]!;
    this.put({ ...q, status: { ...q.status, hard: { ...q.spec?.hard } } } as ResourceQuota);
  }
}

function setup(kube: EnforcingKube): void {
  const t = tenantNamed('t', { namespaces: NAMESPACES.map((n) => n.slice(2)), quota: { hard: { pods: String(BUDGET) } } }, { claims: NAMESPACES.map((n) => ({ name: n, origin: 'Declared', uid: `uid-${n}` })) });
  kube.put(t);
  for (const ns of NAMESPACES) {
    kube.put({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'paddock-tenant-quota', namespace: ns, labels: { 'paddock.dev/tenant': 't' } }, spec: { hard: { pods: '0' } }, status: { hard: { pods: '0' }, used: { pods: '0' } } } as ResourceQuota);
  }
}

function rebalancer(kube: EnforcingKube): QuotaRebalancer {
  const cache = {
    tenants: { store: { get: (name: string) => clone(kube.objects.get(`tenant/${name}`)) } },
    namespaces: { store: { get: (name: string) => (NAMESPACES.includes(name) ? { metadata: { name, uid: `uid-${name}` }, status: { phase: 'Active' } } : undefined) } },
    resourceQuotas: { store: { get: (key: string) => clone(kube.objects.get(key)) } },
  } as unknown as PaddockCache;
  const writer = {
    get: async (like: KubeObject) => (await tick(), clone(kube.objects.get(kube.key({ ...like, kind: like.kind })))),
    update: (o: KubeObject) => kube.update(o),
    updateStatus: (o: KubeObject) => kube.update(o, 'status'),
  } as unknown as Writer;
  return new QuotaRebalancer(cache, writer, { record: () => undefined } as unknown as EventRecorder);
}

describe('QuotaRebalancer against the limits kube-apiserver enforces (status.hard)', () => {
  it.each([1, 2, 3, 4, 5])('keeps the enforced limits and the use within the budget (seed %i)', async (s) => {
    seed = s;
    const kube = new EnforcingKube();
    setup(kube);
    const leader = rebalancer(kube); // one leader, a current cache
    // Each round: the load and the quota controller run while the leader rebalances. The load works one
    // namespace at a time (it fills it, then empties it), so headroom keeps moving between namespaces.
    for (let round = 0; round < 300; round++) {
      const busy = NAMESPACES[Math.floor(round / 25) % NAMESPACES.length]!;
      const load = (async () => {
        for (let k = 0; k < 6; k++) {
          await tick();
          kube.admit(rand(2) === 0 ? busy : NAMESPACES[rand(4)]!, true);
          kube.admit(NAMESPACES[rand(4)]!, false);
          if (rand(2) === 0) kube.syncOne();
        }
      })();
      await Promise.all([
        load,
        leader.reconcile('t').catch((err: unknown) => {
          if (!(err instanceof KubeApiError)) throw err;
        }),
      ]);
    }
    expect(kube.violations.slice(0, 1)).toEqual([]);
    expect(kube.maxEnforced).toBeLessThanOrEqual(BUDGET);
    expect(kube.maxUsed).toBeLessThanOrEqual(BUDGET);
  });
});
