import { applyObject, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(120_000);

function tns(name: string, tenant: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespace', metadata: { name }, spec: { tenant, ...extra } });
}

const oil = uniqueName('ss');
const gas = uniqueName('ssg');

beforeAll(async () => {
  await applyObject(tenant(oil, {
    owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'gas-devs', role: 'viewer' }], namespaces: ['prod'], namespaceQuota: 3,
    resourceQuotas: [{ hard: { pods: '3' } }] }));
  await applyObject(tenant(gas, { owners: [{ kind: 'Group', name: 'gas-devs' }] }));
  // kubectl create -f validates fields on the server once kube-aggregator has Paddock's OpenAPI.
  await waitFor('the aggregated OpenAPI', async () => (await kubectl('alice', ['explain', 'tns'])).code === 0, 90_000, 1000);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenants', oil, gas, '--wait=false']);
});

describe('self-service namespaces', () => {
  it('lets an admin owner create one with kubectl create -f, provisioned like a declared one; a GET right after returns it', async () => {
    const name = `${oil}-dev`;
    const res = await kubectl('alice', ['create', '-f', '-'], tns(name, oil));
    expect(res.stderr).toBe('');
    expect(res.stdout).toBe(`tenantnamespace.tenancy.paddock.dev/${name} created\n`);
    const got = await kubectlJson('alice', ['get', 'tns', name]);
    expect(got.spec.tenant).toBe(oil);
    const ns = await kubectlJson('admin', ['get', 'namespace', name]);
    expect(ns.metadata.labels).toMatchObject({ 'paddock.dev/tenant': oil, 'pod-security.kubernetes.io/enforce': 'baseline' });
    await waitFor('its guardrails', async () => (await kubectl('admin', ['get', 'resourcequota/paddock-quota-0', 'networkpolicy/paddock-isolation', '-n', name])).code === 0, 30_000, 250);
  });

  it('refuses a name outside the tenant, a non-owner, a viewer owner and an existing namespace', async () => {
    const wrongPrefix = await kubectl('alice', ['create', '-f', '-'], tns(`${gas}-x`, oil));
    expect(wrongPrefix.stderr).toMatch(/is invalid: metadata.name: Invalid value: .*must start with/);
    const stranger = await kubectl('carol', ['create', '-f', '-'], tns(`${oil}-carol`, oil));
    expect(stranger.stderr).toMatch(/Error from server \(Forbidden\)/);
    const viewer = await kubectl('bob', ['create', '-f', '-'], tns(`${oil}-bob`, oil));
    expect(viewer.stderr).toMatch(/Error from server \(Forbidden\).*admin owner/);
    const existing = await kubectl('alice', ['create', '-f', '-'], tns(`${oil}-prod`, oil));
    expect(existing.stderr).toBe(`Error from server (AlreadyExists): error when creating "STDIN": tenantnamespaces.tenancy.paddock.dev "${oil}-prod" already exists\n`);
  });

  it('refuses unknown fields (kubectl validates on the server) and validates without writing under --dry-run=server', async () => {
    const unknown = await kubectl('alice', ['create', '-f', '-'], tns(`${oil}-typo`, oil, { tennant: 'x' }));
    expect(unknown.stderr).toContain('unknown field "spec.tennant"');
    const dry = await kubectl('alice', ['create', '-f', '-', '--dry-run=server'], tns(`${oil}-dry`, oil));
    expect(dry.stdout).toContain('created (server dry run)');
    expect((await kubectl('admin', ['get', 'namespace', `${oil}-dry`])).code).not.toBe(0);
  });

  it('holds namespaceQuota under concurrent requests', async () => {
    // Quota 3: prod and dev exist; of four concurrent creates exactly one may win.
    const names = ['a', 'b', 'c', 'd'].map((s) => `${oil}-race-${s}`);
    const results = await Promise.all(names.map((n) => kubectl('alice', ['create', '-f', '-'], tns(n, oil))));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 0)) expect(r.stderr).toMatch(/Forbidden|namespaceQuota/);
    await waitFor('the losers to be gone', async () => {
      const live = (await kubectlJson('admin', ['get', 'namespaces', '-l', `paddock.dev/tenant=${oil}`])).items.filter((n: any) => !n.metadata.deletionTimestamp);
      return live.length === 3;
    }, 30_000, 250);
  });

  it('deletes a self-service namespace, and refuses a declared one with a reason', async () => {
    const declared = await kubectl('alice', ['delete', 'tns', `${oil}-prod`]);
    expect(declared.stderr).toMatch(/Error from server \(Forbidden\).*declared in spec.namespaces/);
    const res = await kubectl('alice', ['delete', 'tns', `${oil}-dev`, '--wait=false']);
    expect(res.stdout).toBe(`tenantnamespace.tenancy.paddock.dev "${oil}-dev" deleted\n`);
    await waitFor('the namespace to go', async () => {
      const r = await kubectl('admin', ['get', 'namespace', `${oil}-dev`, '-o', 'jsonpath={.status.phase}']);
      return r.code !== 0 || r.stdout === 'Terminating';
    }, 30_000, 250);
  });
});
