import { accepted, readyWithRestriction, refused } from './admission-answers';
import { applyObject, kubectl, kubectlJson, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * Gateway API classes and hostnames (SPEC §10), enforced by kube-apiserver itself: as the owner alice,
 * in her own namespace, through real kubectl against the real control plane with Gateway API's
 * standard-channel CRDs, which the test bed installs after Paddock has started. No controller serves
 * a Gateway here: admission is all that is judged.
 */
const id = uniqueName('gwh').slice(4);
const name = `gwh-${id}`;
const ns = `${name}-app`;
const domain = `oil-${id}.example.com`;
const [internal, external, shared] = [`internal-${id}`, `external-${id}`, `shared-${id}`];
const tier = `tier-${id}`;

const gatewayClass = (n: string) => ({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: n }, spec: { controllerName: 'example.com/none' } });
const classes = [gatewayClass(internal), gatewayClass(external), gatewayClass(shared)];

const tenantSpec = {
  owners: [{ kind: 'User', name: 'alice' }],
  namespaces: ['app'],
  gatewayClasses: { allowed: [internal], selector: { matchLabels: { [tier]: 'gold' } }, default: internal },
  hostnames: { allowed: [`*.${domain}`, `api.other-${id}.example.com`] },
} satisfies Partial<TenantSpec>;

/** `kubectl create --dry-run=server` as `user` in the tenant namespace: admission runs in full, nothing is stored. */
function dryRun(obj: unknown, user = 'alice'): Promise<KubectlResult> {
  return kubectl(user, ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
}

const listener = (hostname?: string, protocol = 'HTTP') => ({ name: `l${Math.random().toString(36).slice(2, 8)}`, port: 80, protocol, ...(hostname === undefined ? {} : { hostname }) });
const gateway = (className: string | undefined, ...listeners: unknown[]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'gw' },
  spec: { ...(className === undefined ? {} : { gatewayClassName: className }), listeners: listeners.length ? listeners : [listener(`www.${domain}`)] },
});
const route = (kind: 'HTTPRoute' | 'GRPCRoute' | 'TLSRoute', hostnames?: string[]) => ({
  apiVersion: 'gateway.networking.k8s.io/v1', kind, metadata: { name: 'r' },
  spec: { parentRefs: [{ name: 'gw' }], ...(hostnames ? { hostnames } : {}), ...(kind === 'TLSRoute' ? { rules: [{ backendRefs: [{ name: 'svc', port: 443 }] }] } : {}) },
});
const ingress = (hosts: string[], tlsHosts: string[] = []) => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'in' },
  spec: {
    rules: hosts.map((host) => ({ ...(host === '' ? {} : { host }), http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'svc', port: { number: 80 } } } }] } })),
    ...(tlsHosts.length ? { tls: [{ hosts: tlsHosts, secretName: 'cert' }] } : {}),
  },
});

const getTenant = (): Promise<any> => kubectlJson('admin', ['get', 'tenant', name]);
const allowedText = `allowed: *.${domain}, api.other-${id}.example.com`;

beforeAll(async () => {
  await waitFor('Gateway API served', async () => (await kubectl('admin', ['get', 'crd', 'gatewayclasses.gateway.networking.k8s.io'])).code === 0, 120_000, 500);
  for (const c of classes) await applyObject(c);
  await applyObject(tenant(name, tenantSpec));
  await readyWithRestriction(name, ns);
  await waitFor('kube-apiserver enforcing the tenant policy', async () => (await dryRun(ingress([`www.gas-${id}.example.com`]))).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
});

/** The tenants of the allocation suite: two racing for one pattern, and one that lists no hostnames. */
const [racerA, racerB, free] = [`${name}-ra`, `${name}-rb`, `${name}-free`];
const raceDomain = `race-${id}.example.com`;

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, racerA, racerB, free, '--wait=false', '--ignore-not-found']);
  await kubectl('admin', ['delete', '-f', '-', '--wait=false'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: classes }));
});

describe('gatewayClasses', () => {
  it('are resolved into status.allowed once Paddock sees GatewayClasses (installed after it started)', async () => {
    await waitFor('gateway classes in status.allowed', async () => ((await getTenant()).status.allowed?.gatewayClasses ?? []).includes(internal), 60_000, 250);
    expect((await getTenant()).status.allowed.gatewayClasses).toEqual([internal]);
  });

  it('a Gateway naming a class not allowed is refused, naming the class, the tenant and what is allowed', async () => {
    refused(await dryRun(gateway(external)), `gateway class "${external}" is not allowed`, `(tenant ${name})`, `allowed: ${internal}`);
  });

  it('a Gateway naming an allowed class is accepted; one naming none gets the default', async () => {
    expect(accepted(await dryRun(gateway(internal))).spec.gatewayClassName).toBe(internal);
    expect(accepted(await dryRun(gateway(undefined))).spec.gatewayClassName).toBe(internal);
  });

  it('a class whose labels match the selector is allowed once status.allowed shows it', async () => {
    refused(await dryRun(gateway(shared)), `gateway class "${shared}" is not allowed`);
    await kubectl('admin', ['label', 'gatewayclass', shared, `${tier}=gold`]);
    await waitFor('relabelled class in status.allowed', async () => ((await getTenant()).status.allowed.gatewayClasses ?? []).includes(shared), 30_000, 100);
    await waitFor('kube-apiserver accepting the relabelled class', async () => (await dryRun(gateway(shared))).code === 0, 30_000, 100);
  });

  it('an update changing the class is judged; one keeping it is not', async () => {
    accepted(await kubectl('alice', ['create', '-n', ns, '-o', 'json', '-f', '-'], JSON.stringify({ ...gateway(internal), metadata: { name: 'kept' } })));
    const change = (className: string) => kubectl('alice', ['patch', 'gateway', 'kept', '-n', ns, '--dry-run=server', '-o', 'json', '--type=merge', '-p', JSON.stringify({ spec: { gatewayClassName: className } })]);
    const res = await change(external);
    // Gateway API itself may hold the class immutable; either way the disallowed class never lands.
    expect(res.code).not.toBe(0);
    expect((await kubectl('alice', ['label', 'gateway', 'kept', '-n', ns, '--dry-run=server', 'touched=yes'])).code).toBe(0);
  });
});

