import { resolve } from 'node:path';
import { kubectl, parseTable, uniqueName, waitFor } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

// Each test runs real kubectl against the control plane: seconds apiece on a loaded machine, not Jest's 5 s default.
jest.setTimeout(60_000);

const REPO = resolve(__dirname, '..', '..');

/** Tenant `name` with `spec` (deliberately invalid in some tests), as kubectl reads it from stdin. */
function manifest(name: string, spec: Record<string, unknown>): string {
  return JSON.stringify(tenant(name, spec as Partial<TenantSpec>));
}

describe('the Tenant CRD', () => {
  const created: string[] = [];
  afterAll(async () => {
    if (created.length) await kubectl('admin', ['delete', 'tenants', ...created, '--ignore-not-found', '--wait=false']);
  });

  it('accepts a valid Tenant and applies defaults', async () => {
    const name = uniqueName('valid');
    const res = await kubectl('admin', ['create', '-o', 'json', '-f', '-'], manifest(name, {
      owners: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'viewer' }],
      namespaces: ['production', 'staging'],
      namespaceQuota: 5,
    }));
    expect(res.stderr).toBe('');
    created.push(name);
    const obj = JSON.parse(res.stdout);
    expect(obj.spec.owners[0].role).toBe('admin');
    expect(obj.spec.networkIsolation).toBe(true);
    expect(obj.spec.podSecurity).toEqual({ enforce: 'baseline', version: 'latest' });
    expect(obj.spec.deletionPolicy).toBe('Retain');
  });

  it.each([
    ['no owners', { owners: [] }, 'spec.owners'],
    ['an unknown role', { owners: [{ kind: 'User', name: 'alice', role: 'root' }] }, 'spec.owners[0].role'],
    ['an unknown owner kind', { owners: [{ kind: 'Robot', name: 'r2d2' }] }, 'spec.owners[0].kind'],
    ['a negative namespaceQuota', { owners: [{ kind: 'User', name: 'alice' }], namespaceQuota: -1 }, 'spec.namespaceQuota'],
    ['a bad podSecurity level', { owners: [{ kind: 'User', name: 'alice' }], podSecurity: { enforce: 'lax' } }, 'spec.podSecurity.enforce'],
    ['a ServiceAccount owner without a namespace', { owners: [{ kind: 'ServiceAccount', name: 'deployer' }] }, 'spec.owners[0]'],
    ['a namespace name that is not a DNS label', { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['Prod_1'] }, 'spec.namespaces[0]'],
  ])('refuses a Tenant with %s, naming the field', async (_what, spec, field) => {
    const res = await kubectl('admin', ['create', '-f', '-'], manifest(uniqueName('invalid'), spec));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('is invalid');
    expect(res.stderr).toContain(field);
  });

  it('prints NAMESPACES, QUOTA, READY and AGE, and OWNERS, PHASE, RESOLVEDREFS, BUDGET and USED with -o wide', async () => {
    const name = uniqueName('columns');
    await kubectl('admin', ['create', '-f', '-'], manifest(name, { owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops', role: 'viewer' }], namespaces: ['x'], namespaceQuota: 7 }));
    created.push(name);
    let wide: Record<string, string>[] = [];
    await waitFor('the reconciler to report', async () => {
      const res = await kubectl('admin', ['get', 'tenants', name, '-o', 'wide']);
      expect(res.stdout.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'NAMESPACES', 'QUOTA', 'READY', 'AGE', 'OWNERS', 'PHASE', 'RESOLVEDREFS', 'BUDGET', 'USED']);
      wide = parseTable(res.stdout);
      return wide[0]?.PHASE === 'Active';
    }, 30_000, 200);
    expect(wide).toEqual([{ NAME: name, NAMESPACES: '1', QUOTA: '7', READY: 'True', AGE: expect.stringMatching(/^\d+s$/),
      OWNERS: 'User/alice:admin,Group/ops:viewer', PHASE: 'Active', RESOLVEDREFS: 'True', BUDGET: '', USED: '' }]); // no status.quota: empty cells
    const plain = await kubectl('admin', ['get', 'tenants', name]);
    expect(plain.stdout.split('\n')[0].split(/\s+/)).toEqual(['NAME', 'NAMESPACES', 'QUOTA', 'READY', 'AGE']);
  });

  it('belongs to the paddock-admin category, not to paddock (which every caller can list)', async () => {
    const admin = await kubectl('admin', ['api-resources', '--categories=paddock-admin', '-o', 'name']);
    expect(admin.stdout.split('\n')).toContain('tenants.paddock.dev');
    const all = await kubectl('admin', ['api-resources', '--categories=paddock', '-o', 'name']);
    expect(all.stdout.split('\n')).not.toContain('tenants.paddock.dev');
  });
});

