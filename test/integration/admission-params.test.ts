import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor, type KubectlResult } from './env';
import { admissionObjects } from '../../src/tenancy/admission-policies';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * The parameter of Paddock's admission policies: the TenantRestriction `paddock-restrictions` in each
 * tenant namespace, found by kube-apiserver per request under three bindings that select every
 * tenant-labelled namespace. What it must guarantee, shown against the real kube-apiserver: a
 * tenant-labelled namespace without one admits no create; one being deleted can still be emptied; the
 * object follows its Tenant and is put back when someone else changes it; a released namespace is
 * restricted by nothing of the tenant.
 */
const id = uniqueName('apa').slice(4);
const name = `apa-${id}`;
const ns = (n: string) => `${name}-${n}`;
const ALLOWED = 'registry.example.com/app:1';
const OTHER = 'quay.io/acme/app:1';

const spec = {
  owners: [{ kind: 'User', name: 'alice' }],
  namespaces: ['app', 'doomed', 'dropped'],
  containerRegistries: { allowed: ['registry.example.com'] },
} satisfies Partial<TenantSpec>;

const pod = (podName: string, image: string, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: podName, ...metadata }, spec: { containers: [{ name: 'c', image }] },
});

/** `kubectl create --dry-run=server` of a pod as `user` in `namespace`: admission runs in full, nothing is stored. */
function dryRun(namespace: string, image: string, user = 'alice'): Promise<KubectlResult> {
  return kubectl(user, ['create', '-n', namespace, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(pod('probe', image)));
}

const restriction = (namespace: string) => kubectl('admin', ['get', '-n', namespace, 'tenantrestriction', 'paddock-restrictions', '-o', 'json']);

beforeAll(async () => {
  await applyObject(tenant(name, spec));
  await waitFor('every namespace with its TenantRestriction', async () => {
    for (const n of spec.namespaces) if ((await restriction(ns(n))).code !== 0) return false;
    return true;
  }, 60_000, 250);
  await waitFor('the default service account', async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', ns('app')])).code === 0, 30_000, 250);
  await waitFor('kube-apiserver enforcing the registries', async () => (await dryRun(ns('app'), OTHER)).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
});

describe('a namespace labelled as a tenant\'s without its TenantRestriction', () => {
  const planted = `planted-${id}`;

  afterAll(async () => {
    await kubectl('admin', ['patch', 'pod', 'held', '-n', planted, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']);
    await kubectl('admin', ['delete', 'namespace', planted, '--wait=false']);
  });

  it('admits no create, and lets the objects already in it be updated', async () => {
    await kubectl('admin', ['create', 'namespace', planted]);
    await waitFor('the default service account', async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', planted])).code === 0, 30_000, 250);
    expect((await kubectl('admin', ['create', '-n', planted, '-f', '-'], JSON.stringify(pod('held', ALLOWED, { finalizers: ['example.com/hold'] })))).code).toBe(0);
    // Labelled by someone else (only cluster admins can): no tenant provisioned it, so no parameter exists.
    await kubectl('admin', ['label', 'namespace', planted, `paddock.dev/tenant=ghost-${id}`]);
    await waitFor('kube-apiserver refusing creates there', async () => {
      const res = await dryRun(planted, ALLOWED, 'admin');
      return res.code !== 0 && res.stderr.includes('paddock-tenant-restrictions') && res.stderr.includes('no params found');
    }, 30_000, 100);
    const label = await kubectl('admin', ['label', 'pod', 'held', '-n', planted, 'touched=yes']);
    expect(label.stderr).toBe('');
    expect(label.code).toBe(0);
  });
});

describe('a tenant namespace being deleted', () => {
  // The namespace controller deletes pods first and waits for them; then everything else at once — the
  // TenantRestriction with the PVCs and Ingresses, whose finalizers controllers (pvc-protection, ingress
  // controllers) remove afterwards by an update.
  it('can still be emptied: an object whose finalizer is removed after its TenantRestriction went', async () => {
    const doomed = ns('doomed');
    const claim = {
      apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'held', finalizers: ['example.com/hold'] },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    };
    expect((await kubectl('admin', ['create', '-n', doomed, '-f', '-'], JSON.stringify(claim))).code).toBe(0);
    const uid = (await kubectlJson('admin', ['get', 'namespace', doomed])).metadata.uid;
    await kubectl('admin', ['delete', 'namespace', doomed, '--wait=false']);
    // The namespace controller deletes the kinds other than pods in no fixed order: wait for both.
    await waitFor('the TenantRestriction deleted, and the claim marked for deletion', async () =>
      (await restriction(doomed)).stderr.includes('NotFound') &&
      Boolean((await kubectlJson('admin', ['get', 'pvc', 'held', '-n', doomed])).metadata.deletionTimestamp), 60_000, 100);
    // What a controller does once it is done with the object: kube-apiserver lets the update through.
    const release = await kubectl('admin', ['patch', 'pvc', 'held', '-n', doomed, '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
    expect(release.stderr).toBe('');
    expect(release.code).toBe(0);
    // Gone — and, being declared, made again by Paddock under a new uid.
    await waitFor('the namespace gone', async () => {
      const now = await kubectl('admin', ['get', 'namespace', doomed, '-o', 'jsonpath={.metadata.uid}']);
      return now.code !== 0 || now.stdout !== uid;
    }, 90_000, 250);
  });
});

describe('the TenantRestriction of a tenant namespace', () => {
  const app = ns('app');

  it('is what the Tenant restricts, readable by its owner and not writable by her', async () => {
    const got = await kubectlJson('alice', ['get', '-n', app, 'tenantrestriction', 'paddock-restrictions']);
    expect(got.spec).toEqual({ tenant: name, containerRegistries: spec.containerRegistries });
    const del = await kubectl('alice', ['delete', '-n', app, 'tenantrestriction', 'paddock-restrictions']);
    expect(del.code).not.toBe(0);
    expect(del.stderr).toContain('Forbidden');
  });

  it('follows a change of the Tenant: kube-apiserver enforces the new registries, then the old ones again', async () => {
    const registries = (allowed: string[]) => kubectl('admin', ['patch', 'tenant', name, '--type=merge', '-p', JSON.stringify({ spec: { containerRegistries: { allowed } } })]);
    await registries(['registry.example.com', 'quay.io/acme']);
    await waitFor('the new registry admitted', async () => (await dryRun(app, OTHER)).code === 0, 30_000, 50);
    await registries(['registry.example.com']);
    await waitFor('the new registry refused again', async () => (await dryRun(app, OTHER)).stderr.includes('paddock-tenant-restrictions'), 30_000, 50);
  });

  it('is put back when someone else edits or deletes it', async () => {
    await kubectl('admin', ['patch', '-n', app, 'tenantrestriction', 'paddock-restrictions', '--type=merge', '-p', '{"spec":{"containerRegistries":{"allowed":["quay.io"]}}}']);
    await waitFor('the edit repaired', async () => JSON.parse((await restriction(app)).stdout).spec.containerRegistries.allowed.join() === 'registry.example.com', 30_000, 100);
    const before = JSON.parse((await restriction(app)).stdout).metadata.uid;
    await kubectl('admin', ['delete', '-n', app, 'tenantrestriction', 'paddock-restrictions']);
    await waitFor('the deleted one made again', async () => {
      const res = await restriction(app);
      return res.code === 0 && JSON.parse(res.stdout).metadata.uid !== before;
    }, 30_000, 100);
    await waitFor('the allowed registry admitted again', async () => (await dryRun(app, ALLOWED)).code === 0, 30_000, 100);
    expect((await dryRun(app, OTHER)).stderr).toContain('paddock-tenant-restrictions');
  });
});

describe('a namespace the tenant lets go of (deletionPolicy Retain)', () => {
  it('keeps no TenantRestriction and is restricted by nothing of the tenant', async () => {
    const dropped = ns('dropped');
    await applyObject(tenant(name, { ...spec, namespaces: ['app', 'doomed'] }));
    await waitFor('the namespace released', async () => (await kubectlJson('admin', ['get', 'namespace', dropped])).metadata.labels?.['paddock.dev/tenant'] === undefined, 60_000, 100);
    await waitFor('its TenantRestriction gone', async () => (await restriction(dropped)).stderr.includes('NotFound'), 30_000, 100);
    expect((await dryRun(dropped, OTHER, 'admin')).code).toBe(0);
  });
});

describe('the upgrade step the README gives for bindings of the per-Tenant layout', () => {
  const command = (): string => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('kubectl delete validatingadmissionpolicybindings'));
    if (!block) throw new Error('the README has no upgrade command');
    return block;
  };

  it('deletes such a binding and none of the current ones', async () => {
    const old = `paddock-restrictions-old-${id}`;
    await applyObject({
      apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: old, labels: { 'app.kubernetes.io/managed-by': 'paddock', 'paddock.dev/tenant': `old-${id}` } },
      spec: {
        policyName: 'paddock-tenant-restrictions', paramRef: { name: `old-${id}`, parameterNotFoundAction: 'Deny' },
        matchResources: { namespaceSelector: { matchLabels: { 'paddock.dev/tenant': `old-${id}` } } }, validationActions: ['Deny'],
      },
    });
    execFileSync('bash', ['-euo', 'pipefail', '-c', command()], { env: { ...process.env, KUBECONFIG: controlPlane().kubeconfigs.admin }, stdio: 'pipe' });
    expect((await kubectl('admin', ['get', 'validatingadmissionpolicybinding', old])).stderr).toContain('NotFound');
    const current = await kubectlJson('admin', ['get', 'validatingadmissionpolicybindings,mutatingadmissionpolicybindings', '-l', 'app.kubernetes.io/managed-by=paddock']);
    const bindings = admissionObjects().filter((o) => o.kind!.endsWith('Binding')).map((o) => o.metadata.name);
    expect(current.items.map((b: { metadata: { name: string } }) => b.metadata.name).sort()).toEqual(bindings.sort());
  });
});