describe('hostnames', () => {
  it('an Ingress host outside the patterns, in a rule or in TLS, is refused naming it, the tenant and what is allowed', async () => {
    refused(await dryRun(ingress([`www.gas-${id}.example.com`])), `hostname "www.gas-${id}.example.com" is not allowed`, `(tenant ${name})`, allowedText);
    refused(await dryRun(ingress([`www.${domain}`], [`www.gas-${id}.example.com`])), `hostname "www.gas-${id}.example.com" is not allowed`);
    refused(await dryRun(ingress([domain])), `hostname "${domain}" is not allowed`);
  });

  it("an Ingress wildcard matches one label, as ingress controllers match it: a deeper host is refused", async () => {
    refused(await dryRun(ingress([`a.b.${domain}`])), `hostname "a.b.${domain}" is not allowed`);
    refused(await dryRun(ingress([`*.b.${domain}`])), `hostname "*.b.${domain}" is not allowed`);
  });

  it('an Ingress rule without a host (it would serve every host) is refused', async () => {
    refused(await dryRun(ingress([''])), 'hostname "(none: every host)" is not allowed');
  });

  it('Ingress hosts within the patterns are accepted: one label under the wildcard, the wildcard itself, an exact name', async () => {
    accepted(await dryRun(ingress([`www.${domain}`, `*.${domain}`, `api.other-${id}.example.com`], [`www.${domain}`])));
  });

  it('kube-apiserver refuses upper case and trailing dots itself: the patterns compare with what it stores', async () => {
    for (const host of [`WWW.${domain}`, `www.${domain}.`]) {
      const res = await dryRun(ingress([host]));
      expect(res.code).not.toBe(0);
      expect(res.stderr).not.toContain('paddock-tenant-restrictions');
    }
  });

  it.each(['HTTPRoute', 'GRPCRoute', 'TLSRoute'] as const)('a %s hostname outside the patterns, or none, is refused; within them (any depth, as Gateway API matches) accepted', async (kind) => {
    refused(await dryRun(route(kind, [`www.gas-${id}.example.com`])), `hostname "www.gas-${id}.example.com" is not allowed`, `(tenant ${name})`, allowedText);
    refused(await dryRun(route(kind, [`api.other-${id}.example.com`, `x.api.other-${id}.example.com`])), `hostname "x.api.other-${id}.example.com" is not allowed`);
    if (kind !== 'TLSRoute') refused(await dryRun(route(kind)), 'hostname "(none: every host)" is not allowed');
    accepted(await dryRun(route(kind, [`www.${domain}`, `a.b.${domain}`, `*.b.${domain}`, `api.other-${id}.example.com`])));
  });

  it('a Gateway listener hostname outside the patterns, or an HTTP listener without one, is refused; a TCP listener needs none', async () => {
    refused(await dryRun(gateway(internal, listener(`www.gas-${id}.example.com`))), `hostname "www.gas-${id}.example.com" is not allowed`, `(tenant ${name})`);
    refused(await dryRun(gateway(internal, listener(undefined, 'HTTPS'))), 'hostname "(none: every host)" is not allowed');
    accepted(await dryRun(gateway(internal, listener(`*.${domain}`), listener(undefined, 'TCP'))));
  });

  it('an update that changes the hosts is judged; one that keeps them is not', async () => {
    accepted(await kubectl('alice', ['create', '-n', ns, '-o', 'json', '-f', '-'], JSON.stringify({ ...route('HTTPRoute', [`www.${domain}`]), metadata: { name: 'kept' } })));
    const change = (hosts: string[]) => kubectl('alice', ['patch', 'httproute', 'kept', '-n', ns, '--dry-run=server', '-o', 'json', '--type=merge', '-p', JSON.stringify({ spec: { hostnames: hosts } })]);
    refused(await change([`www.gas-${id}.example.com`]), `hostname "www.gas-${id}.example.com" is not allowed`);
    accepted(await change([`web.${domain}`]));
    expect((await kubectl('alice', ['label', 'httproute', 'kept', '-n', ns, '--dry-run=server', 'touched=yes'])).code).toBe(0);
  });

  it('a pattern that is not a hostname is refused by the schema, naming the field', async () => {
    for (const bad of ['API.example.com', 'api.example.com.', 'a.*.example.com', '10.0.0.1']) {
      const res = await kubectl('admin', ['create', '--dry-run=server', '-f', '-'], JSON.stringify(tenant(`${name}-bad`, { owners: [{ kind: 'User', name: 'alice' }], hostnames: { allowed: [bad] } })));
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('spec.hostnames.allowed[0]');
    }
  });
});

