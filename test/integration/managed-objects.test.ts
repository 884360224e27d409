import { applyObject, kubectl, kubectlJson, serviceAccountUser, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(240_000);

/**
 * What Paddock made in a tenant namespace is Paddock's alone (SPEC §10): kube-apiserver refuses, through
 * the fence paddock-managed-objects, every update and delete of it by the owner alice and by a user
 * bound to cluster-admin (only system:masters is let through, as break-glass), and any object of a
 * guardrail kind that would carry Paddock's label. Releasing a namespace, deleting a tenant namespace
 * and deleting a Tenant (in the background and in the foreground) still complete.
 */
const FENCE = 'paddock-managed-objects';
const id = uniqueName('mo').slice(3);
const spec = {
  owners: [{ kind: 'User', name: 'alice' }],
  namespaces: ['app'],
  resourceQuotas: [{ hard: { pods: '5' } }],
  limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '100m' } }] }],
} satisfies Partial<TenantSpec>;

/** Paddock's objects in each tenant namespace: one of every guardrail kind. */
const MANAGED = [
  ['resourcequota', 'paddock-quota-0'],
  ['limitrange', 'paddock-limits-0'],
  ['networkpolicy', 'paddock-isolation'],
  ['rolebinding', 'paddock:tenant-admin'],
  ['tenantrestriction', 'paddock-restrictions'],
] as const;

const roleBinding = (name: string, labels: Record<string, string> = {}) => JSON.stringify({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name, labels },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'paddock:tenant-viewer' },
  subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'dave' }],
});

function refusedByFence(res: KubectlResult, ...says: string[]): void {
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain(FENCE);
  for (const s of says) expect(res.stderr).toContain(s);
}

const furnished = (ns: string) =>
  waitFor(`${ns} furnished`, async () => (await kubectl('admin', ['get', 'limitrange', 'paddock-limits-0', '-n', ns])).code === 0, 60_000, 250);
const uidOf = async (kind: string, name: string, ns: string) => (await kubectlJson('admin', ['get', kind, name, '-n', ns])).metadata.uid as string;

describe("objects Paddock made in a tenant's namespaces", () => {
  const name = `mo-${id}`;
  const ns = `${name}-app`;
  let clusterAdmin: string;

  beforeAll(async () => {
    await applyObject(tenant(name, spec));
    clusterAdmin = await serviceAccountUser(`mo-admin-${id}`, 'operator');
    await kubectl('admin', ['create', 'clusterrolebinding', `mo-admin-${id}`, '--clusterrole=cluster-admin', `--serviceaccount=mo-admin-${id}:operator`]);
    await furnished(ns);
    await waitFor('kube-apiserver enforcing the fence', async () => (await kubectl('alice', ['delete', 'rolebinding', 'paddock:tenant-admin', '-n', ns, '--dry-run=server'])).stderr.includes(FENCE), 30_000, 100);
  });

  afterAll(async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await kubectl('admin', ['delete', 'clusterrolebinding', `mo-admin-${id}`]);
    await kubectl('admin', ['delete', 'namespace', `mo-admin-${id}`, '--wait=false']);
  });

  it('refuses the owner an update or delete of the RoleBinding that gives her access, dry-run or not, naming it', async () => {
    const says = [`RoleBinding paddock:tenant-admin is managed by Paddock for tenant ${name}`, 'only Paddock may change or delete it'];
    refusedByFence(await kubectl('alice', ['delete', 'rolebinding', 'paddock:tenant-admin', '-n', ns, '--dry-run=server']), ...says);
    refusedByFence(await kubectl('alice', ['delete', 'rolebinding', 'paddock:tenant-admin', '-n', ns]), ...says);
    refusedByFence(await kubectl('alice', ['label', 'rolebinding', 'paddock:tenant-admin', '-n', ns, 'extra=yes']), ...says);
    refusedByFence(await kubectl('alice', ['label', 'rolebinding', 'paddock:tenant-admin', '-n', ns, 'app.kubernetes.io/managed-by-']), ...says);
    refusedByFence(await kubectl('alice', ['delete', 'rolebindings', '--all', '-n', ns]), ...says);
    expect((await kubectlJson('admin', ['get', 'rolebinding', 'paddock:tenant-admin', '-n', ns])).metadata.labels).toMatchObject({ 'paddock.dev/tenant': name });
  });

  it('refuses a user bound to cluster-admin an update or delete of each of them, and one that drops its label', async () => {
    for (const [kind, obj] of MANAGED) {
      const uid = await uidOf(kind, obj, ns);
      refusedByFence(await kubectl(clusterAdmin, ['delete', kind, obj, '-n', ns]), `${obj} is managed by Paddock for tenant ${name}`);
      refusedByFence(await kubectl(clusterAdmin, ['annotate', kind, obj, '-n', ns, 'edited=yes']), `${obj} is managed by Paddock`);
      refusedByFence(await kubectl(clusterAdmin, ['label', kind, obj, '-n', ns, 'app.kubernetes.io/managed-by-', 'paddock.dev/tenant-']), `${obj} is managed by Paddock`);
      expect(await uidOf(kind, obj, ns)).toBe(uid);
    }
  });

  it('refuses a user bound to cluster-admin a write of a quota\'s status, which is what quota admission enforces', async () => {
    // kube-apiserver's quota admission compares use with status.hard, and the quota controller rewrites
    // a status only when spec.hard changes or at its full resync: raising status.hard lifts the quota.
    const patch = JSON.stringify({ status: { hard: { pods: '1000' }, used: { pods: '0' } } });
    refusedByFence(await kubectl(clusterAdmin, ['patch', 'resourcequota', 'paddock-quota-0', '-n', ns, '--subresource=status', '--type=merge', '-p', patch, '--dry-run=server']));
  });

  it("refuses an object of a guardrail kind with Paddock's label, created or labelled so, and leaves the owner's own alone", async () => {
    refusedByFence(await kubectl('alice', ['create', '-n', ns, '-f', '-'], roleBinding('forged', { 'app.kubernetes.io/managed-by': 'paddock' })),
      'the label app.kubernetes.io/managed-by=paddock is for what Paddock makes');
    expect((await kubectl('alice', ['create', '-n', ns, '-f', '-'], roleBinding('mine'))).code).toBe(0);
    refusedByFence(await kubectl('alice', ['label', 'rolebinding', 'mine', '-n', ns, 'app.kubernetes.io/managed-by=paddock']), 'is for what Paddock makes');
    expect((await kubectl('alice', ['label', 'rolebinding', 'mine', '-n', ns, 'paddock.dev/tenant=other'])).code).toBe(0);
    const del = await kubectl('alice', ['delete', 'rolebinding', 'mine', '-n', ns]);
    expect(del.stderr).toBe('');
    expect(del.code).toBe(0);
  });

  it('lets system:masters change one (break-glass), and Paddock puts it back', async () => {
    const before = await uidOf('resourcequota', 'paddock-quota-0', ns);
    expect((await kubectl('admin', ['delete', 'resourcequota', 'paddock-quota-0', '-n', ns])).code).toBe(0);
    await waitFor('the quota made again', async () => {
      const res = await kubectl('admin', ['get', 'resourcequota', 'paddock-quota-0', '-n', ns, '-o', 'jsonpath={.metadata.uid}']);
      return res.code === 0 && res.stdout !== before;
    }, 30_000, 100);
  });
});