describe('the local control plane', () => {
  it.each([
    ['alice', 'alice', []],
    ['bob', 'bob', ['gas-devs']],
    ['carol', 'carol', []],
  ])('authenticates %s by client certificate', async (user, name, groups) => {
    const res = await kubectl(user, ['auth', 'whoami', '-o', 'json']);
    expect(res.stderr).toBe('');
    const info = JSON.parse(res.stdout).status.userInfo;
    expect(info.username).toBe(name);
    expect(info.groups).toEqual([...groups, 'system:authenticated']);
  });

  it('wires the aggregation layer into extension-apiserver-authentication', async () => {
    const res = await kubectl('admin', ['get', 'configmap', '-n', 'kube-system', 'extension-apiserver-authentication', '-o', 'json']);
    const data = JSON.parse(res.stdout).data;
    expect(data['client-ca-file']).toContain('BEGIN CERTIFICATE');
    expect(data['requestheader-client-ca-file']).toContain('BEGIN CERTIFICATE');
    expect(data['requestheader-client-ca-file']).not.toEqual(data['client-ca-file']);
    expect(JSON.parse(data['requestheader-allowed-names'])).toEqual(['front-proxy-client']);
    expect(JSON.parse(data['requestheader-username-headers'])).toEqual(['X-Remote-User']);
    expect(JSON.parse(data['requestheader-group-headers'])).toEqual(['X-Remote-Group']);
    expect(JSON.parse(data['requestheader-extra-headers-prefix'])).toEqual(['X-Remote-Extra-']);
  });

  it('runs kube-controller-manager: the default ServiceAccount appears in a new namespace', async () => {
    const ns = uniqueName('kcm');
    await kubectl('admin', ['create', 'namespace', ns]);
    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      found = (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', ns])).code === 0;
      if (!found) await new Promise((r) => setTimeout(r, 200));
    }
    await kubectl('admin', ['delete', 'namespace', ns, '--wait=false']);
    expect(found).toBe(true);
  });

  it('accepts the install manifests: kubectl apply -k apiservice/ --dry-run=server', async () => {
    // A server-side dry run cannot place objects in a namespace that does not exist yet.
    await kubectl('admin', ['create', 'namespace', 'paddock-system']);
    const res = await kubectl('admin', ['apply', '-k', resolve(REPO, 'apiservice'), '--dry-run=server']);
    expect(res.stderr).not.toMatch(/error/i);
    expect(res.code).toBe(0);
    for (const object of ['apiservice.apiregistration.k8s.io/v1alpha1.tenancy.paddock.dev', 'deployment.apps/paddock', 'poddisruptionbudget.policy/paddock',
      'customresourcedefinition.apiextensions.k8s.io/tenants.paddock.dev', 'clusterrole.rbac.authorization.k8s.io/paddock:tenant-admin']) {
      expect(res.stdout).toMatch(new RegExp(`${object.replace(/\./g, '\\.')} (created|configured|unchanged) \\(server dry run\\)`));
    }
  });
});
