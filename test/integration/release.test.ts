import { applyObject, kubectl, kubectlJson, serviceAccountUser, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantOwner, TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * A namespace a Tenant lets go of — the Tenant deleted (deletionPolicy Retain or Delete) or the name
 * dropped from spec.namespaces — leaves no owner with access to it: an owner could have bound herself
 * (or a Role of her own) in it while it was hers, and once Paddock's guardrails and admission bindings
 * are gone that access would be access without a fence. Shown with each kind of owner (a user, a group,
 * a ServiceAccount), each acting through its own identity against the real kube-apiserver.
 */

/** An identity: a kubeconfig user and the extra kubectl arguments that make it act as the owner. */
interface Owner {
  subject: TenantOwner;
  user: () => string;
  args: string[];
}

const group = uniqueName('rel-devs');
const saNamespace = uniqueName('rel-ci');
let saUser = '';
const owners: Record<string, Owner> = {
  user: { subject: { kind: 'User', name: 'alice' }, user: () => 'alice', args: [] },
  // Impersonated by admin: kube-apiserver authorizes the request as that user in that group.
  group: { subject: { kind: 'Group', name: group }, user: () => 'admin', args: ['--as', `member-of-${group}`, '--as-group', group] },
  serviceAccount: { subject: { kind: 'ServiceAccount', namespace: saNamespace, name: 'deployer' }, user: () => saUser, args: [] },
};

beforeAll(async () => {
  saUser = await serviceAccountUser(saNamespace, 'deployer');
});

const as = (owner: Owner, args: string[], input?: string): Promise<KubectlResult> => kubectl(owner.user(), [...owner.args, ...args], input);

const pod = (name: string) => JSON.stringify({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: { nodeName: 'anywhere', containers: [{ name: 'c', image: 'evil.example/payload:1' }] },
});

/** What an owner does while the namespace is hers: binds herself twice, by Paddock's role and by a Role of her own. */
async function entrench(owner: Owner, ns: string): Promise<void> {
  const subject = owner.subject.kind === 'ServiceAccount' ? `--serviceaccount=${owner.subject.namespace}:${owner.subject.name}` : `--${owner.subject.kind.toLowerCase()}=${owner.subject.name}`;
  for (const args of [
    ['create', 'rolebinding', 'mine', '-n', ns, '--clusterrole=paddock:tenant-admin', subject],
    ['create', 'role', 'pods', '-n', ns, '--verb=get,list,create,delete', '--resource=pods'],
    ['create', 'rolebinding', 'mine-too', '-n', ns, '--role=pods', subject],
    ['create', 'configmap', 'workload', '-n', ns, '--from-literal=k=v'],
  ]) {
    const res = await as(owner, args);
    if (res.code !== 0) throw new Error(`${args.join(' ')}: ${res.stderr}`);
  }
}

/** A pod the tenant's restrictions would refuse (any registry, any node), as the owner, dry run. */
const createPod = (owner: Owner, ns: string) => as(owner, ['create', '-n', ns, '--dry-run=server', '-f', '-'], pod('escape'));

async function provision(name: string, owner: Owner, spec: Partial<TenantSpec>): Promise<void> {
  await applyObject(tenant(name, {
    owners: [owner.subject],
    containerRegistries: { allowed: ['registry.example.com'] },
    nodeSelector: { pool: name },
    ...spec,
  }));
  await waitFor(`tenant ${name} Ready`, async () => {
    const t = await kubectlJson('admin', ['get', 'tenant', name]);
    return t.status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True') && t.status.observedGeneration === t.metadata.generation;
  }, 60_000, 250);
}

/** Waits until kube-apiserver, which loads new bindings from its own informers, enforces the tenant's policy in `ns`. */
async function enforced(ns: string): Promise<void> {
  await waitFor(`kube-apiserver enforcing the tenant policy in ${ns}`, async () =>
    (await kubectl('admin', ['create', '-n', ns, '--dry-run=server', '-f', '-'], pod('probe'))).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
}

async function expectFenced(owner: Owner, ns: string): Promise<void> {
  const res = await createPod(owner, ns);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(/nodeName is not allowed|not from an allowed registry/);
}

async function expectNoAccess(owner: Owner, ns: string): Promise<void> {
  // kube-apiserver's authorizer reads RoleBindings from its own informer: a deletion reaches it a moment later.
  await waitFor(`kube-apiserver's authorizer without the owner's bindings in ${ns}`, async () =>
    (await as(owner, ['auth', 'can-i', 'create', 'pods', '-n', ns])).stdout.trim() === 'no', 30_000, 250);
  const res = await createPod(owner, ns);
  expect(res.code).not.toBe(0);
  expect(res.stderr).toMatch(/forbidden: User ".*" cannot create resource "pods"/);
  expect((await as(owner, ['auth', 'can-i', 'create', 'rolebindings', '-n', ns])).stdout.trim()).toBe('no');
}

describe.each(Object.keys(owners))('a %s owner', (kind) => {
  const owner = owners[kind];

  it('keeps no access to a namespace released by deleting its Tenant (deletionPolicy Retain)', async () => {
    const name = uniqueName('rel');
    const ns = `${name}-app`;
    await provision(name, owner, { namespaces: ['app'] });
    await entrench(owner, ns);
    await enforced(ns);
    await expectFenced(owner, ns);

    await kubectl('admin', ['delete', 'tenant', name, '--wait=true']);
    expect((await kubectl('admin', ['get', 'tenant', name])).stderr).toMatch(/NotFound/);
    // Retained: the namespace and its workloads stay.
    expect((await kubectl('admin', ['get', 'configmap', 'workload', '-n', ns])).code).toBe(0);
    const live = await kubectlJson('admin', ['get', 'namespace', ns]);
    expect(live.metadata.labels['paddock.dev/tenant']).toBeUndefined();
    await expectNoAccess(owner, ns);
  });

  it('keeps no access to a namespace dropped from spec.namespaces', async () => {
    const name = uniqueName('rel');
    const [kept, dropped] = [`${name}-kept`, `${name}-dropped`];
    await provision(name, owner, { namespaces: ['kept', 'dropped'] });
    await entrench(owner, dropped);

    await applyObject(tenant(name, { owners: [owner.subject], containerRegistries: { allowed: ['registry.example.com'] }, nodeSelector: { pool: name }, namespaces: ['kept'] }));
    await waitFor(`${dropped} released`, async () => {
      const live = await kubectlJson('admin', ['get', 'namespace', dropped]);
      return live.metadata.labels?.['paddock.dev/tenant'] === undefined;
    }, 60_000, 250);
    await expectNoAccess(owner, dropped);
    // The namespace still the tenant's is untouched: the owner works there, fenced.
    await enforced(kept);
    await expectFenced(owner, kept);
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  });

  it('keeps no access to a namespace of a Tenant deleted with deletionPolicy Delete', async () => {
    const name = uniqueName('rel');
    const ns = `${name}-app`;
    await provision(name, owner, { namespaces: ['app'], deletionPolicy: 'Delete' });
    await entrench(owner, ns);

    await kubectl('admin', ['delete', 'tenant', name, '--wait=true']);
    const res = await createPod(owner, ns);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/forbidden|being terminated|not found/);
  });
});
