import { applyObject, kubectl, kubectlJson, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * Rules about a tenant as a whole (SPEC §10), enforced by kube-apiserver through Paddock's fence
 * policies: a cordoned tenant's namespaces take no create or update from its owners, and a Tenant with
 * preventDeletion cannot be deleted — shown by kube-apiserver refusing, as the owner alice and as admin.
 */
const id = uniqueName('fen').slice(4);

const configMap = (name: string, data: Record<string, string> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

function refusedAsCordoned(res: KubectlResult, tenantName: string): void {
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('paddock-tenant-cordon');
  expect(res.stderr).toContain(`tenant ${tenantName} is cordoned`);
}

describe('a cordoned tenant', () => {
  const name = `cor-${id}`;
  const ns = `${name}-app`;
  const spec = { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app'], resourceQuotas: [{ hard: { pods: '5' } }] } satisfies Partial<TenantSpec>;
  const cordoned = (value: boolean) => kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', JSON.stringify({ spec: { cordoned: value } })]);

  beforeAll(async () => {
    await applyObject(tenant(name, spec));
    await waitFor('the namespace furnished', async () => (await kubectl('admin', ['get', 'resourcequota', 'paddock-quota-0', '-n', ns])).code === 0, 60_000, 250);
    // Made before the cordon: updated and deleted under it below.
    expect((await kubectl('alice', ['create', '-n', ns, '-f', '-'], configMap('before'))).code).toBe(0);
    expect((await kubectl('alice', ['create', 'deployment', 'web', '-n', ns, '--image=registry.example.com/web:1', '--replicas=0'])).code).toBe(0);
    await cordoned(true);
    await waitFor('kube-apiserver refusing alice', async () => (await kubectl('alice', ['create', '-n', ns, '--dry-run=server', '-f', '-'], configMap('probe'))).stderr.includes('paddock-tenant-cordon'), 30_000, 100);
  });

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it("refuses its owner's creates and updates, naming the tenant", async () => {
    refusedAsCordoned(await kubectl('alice', ['create', '-n', ns, '-f', '-'], configMap('new')), name);
    refusedAsCordoned(await kubectl('alice', ['run', 'web', '-n', ns, '--image=registry.example.com/web:1']), name);
    refusedAsCordoned(await kubectl('alice', ['label', 'configmap', 'before', '-n', ns, 'changed=yes']), name);
  });

  it("refuses its owner's scale of a workload (an update through the scale subresource)", async () => {
    // The controllers that act on it (deployment, replicaset) are let through: scaling is how an owner
    // would create pods under the cordon.
    refusedAsCordoned(await kubectl('alice', ['scale', 'deployment', 'web', '-n', ns, '--replicas=3']), name);
    expect((await kubectlJson('admin', ['get', 'deployment', 'web', '-n', ns])).spec.replicas).toBe(0);
  });

  it('lets its owner delete', async () => {
    const res = await kubectl('alice', ['delete', 'configmap', 'before', '-n', ns]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('refuses a self-service namespace with 403, saying why', async () => {
    const res = await kubectl('alice', ['create', '-f', '-'], JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: `${name}-more` }, spec: { tenant: name } }));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('Forbidden');
    expect(res.stderr).toContain('is cordoned');
  });

  it("lets the cluster admin act, and Paddock repair the tenant's guardrails", async () => {
    expect((await kubectl('admin', ['create', '-n', ns, '--dry-run=server', '-f', '-'], configMap('by-admin'))).code).toBe(0);
    const before = (await kubectlJson('admin', ['get', 'resourcequota', 'paddock-quota-0', '-n', ns])).metadata.uid;
    await kubectl('admin', ['delete', 'resourcequota', 'paddock-quota-0', '-n', ns]);
    await waitFor('the quota made again', async () => {
      const res = await kubectl('admin', ['get', 'resourcequota', 'paddock-quota-0', '-n', ns, '-o', 'jsonpath={.metadata.uid}']);
      return res.code === 0 && res.stdout !== before;
    }, 30_000, 100);
  });

  it('takes creates again once it is no longer cordoned', async () => {
    await cordoned(false);
    await waitFor('alice creating again', async () => (await kubectl('alice', ['create', '-n', ns, '--dry-run=server', '-f', '-'], configMap('after'))).code === 0, 30_000, 100);
    expect((await kubectlJson('admin', ['get', 'namespace', ns])).metadata.labels).not.toHaveProperty(['paddock.dev/cordoned']);
  });
});

describe('a Tenant with preventDeletion', () => {
  const name = `pdl-${id}`;
  const label = `fence-test=${id}`;

  beforeAll(async () => {
    const t = tenant(name, { owners: [{ kind: 'User', name: 'alice' }], preventDeletion: true });
    await applyObject({ ...t, metadata: { ...t.metadata, labels: { 'fence-test': id } } });
    await waitFor('kube-apiserver refusing its deletion', async () => (await kubectl('admin', ['delete', 'tenant', name, '--dry-run=server'])).stderr.includes('paddock-tenant-deletion'), 30_000, 100);
  });

  afterAll(async () => {
    await kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', '{"spec":{"preventDeletion":false}}']);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('cannot be deleted, even by the cluster admin, one by one or as a collection', async () => {
    const one = await kubectl('admin', ['delete', 'tenant', name]);
    expect(one.code).not.toBe(0);
    expect(one.stderr).toContain(`tenant ${name} has spec.preventDeletion`);
    const collection = await kubectl('admin', ['delete', '--raw', `/apis/paddock.dev/v1alpha1/tenants?labelSelector=${encodeURIComponent(label)}`]);
    expect(collection.code).not.toBe(0);
    expect(collection.stderr + collection.stdout).toContain('preventDeletion');
    expect((await kubectl('admin', ['get', 'tenant', name])).code).toBe(0);
  });

  it('can be deleted once the field is false', async () => {
    await kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', '{"spec":{"preventDeletion":false}}']);
    await waitFor('the deletion accepted', async () => (await kubectl('admin', ['delete', 'tenant', name, '--dry-run=server'])).code === 0, 30_000, 100);
  });
});