describe('with the fence in place', () => {
  const gone = (kind: string, obj: string, ns?: string) => async () => (await kubectl('admin', ['get', kind, obj, ...(ns ? ['-n', ns] : [])])).stderr.includes('NotFound');

  it('a namespace the tenant lets go (Retain) is released: its guardrails and labels removed, the namespace kept', async () => {
    const name = `mor-${id}`;
    await applyObject(tenant(name, { ...spec, namespaces: ['app', 'old'] }));
    await furnished(`${name}-old`);
    await applyObject(tenant(name, spec));
    for (const [kind, obj] of MANAGED) await waitFor(`${kind} ${obj} released`, gone(kind, obj, `${name}-old`), 60_000, 250);
    expect((await kubectlJson('admin', ['get', 'namespace', `${name}-old`])).metadata.labels).not.toHaveProperty(['paddock.dev/tenant']);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', `${name}-old`, '--wait=false']);
  });

  it.each(['background', 'foreground'])('a Tenant deleted in the %s goes, with its namespaces (Delete) and all it owned', async (cascade) => {
    const name = `mod-${cascade.slice(0, 2)}-${id}`;
    await applyObject(tenant(name, { ...spec, deletionPolicy: 'Delete' }));
    await furnished(`${name}-app`);
    expect((await kubectl('admin', ['delete', 'tenant', name, `--cascade=${cascade}`, '--wait=false'])).code).toBe(0);
    await waitFor(`the Tenant ${name} gone`, gone('tenant', name), 120_000, 250);
    await waitFor(`the namespace ${name}-app gone`, gone('namespace', `${name}-app`), 120_000, 250);
  });

  it.each(['background', 'foreground'])('a Tenant deleted in the %s goes, its namespaces kept (Retain) without what Paddock made', async (cascade) => {
    const name = `mok-${cascade.slice(0, 2)}-${id}`;
    const ns = `${name}-app`;
    await applyObject(tenant(name, spec));
    await furnished(ns);
    expect((await kubectl('admin', ['delete', 'tenant', name, `--cascade=${cascade}`, '--wait=false'])).code).toBe(0);
    await waitFor(`the Tenant ${name} gone`, gone('tenant', name), 120_000, 250);
    for (const [kind, obj] of MANAGED) await waitFor(`${kind} ${obj} gone`, gone(kind, obj, ns), 60_000, 250);
    expect((await kubectl('admin', ['get', 'namespace', ns])).code).toBe(0);
    await kubectl('admin', ['delete', 'namespace', ns, '--wait=false']);
  });
});
