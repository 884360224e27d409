import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadAll } from 'js-yaml';
import { startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, httpsRequest, kubectl, serviceAccountUser, uniqueName, waitFor } from './env';
import { TEST_PADDOCK_ARGS } from './global-setup';
import { tenant as tenantNamed } from '../../src/testing/tenants';

jest.setTimeout(180_000);

const TNS = '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces';
const { pki } = controlPlane();

/** The rules of the shipped ClusterRole `paddock` (apiservice/rbac.yaml), less those for `resource`. */
function shippedRulesWithout(resource: string): unknown[] {
  const docs = loadAll(readFileSync(resolve(__dirname, '..', '..', 'apiservice', 'rbac.yaml'), 'utf8')) as any[];
  const role = docs.find((d) => d?.kind === 'ClusterRole' && d.metadata.name === 'paddock');
  const rules = role.rules.filter((r: { apiGroups?: string[]; resources?: string[] }) => !(r.apiGroups?.includes('') && r.resources?.includes(resource)));
  if (rules.length !== role.rules.length - 1) throw new Error(`expected one rule for core ${resource} in apiservice/rbac.yaml`);
  return rules;
}

const clusterRole = (name: string, rules: unknown[]) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules });
const bindingOf = (name: string, role: string, subject: { namespace: string; name: string }, namespace?: string) => ({
  apiVersion: 'rbac.authorization.k8s.io/v1', kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
  metadata: namespace ? { name, namespace } : { name },
  roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: namespace ? 'Role' : 'ClusterRole', name: role },
  subjects: [{ kind: 'ServiceAccount', ...subject }],
});

/**
 * A replica whose caches cannot all list yet: its identity has every permission of the shipped role
 * but reading Nodes (so the tenantnodes cache keeps retrying), until the test grants it.
 */
describe('a replica before its caches have synced', () => {
  let replica: PaddockProcess;
  let sa: { namespace: string; name: string };
  let grantNodes: () => Promise<void>;
  const tenant = uniqueName('early');
  const namespace = `${tenant}-app`;

  beforeAll(async () => {
    await applyObject(tenantNamed(tenant, { namespaces: ['app'] }));
    await waitFor(`namespace ${namespace}`, async () => (await kubectl('admin', ['get', 'namespace', namespace])).code === 0, 60_000, 250);
    sa = { namespace: uniqueName('startup'), name: 'paddock' };
    const kubeconfig = await serviceAccountUser(sa.namespace, sa.name);
    const role = uniqueName('paddock-no-nodes');
    await applyObject(clusterRole(role, shippedRulesWithout('nodes')));
    await applyObject(bindingOf(role, role, sa));
    await applyObject(bindingOf(`${role}-auth-delegator`, 'system:auth-delegator', sa));
    await applyObject(bindingOf(`${role}-auth-reader`, 'extension-apiserver-authentication-reader', sa, 'kube-system'));
    grantNodes = async () => {
      await applyObject(clusterRole(`${role}-nodes`, [{ apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'watch'] }]));
      await applyObject(bindingOf(`${role}-nodes`, `${role}-nodes`, sa));
    };
    replica = await startPaddock(controlPlane(), kubeconfig, { name: role, mode: 'apiserver', extraArgs: TEST_PADDOCK_ARGS, waitReady: false });
  });

  afterAll(async () => {
    if (replica) await stopPaddock(replica);
    await kubectl('admin', ['delete', 'tenant', tenant, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', sa.namespace, '--wait=false']);
  });

  const at = (path: string, opts: Parameters<typeof httpsRequest>[1] = {}) =>
    httpsRequest(`https://127.0.0.1:${replica.port}${path}`, { cert: pki.users.alice, ...opts });

  it('is not ready, and answers every request for a resource with 429 and Retry-After, not from a half-filled cache', async () => {
    expect((await at('/readyz')).status).toBe(500);
    const requests = [
      at(TNS),
      at(`${TNS}?watch=1&timeoutSeconds=5`),
      at(`${TNS}/${namespace}`),
      at(TNS, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name: `${tenant}-more` }, spec: { tenant } }) }),
      at(`${TNS}/${namespace}`, { method: 'DELETE', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ dryRun: ['All'] }) }),
      at('/apis/tenancy.paddock.dev/v1alpha1/ownedtenants'),
    ];
    for (const res of await Promise.all(requests)) {
      expect([res.status, res.headers['retry-after']]).toEqual([429, '1']);
      expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, message: 'storage is (re)initializing', details: { retryAfterSeconds: 1 } });
    }
    // What needs no cache is served meanwhile.
    expect((await at('/apis/tenancy.paddock.dev/v1alpha1')).status).toBe(200);
    expect((await at('/livez')).status).toBe(200);
  });

  it('serves once the last cache has listed', async () => {
    await grantNodes();
    await waitFor('the replica ready', async () => (await at('/readyz')).status === 200, 120_000, 250);
    const list = await at(`${TNS}?fieldSelector=spec.tenant=${tenant}`);
    expect(list.status).toBe(200);
    expect(JSON.parse(list.body).items.map((i: any) => i.metadata.name)).toEqual([namespace]);
  });
});