const readyOf = (t: any) => t.status?.conditions?.find((c: any) => c.type === 'Ready');
/** The Ready condition of `tenantName` once it speaks of the current generation. */
async function decided(tenantName: string): Promise<any> {
  let ready: any;
  await waitFor(`tenant ${tenantName} decided`, async () => {
    const t = await kubectlJson('admin', ['get', 'tenant', tenantName]);
    ready = readyOf(t);
    return ready !== undefined && t.status?.observedGeneration === t.metadata.generation && ['Reconciled', 'HostnameConflict'].includes(ready.reason);
  }, 60_000, 200);
  return ready;
}
const ledger = async (): Promise<Record<string, string>> => (await kubectlJson('admin', ['get', 'tenantrestriction', 'paddock-hostnames', '-n', 'paddock-system'])).spec.hostnameHolders ?? {};

describe('hostnames are allocated: one tenant per pattern', () => {
  let winner: string;
  let loser: string;

  it('two tenants racing for overlapping patterns: exactly one holds them, the other is refused (HostnameConflict) without naming the holder', async () => {
    const spec = (allowed: string[]): Partial<TenantSpec> => ({ owners: [{ kind: 'User', name: 'bob' }], namespaces: ['app'], hostnames: { allowed } });
    // One request creates both: their first passes run as close together as the reconciler's workers allow.
    const both = { apiVersion: 'v1', kind: 'List', items: [tenant(racerA, spec([`*.${raceDomain}`])), tenant(racerB, spec([`api.${raceDomain}`, `www.b-${id}.example.com`]))] };
    expect((await kubectl('admin', ['create', '-f', '-'], JSON.stringify(both))).code).toBe(0);
    const [a, b] = [await decided(racerA), await decided(racerB)];
    expect([a.reason, b.reason].sort()).toEqual(['HostnameConflict', 'Reconciled']);
    [winner, loser] = a.reason === 'Reconciled' ? [racerA, racerB] : [racerB, racerA];
    const refusal = winner === racerA ? b : a;
    expect(refusal.status).toBe('False');
    expect(refusal.message).toContain(winner === racerA ? `api.${raceDomain}` : `*.${raceDomain}`);
    expect(refusal.message).not.toContain(winner);
    // The refused tenant holds nothing and got no namespace; the ledger names only the winner.
    const held = await ledger();
    expect(Object.values(held)).not.toContain(loser);
    expect(Object.values(held)).toContain(winner);
    expect((await kubectl('admin', ['get', 'namespace', `${loser}-app`])).code).not.toBe(0);
  });

  it("a tenant listing no hostnames is refused a host inside another tenant's pattern, by kube-apiserver, and may use any other", async () => {
    await applyObject(tenant(free, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app'] }));
    const freeNs = `${free}-app`;
    await waitFor(`the TenantRestriction of ${free}`, async () => (await kubectl('admin', ['get', '-n', freeNs, 'tenantrestriction/paddock-restrictions'])).code === 0, 60_000, 250);
    const create = (obj: unknown) => kubectl('alice', ['create', '-n', freeNs, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
    await waitFor('kube-apiserver admitting in the new namespace', async () => (await create(ingress([`www.free-${id}.example.com`]))).code === 0, 30_000, 250);
    for (const obj of [ingress([`www.${domain}`]), route('HTTPRoute', [`*.${domain}`]), route('GRPCRoute', [`x.www.${domain}`]), gateway(internal, listener(`*.example.com`))]) {
      const res = await create(obj);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('paddock-tenant-hostnames');
      expect(res.stderr).toContain('is allocated to another tenant');
      expect(res.stderr).not.toContain(`tenant ${name})`);
    }
    accepted(await create(ingress([`www.free-${id}.example.com`, domain])));
    // Without a host, a rule or route serves every host, the held ones too.
    for (const obj of [route('HTTPRoute'), ingress([''])]) {
      const res = await create(obj);
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('hostname "(none: every host)" is allocated to another tenant');
    }
  });

  it('the holder deleted, its patterns are released and the refused tenant gets them', async () => {
    await kubectl('admin', ['delete', 'tenant', winner, '--wait=false']);
    await waitFor(`${loser} Ready once ${winner} released its patterns`, async () => readyOf(await kubectlJson('admin', ['get', 'tenant', loser]))?.reason === 'Reconciled', 60_000, 250);
    const held = await ledger();
    expect(Object.values(held)).not.toContain(winner);
    expect(Object.values(held)).toContain(loser);
  });
});
