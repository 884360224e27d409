import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePaddockImage, importImage } from '../controlplane/node';
import { installPaddockIdentity } from '../controlplane/paddock';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { CHART, REPO, helm } from './helm';
import { APISERVICE, NS, apiServiceAvailable, paddockPods, poll, waitSettled } from './install-env';
import { deleteTenants, describeNode, ensureNode, tenant, waitTenantReady } from './node-env';
import { replicas, startReplica, stopReplica } from './paddock-env';

// Paddock's life with Helm on the real node: install, an upgrade that changes a value and so rolls both
// replicas while a client polls, a rollback, and an uninstall that leaves every Tenant, tenant namespace
// and what is in them in place. The run's Paddock processes step aside meanwhile and come back afterwards.

jest.setTimeout(300_000);

const IMAGE = ['--set', 'image.repository=localhost/paddock', '--set', 'image.tag=test'];
/** helm waits for the rollout itself; the API is judged by kube-apiserver's APIService. */
const WAIT = ['--wait', '--timeout', '240s'];

const args = async (): Promise<string[]> => (await kubectlJson('admin', ['get', 'deployment', 'paddock', '-n', NS])).spec.template.spec.containers[0].args;

describeNode('Paddock installed, upgraded, rolled back and uninstalled with helm on a real node', () => {
  const t = uniqueName('helm');
  const tenantNs = `${t}-apps`;

  beforeAll(async () => {
    const node = await ensureNode();
    importImage(node, ensurePaddockImage());
    for (const r of replicas()) await stopReplica(r.identity);
    await kubectl('admin', ['delete', 'apiservice', APISERVICE, '--ignore-not-found']);
    await kubectl('admin', ['delete', 'service', 'paddock-apiserver', '-n', NS, '--ignore-not-found']);
  }, 600_000);

  afterAll(async () => {
    await deleteTenants(t);
    await helm('admin', ['uninstall', 'paddock', '-n', NS, '--ignore-not-found', '--wait', '--timeout', '120s']);
    await kubectl('admin', ['delete', 'secret', 'paddock-serving-cert', '-n', NS, '--ignore-not-found']);
    await waitFor('the installed Paddock pods gone', async () => (await paddockPods()).length === 0, 60_000, 250);
    // Uninstalling removed Paddock's ServiceAccount and RBAC, which the run's replicas use: put them back
    // (a new token for the same kubeconfig path), then the replicas.
    installPaddockIdentity(controlPlane());
    for (const name of ['paddock-a', 'paddock-b']) await startReplica(name);
  }, 300_000);

  test('the README\'s helm install: two Ready replicas, the APIService Available, a Tenant reconciled and served to its owner', async () => {
    // The README's commands as printed, with two additions: the test bed's image, and --take-ownership,
    // since the run applied the ServiceAccount and RBAC with kubectl (as after `kubectl apply -k`; the
    // documented way from there to helm).
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('helm install paddock'));
    if (!block) throw new Error('the README has no helm install');
    const lines = block.split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean);
    expect(lines.map((l) => l.split(' ')[0])).toEqual(['kubectl', 'helm']);
    for (const line of lines) {
      const [tool, ...words] = line.split(/\s+/);
      const res = tool === 'kubectl' ? await kubectl('admin', words) : await helm('admin', [...words, '--take-ownership', ...IMAGE, '--timeout', '240s']);
      expect({ line, code: res.code, stderr: res.code === 0 ? '' : res.stderr }).toEqual({ line, code: 0, stderr: '' });
    }
    await waitSettled('2 Ready Paddock pods');
    await waitFor('APIService Available', apiServiceAvailable, 120_000, 250);
    await applyObject(tenant(t, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'] }));
    await waitTenantReady(t);
    const res = await kubectl('alice', ['get', 'tns', '-o', 'name']);
    expect(res.stdout.trim().split('\n')).toContain(`tenantnamespace.tenancy.paddock.dev/${tenantNs}`);
    expect((await kubectl('alice', ['create', 'configmap', 'kept', '-n', tenantNs, '--from-literal=owner=alice'])).code).toBe(0);
    const status = await helm('admin', ['status', 'paddock', '-n', NS, '-o', 'json']);
    expect(JSON.parse(status.stdout).info.status).toBe('deployed');
  });

  test('helm upgrade changing a value rolls both replicas, and a client polling every 100 ms meanwhile sees no failure', async () => {
    const before = await waitSettled('2 Ready Paddock pods');
    const client = poll(tenantNs);
    try {
      const up = await helm('admin', ['upgrade', 'paddock', CHART, '-n', NS, '--reuse-values', '--set', 'flags.workers=8', ...WAIT]);
      expect(up.stderr).not.toMatch(/Error/);
      expect(up.code).toBe(0);
      const after = await waitSettled('2 Ready Paddock pods after the upgrade');
      expect(after.filter((p) => before.some((b) => b.name === p.name))).toEqual([]);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await client.stop();
    }
    expect(await args()).toContain('--workers=8');
    expect(client.requests).toBeGreaterThan(20);
    expect(client.failures).toEqual([]);
  });

  test('helm rollback returns to the first revision, rolling both replicas again without a failed request', async () => {
    const before = await waitSettled('2 Ready Paddock pods');
    const client = poll(tenantNs);
    try {
      const back = await helm('admin', ['rollback', 'paddock', '1', '-n', NS, ...WAIT]);
      expect(back.code).toBe(0);
      const after = await waitSettled('2 Ready Paddock pods after the rollback');
      expect(after.filter((p) => before.some((b) => b.name === p.name))).toEqual([]);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await client.stop();
    }
    expect(await args()).not.toContain('--workers=8');
    const history = JSON.parse((await helm('admin', ['history', 'paddock', '-n', NS, '-o', 'json'])).stdout) as { revision: number; status: string; description: string }[];
    expect(history.map((h) => [h.revision, h.status])).toEqual([[1, 'superseded'], [2, 'superseded'], [3, 'deployed']]);
    expect(history[2]!.description).toBe('Rollback to 1');
    expect(client.failures).toEqual([]);
  });

  test('helm uninstall removes Paddock and keeps every Tenant, tenant namespace and what is in it, the CRDs and the tenant roles', async () => {
    const un = await helm('admin', ['uninstall', 'paddock', '-n', NS, '--wait', '--timeout', '120s']);
    expect(un.code).toBe(0);
    expect(un.stdout).toMatch(/These resources were kept due to the resource policy:[\s\S]*\[ClusterRole\] paddock:tenant-admin\n/);
    await waitFor('the Paddock pods gone', async () => (await paddockPods()).length === 0, 120_000, 250);
    for (const gone of [['deployment', 'paddock', '-n', NS], ['apiservice', APISERVICE], ['clusterrole', 'paddock']]) {
      expect((await kubectl('admin', ['get', ...gone])).stderr).toMatch(/NotFound/);
    }
    // What the tenant owns, and what it is granted and fenced by, is all still there.
    expect((await kubectlJson('admin', ['get', 'tenant', t])).metadata.deletionTimestamp).toBeUndefined();
    expect((await kubectlJson('admin', ['get', 'namespace', tenantNs])).status.phase).toBe('Active');
    expect((await kubectlJson('alice', ['get', 'configmap', 'kept', '-n', tenantNs])).data).toEqual({ owner: 'alice' });
    for (const crd of ['tenants.paddock.dev', 'tenantrestrictions.paddock.dev']) expect((await kubectl('admin', ['get', 'crd', crd])).code).toBe(0);
    expect((await kubectl('admin', ['get', 'clusterrole', 'paddock:tenant-admin'])).code).toBe(0);
    expect((await kubectl('admin', ['get', 'resourcequota,rolebinding,tenantrestriction', '-n', tenantNs, '-o', 'name'])).stdout).toMatch(/tenantrestriction/);
    // The owner keeps working in the namespace through the kept roles; only the aggregated API is gone.
    expect((await kubectl('alice', ['create', 'configmap', 'after', '-n', tenantNs])).code).toBe(0);
    expect((await kubectl('alice', ['get', 'tns'])).stderr).toMatch(/the server doesn't have a resource type "tns"|could not find the requested resource/);
  });
});
