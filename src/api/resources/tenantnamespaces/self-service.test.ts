import type { KubeClient } from '../../../kube/client';
import type { Namespace } from '../../../kube/types';
import type { Viewer } from '../../registration/served-resource';
import { tenantWorld } from '../../testing/tenant-world';
import { SelfService } from './self-service';

const alice: Viewer = { name: 'alice', groups: ['system:authenticated'], seesAll: false };
const ALICE = [{ kind: 'User' as const, name: 'alice' }];
const codeOf = (p: Promise<unknown>) => p.then(() => 201, (e: { status: { code: number } }) => e.status.code);

describe('SelfService', () => {
  it('refuses (403) to delete a namespace declared in spec.namespaces, whatever origin its claim records', async () => {
    const w = tenantWorld();
    // Self-served first, declared by the cluster admin later: the claim may still say SelfService.
    w.tenant('oil', ALICE, [{ name: 'oil-dev', origin: 'SelfService', uid: 'uid-oil-dev' }], { namespaces: ['dev'] });
    w.namespace('oil-dev', 'oil');
    const deleted: string[] = [];
    const client = { delete: async (path: string) => void deleted.push(path) } as unknown as KubeClient;
    const ss = new SelfService(w.tns, client);
    expect(await codeOf(ss.delete(alice, 'oil-dev', { dryRun: false, preconditions: {} }))).toBe(403);
    expect(await codeOf(ss.delete(alice, 'oil-dev', { dryRun: true, preconditions: {} }))).toBe(403);
    expect(deleted).toEqual([]);
  });

  it('a dry-run create refuses what the real create refuses: a Tenant being deleted', async () => {
    const w = tenantWorld();
    w.tenants.set('oil', { metadata: { name: 'oil', uid: 'oil', deletionTimestamp: '2026-01-01T00:00:00Z', finalizers: ['paddock.dev/cleanup'] }, spec: { owners: ALICE }, status: { claims: [] } });
    const client = {
      create: async (_p: string, body: Namespace) => ({ ...body, metadata: { ...body.metadata, uid: 'new' } }),
      get: async () => w.tenants.items.get('oil'),
      update: async () => { throw new Error('no write expected'); },
    } as unknown as KubeClient;
    const ss = new SelfService(w.tns, client);
    const body = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: 'oil-x' }, spec: { tenant: 'oil' } };
    const real = await codeOf(ss.create(alice, body, false));
    expect(real).toBe(403);
    expect(await codeOf(ss.create(alice, body, true))).toBe(real);
  });

  it('answers a create whose namespace the view has not seen within 5 s with a resourceVersion of this view, never the namespace\'s own', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const w = tenantWorld();
      w.tenant('oil', ALICE, []);
      let live: unknown = w.tenants.items.get('oil');
      const client = {
        create: async (_p: string, body: Namespace) => ({ ...body, metadata: { ...body.metadata, uid: 'new', resourceVersion: '12345' } }),
        get: async () => live,
        update: async (_p: string, body: unknown) => (live = body),
      } as unknown as KubeClient;
      const ss = new SelfService(w.tns, client);
      const before = w.view.log.resourceVersion;
      const body = { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: 'oil-x' }, spec: { tenant: 'oil' } };
      const created = ss.create(alice, body, false);
      await jest.advanceTimersByTimeAsync(5000);
      const row = await created;
      expect(row.metadata.uid).toBe('new');
      expect(row.metadata.resourceVersion).toBe(before);
    } finally {
      jest.useRealTimers();
    }
  });
});
