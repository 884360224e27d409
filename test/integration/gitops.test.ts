import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyObject, controlPlane, kubectl, kubectlJson, serviceAccountUser, uniqueName, waitFor } from './env';
import { helm } from './helm';
import { deleteTenants, tenant, waitTenantReady } from './node-env';

// A tenant's own delivery tool (a CI job, Argo CD or Flux running as a ServiceAccount the Tenant names
// as owner) deploying a Helm release into the tenant's namespaces with the real helm binary, and what
// happens to the namespace-creating options (`helm --create-namespace`, Argo CD's CreateNamespace=true)
// that GitOps tools offer: docs/gitops.md describes the same cases.

jest.setTimeout(180_000);

/** A small application chart: a ConfigMap and a ClusterIP Service, nothing that needs a node. */
function writeAppChart(dir: string): string {
  mkdirSync(join(dir, 'templates'), { recursive: true });
  writeFileSync(join(dir, 'Chart.yaml'), 'apiVersion: v2\nname: app\nversion: 0.1.0\n');
  writeFileSync(join(dir, 'values.yaml'), 'greeting: hello\n');
  writeFileSync(join(dir, 'templates', 'app.yaml'), [
    'apiVersion: v1', 'kind: ConfigMap', 'metadata: {name: "{{ .Release.Name }}-config"}', 'data: {greeting: "{{ .Values.greeting }}"}',
    '---',
    'apiVersion: v1', 'kind: Service', 'metadata: {name: "{{ .Release.Name }}"}', 'spec: {type: ClusterIP, selector: {app: "{{ .Release.Name }}"}, ports: [{port: 80}]}',
    '',
  ].join('\n'));
  return dir;
}

const tenantNamespace = (name: string, tenantName: string) =>
  JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name }, spec: { tenant: tenantName } });

describe('a ServiceAccount owner deploys with helm into its tenant namespaces', () => {
  const t = uniqueName('gitops');
  const saNs = `ci-${t}`;
  let deployer: string;
  let chart: string;

  beforeAll(async () => {
    deployer = await serviceAccountUser(saNs, 'deployer');
    chart = writeAppChart(join(controlPlane().dir, `chart-${t}`));
    await applyObject(tenant(t, { owners: [{ kind: 'ServiceAccount', name: 'deployer', namespace: saNs }], namespaces: ['apps'] }));
    await waitTenantReady(t);
  });

  afterAll(async () => {
    await deleteTenants(t);
    await kubectl('admin', ['delete', 'namespace', saNs, '--wait=false', '--ignore-not-found']);
  });

  test('helm install, upgrade and uninstall into a declared namespace work with the owner\'s rights alone', async () => {
    const ns = `${t}-apps`;
    const install = await helm(deployer, ['install', 'web', chart, '-n', ns]);
    expect(install.stderr).toBe('');
    expect(install.code).toBe(0);
    expect((await kubectlJson('admin', ['get', 'configmap', 'web-config', '-n', ns])).data).toEqual({ greeting: 'hello' });
    const upgrade = await helm(deployer, ['upgrade', 'web', chart, '-n', ns, '--set', 'greeting=bonjour']);
    expect(upgrade.code).toBe(0);
    expect((await kubectlJson('admin', ['get', 'configmap', 'web-config', '-n', ns])).data).toEqual({ greeting: 'bonjour' });
    // Helm keeps its release records as Secrets in the release's namespace: the owner's role allows them.
    const records = await kubectlJson(deployer, ['get', 'secrets', '-n', ns, '-l', 'owner=helm,name=web']);
    expect(records.items).toHaveLength(2);
    expect((await helm(deployer, ['uninstall', 'web', '-n', ns])).code).toBe(0);
    expect((await kubectl('admin', ['get', 'configmap', 'web-config', '-n', ns])).stderr).toMatch(/NotFound/);
  });

  test('helm --create-namespace answers 403: the owner may not create namespaces, not even one that exists', async () => {
    // A new name: helm first looks for the release's objects in the namespace, where the owner has no rights.
    const fresh = await helm(deployer, ['install', 'web', chart, '-n', `${t}-new`, '--create-namespace']);
    expect(fresh.code).not.toBe(0);
    expect(fresh.stderr).toMatch(new RegExp(`configmaps "web-config" is forbidden: User "system:serviceaccount:${saNs}:deployer" cannot get resource "configmaps" in API group "" in the namespace "${t}-new"`));
    expect((await kubectl('admin', ['get', 'namespace', `${t}-new`])).stderr).toMatch(/NotFound/);
    // The tenant's own namespace: kube-apiserver authorizes the create before it finds the name taken.
    const existing = await helm(deployer, ['install', 'web', chart, '-n', `${t}-apps`, '--create-namespace']);
    expect(existing.code).not.toBe(0);
    expect(existing.stderr).toMatch(new RegExp(`namespaces is forbidden: User "system:serviceaccount:${saNs}:deployer" cannot create resource "namespaces" in API group "" at the cluster scope`));
    expect((await kubectl('admin', ['get', 'configmap', 'web-config', '-n', `${t}-apps`])).stderr).toMatch(/NotFound/);
  });

  test('instead: a TenantNamespace (self-service, as the same owner), then helm install into it without --create-namespace', async () => {
    const ns = `${t}-review`;
    const created = await kubectl(deployer, ['create', '-f', '-'], tenantNamespace(ns, t));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    await waitFor(`namespace ${ns} Active`, async () => (await kubectl('admin', ['get', 'namespace', ns, '-o', 'jsonpath={.status.phase}'])).stdout === 'Active', 30_000, 250);
    const install = await helm(deployer, ['install', 'web', chart, '-n', ns]);
    expect(install.code).toBe(0);
    expect((await kubectlJson('admin', ['get', 'namespace', ns])).metadata.labels['paddock.dev/tenant']).toBe(t);
  });

  test('a namespace the tenant does not own answers 403 to the owner\'s helm, naming the namespace', async () => {
    const res = await helm(deployer, ['install', 'web', chart, '-n', 'default']);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(new RegExp(`User "system:serviceaccount:${saNs}:deployer" cannot (create|list|get) resource "[a-z]+" in API group "" in the namespace "default"`));
  });
});
