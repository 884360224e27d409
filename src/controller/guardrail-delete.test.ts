import { SharedInformerFactory } from '../cache/factory';
import { PaddockCache } from '../cache/paddock-cache';
import { KubeApiError } from '../kube/errors';
import { silentLogger } from '../kube/log';
import { PADDOCK, type KubeObject } from '../kube/types';
import { TENANCY_CACHE } from '../tenancy/cache-options';
import { tenant } from '../testing/tenants';
import { TenantReconciler } from './reconciler';
import { Writer } from './writer';

const err = (code: number) => new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, message: `HTTP ${code}` });
const labels = { [PADDOCK.managedByLabel]: PADDOCK.managedByValue, [PADDOCK.tenantLabel]: 'oil' };
const quota = (rv: string, tenantLabel = 'oil'): KubeObject => ({
  apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'oil-a', uid: 'q-uid', resourceVersion: rv, labels: { ...labels, [PADDOCK.tenantLabel]: tenantLabel } }, spec: { hard: { pods: '1' } },
}) as KubeObject;
const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'oil-a', uid: 'ns-uid', resourceVersion: '4', labels } };
const deleted = tenant('oil', { owners: [{ kind: 'User', name: 'al' }], namespaces: ['a'] }, { claims: [{ name: 'oil-a', origin: 'Declared', uid: 'ns-uid' }] },
  { uid: 't', resourceVersion: '3', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: [PADDOCK.finalizer] });
const listed: Record<string, unknown[]> = { '/api/v1/namespaces': [ns], '/apis/paddock.dev/v1alpha1/tenants': [deleted], '/api/v1/resourcequotas': [quota('7')] };

/**
 * The reconciler against a cache listed from fixed objects and a client over `live` objects that checks
 * delete preconditions as kube-apiserver does. The Tenant is being deleted (Retain): its guardrails go.
 */
async function retainCleanup(live: Map<string, KubeObject>): Promise<string[]> {
  const factory = new SharedInformerFactory({
    list: async (p: string) => ({ metadata: { resourceVersion: '10' }, items: listed[p] ?? [] }),
    async *watch(_p: string, _q: unknown, s?: AbortSignal) { await new Promise((r) => s?.addEventListener('abort', r)); },
  } as never, { logger: silentLogger });
  const cache = new PaddockCache(factory, TENANCY_CACHE);
  const stop = new AbortController();
  factory.start(stop.signal);
  await factory.waitForCacheSync(stop.signal);
  const client = {
    get: async (p: string) => live.get(p) ?? Promise.reject(err(404)),
    list: async (p: string) => ({ items: [...live].filter(([k]) => k.startsWith(`${p}/`)).map(([, v]) => v) }),
    update: async (_p: string, b: unknown) => b,
    delete: async (p: string, o: { body: { preconditions?: { uid?: string; resourceVersion?: string } } }) => {
      const obj = live.get(p);
      const pre = o.body.preconditions ?? {};
      if (!obj) throw err(404);
      if ((pre.uid && pre.uid !== obj.metadata.uid) || (pre.resourceVersion && pre.resourceVersion !== obj.metadata.resourceVersion)) throw err(409);
      live.delete(p);
    },
  };
  const warnings: string[] = [];
  const events = { record: (_o: unknown, type: string, reason: string) => type === 'Warning' && warnings.push(reason) };
  try {
    await new TenantReconciler(cache, new Writer(client as never), events as never, silentLogger as never).reconcile('oil');
  } catch (e) {
    warnings.push(`threw ${(e as KubeApiError).code}`);
  } finally { stop.abort(); await factory.stopped(); }
  return warnings;
}

const QUOTA = '/api/v1/namespaces/oil-a/resourcequotas/q';

describe('deleting a guardrail whose resourceVersion moved on since the cache saw it', () => {
  it('deletes it when what the decision rests on (its labels) is unchanged: a quota whose status.used changed', async () => {
    const live = new Map<string, KubeObject>([['/api/v1/namespaces/oil-a', ns as KubeObject], [QUOTA, quota('8')]]);
    expect(await retainCleanup(live)).toEqual([]);
    expect(live.has(QUOTA)).toBe(false);
  });

  it('leaves it when its labels changed meanwhile, and the reconcile fails with the conflict', async () => {
    const live = new Map<string, KubeObject>([['/api/v1/namespaces/oil-a', ns as KubeObject], [QUOTA, quota('8', 'gas')]]);
    expect(await retainCleanup(live)).not.toEqual([]);
    expect(live.has(QUOTA)).toBe(true);
  });
});
