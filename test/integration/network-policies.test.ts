import { refused } from './admission-answers';
import { applyObject, kubectl, kubectlJson, uniqueName, waitFor, type KubectlResult } from './env';
import type { TenantSpec } from '../../src/kube/types';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(180_000);

/**
 * NetworkPolicies of a tenant's own (SPEC §10): the owner alice, a tenant admin, writes them with real
 * kubectl; kube-apiserver refuses, through the restrictions policy, any whose ingress could admit a
 * source outside the tenant and the sources its Tenant lists in spec.networkPolicyIngressFrom, naming
 * the rule and peer and what is allowed. Egress is free. Paddock's own policies are not held to it,
 * and are not the owner's to change.
 */
const POLICY = 'paddock-tenant-restrictions';
const INGRESS_NS = 'ingress-system';

const netpol = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec: { podSelector: {}, ...spec } });
const from = (...peers: Record<string, unknown>[]) => ({ ingress: [{ from: peers }] });
const tenantPeer = (t: string, more: Record<string, unknown> = {}) => ({ namespaceSelector: { matchLabels: { 'paddock.dev/tenant': t, ...more } } });
const namedPeer = (ns: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } });
const ipBlock = (cidr: string, except?: string[]) => ({ ipBlock: { cidr, ...(except ? { except } : {}) } });

const dryRun = (ns: string, obj: unknown): Promise<KubectlResult> => kubectl('alice', ['create', '-n', ns, '--dry-run=server', '-f', '-'], JSON.stringify(obj));

function accepted(res: KubectlResult): void {
  if (res.code !== 0) throw new Error(`refused: ${res.stderr}`);
}

const tenants: string[] = [];

/** A tenant of alice's with one namespace `<name>-app`, once kube-apiserver holds its NetworkPolicies. */
async function policyTenant(prefix: string, more: Partial<TenantSpec> = {}): Promise<{ name: string; ns: string }> {
  const name = uniqueName(prefix);
  tenants.push(name);
  await applyObject(tenant(name, { namespaces: ['app'], ...more }));
  const ns = `${name}-app`;
  await waitFor(`kube-apiserver holding ${name}'s NetworkPolicies`, async () => (await dryRun(ns, netpol('probe', { ingress: [{}] }))).stderr.includes(POLICY), 60_000, 250);
  return { name, ns };
}

afterAll(async () => {
  if (tenants.length > 0) await kubectl('admin', ['delete', 'tenant', ...tenants, '--wait=false']);
});

describe('a tenant that lists an ingress namespace and a CIDR', () => {
  let t: { name: string; ns: string };
  beforeAll(async () => {
    t = await policyTenant('np', { networkPolicyIngressFrom: { namespaces: { allowed: [INGRESS_NS] }, ipBlocks: { allowed: ['203.0.113.0/24', '2001:db8:113::/48'] } } });
  });

  it('refuses an ingress rule without from, or with an empty list of peers: it admits every source', async () => {
    refused(await dryRun(t.ns, netpol('open', { ingress: [{}] })), POLICY, 'spec.ingress[0] (no from: every source)', `(tenant ${t.name})`,
      `allowed peers: a podSelector alone, a namespaceSelector with matchLabels paddock.dev/tenant: ${t.name}, or kubernetes.io/metadata.name: one of ${INGRESS_NS}, an ipBlock within 203.0.113.0/24, 2001:db8:113::/48`);
    refused(await dryRun(t.ns, netpol('open', { ingress: [{ from: [] }] })), 'spec.ingress[0] (no from: every source)');
    refused(await dryRun(t.ns, netpol('open', { ingress: [{ ports: [{ port: 8080 }] }] })), 'spec.ingress[0] (no from: every source)');
  });

  it('refuses a namespaceSelector not pinned to the tenant by matchLabels, naming rule and peer', async () => {
    const unpinned = 'namespaceSelector is not pinned to the tenant or an allowed namespace';
    refused(await dryRun(t.ns, netpol('all', from({ namespaceSelector: {} }))), `spec.ingress[0].from[0] (${unpinned})`);
    refused(await dryRun(t.ns, netpol('other', from(tenantPeer('someone-else')))), `spec.ingress[0].from[0] (${unpinned})`);
    refused(await dryRun(t.ns, netpol('expr', from({ namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'In', values: [t.name] }] } }))), `spec.ingress[0].from[0] (${unpinned})`);
    refused(await dryRun(t.ns, netpol('named', from(namedPeer('kube-system')))), `spec.ingress[0].from[0] (${unpinned})`);
    refused(await dryRun(t.ns, netpol('pods', from({ namespaceSelector: {}, podSelector: { matchLabels: { app: 'web' } } }))), `spec.ingress[0].from[0] (${unpinned})`);
    // The second rule's third peer, with every other peer fine.
    const res = await dryRun(t.ns, netpol('deep', { ingress: [from(tenantPeer(t.name)).ingress[0], { from: [{ podSelector: {} }, namedPeer(INGRESS_NS), { namespaceSelector: { matchLabels: { team: 'x' } } }] }] }));
    refused(res, `not allowed: spec.ingress[1].from[2] (${unpinned});`);
    expect(res.stderr).not.toContain('spec.ingress[0]');
    expect(res.stderr).not.toContain('from[1]');
  });

  it('refuses an ipBlock not within a listed CIDR', async () => {
    refused(await dryRun(t.ns, netpol('world', from(ipBlock('0.0.0.0/0', ['10.0.0.0/8'])))), 'spec.ingress[0].from[0] (ipBlock 0.0.0.0/0 is not within an allowed CIDR)');
    refused(await dryRun(t.ns, netpol('wider', from(ipBlock('203.0.112.0/23')))), 'ipBlock 203.0.112.0/23 is not within an allowed CIDR');
    refused(await dryRun(t.ns, netpol('pods', from(ipBlock('10.244.0.0/16')))), 'ipBlock 10.244.0.0/16 is not within an allowed CIDR');
    refused(await dryRun(t.ns, netpol('v6', from(ipBlock('2001:db8::/32')))), 'ipBlock 2001:db8::/32 is not within an allowed CIDR');
  });

  it('accepts ingress from its own namespaces, the listed namespace and CIDRs, with narrowing terms; and any egress', async () => {
    accepted(await dryRun(t.ns, netpol('same-ns', from({ podSelector: { matchLabels: { app: 'web' } } }))));
    accepted(await dryRun(t.ns, netpol('tenant', from(tenantPeer(t.name)))));
    accepted(await dryRun(t.ns, netpol('narrow', from({ ...tenantPeer(t.name, { 'kubernetes.io/metadata.name': t.ns }), podSelector: { matchLabels: { role: 'frontend' } } }))));
    accepted(await dryRun(t.ns, netpol('expr', from({ namespaceSelector: { matchLabels: { 'paddock.dev/tenant': t.name }, matchExpressions: [{ key: 'team', operator: 'NotIn', values: ['x'] }] } }))));
    accepted(await dryRun(t.ns, netpol('ingress', from(namedPeer(INGRESS_NS)))));
    accepted(await dryRun(t.ns, netpol('cidr', from(ipBlock('203.0.113.0/25', ['203.0.113.0/28']), ipBlock('2001:db8:113:1::/64')))));
    accepted(await dryRun(t.ns, netpol('deny-all', { policyTypes: ['Ingress'] })));
    accepted(await dryRun(t.ns, netpol('egress', { policyTypes: ['Egress'], egress: [{}, { to: [ipBlock('0.0.0.0/0'), { namespaceSelector: {} }] }] })));
  });

  it('holds an update to the same rule: a policy created within it cannot be opened', async () => {
    accepted(await kubectl('alice', ['create', '-n', t.ns, '-f', '-'], JSON.stringify(netpol('web', from(tenantPeer(t.name))))));
    const open = (dry: string[]) => kubectl('alice', ['patch', 'networkpolicy', 'web', '-n', t.ns, '--type=json', ...dry, '-p', JSON.stringify([{ op: 'add', path: '/spec/ingress/0/from/-', value: ipBlock('0.0.0.0/0') }])]);
    refused(await open(['--dry-run=server']), 'spec.ingress[0].from[1] (ipBlock 0.0.0.0/0 is not within an allowed CIDR)');
    refused(await open([]), 'spec.ingress[0].from[1]');
    refused(await kubectl('alice', ['patch', 'networkpolicy', 'web', '-n', t.ns, '--type=merge', '-p', JSON.stringify({ spec: { ingress: [{}] } })]), 'spec.ingress[0] (no from: every source)');
    accepted(await kubectl('alice', ['patch', 'networkpolicy', 'web', '-n', t.ns, '--type=merge', '-p', JSON.stringify({ spec: { ingress: [from(namedPeer(INGRESS_NS)).ingress[0]] } })]));
    expect((await kubectlJson('admin', ['get', 'networkpolicy', 'web', '-n', t.ns])).spec.ingress).toEqual([{ from: [namedPeer(INGRESS_NS)] }]);
    accepted(await kubectl('alice', ['delete', 'networkpolicy', 'web', '-n', t.ns]));
  });

  it("leaves Paddock's isolation policy alone and not the owner's to change", async () => {
    // A delete, and an update the restriction itself would let through (a label): only the fence refuses.
    for (const res of [
      await kubectl('alice', ['delete', 'networkpolicy', 'paddock-isolation', '-n', t.ns]),
      await kubectl('alice', ['patch', 'networkpolicy', 'paddock-isolation', '-n', t.ns, '--type=merge', '-p', '{"metadata":{"labels":{"mine":"yes"}}}']),
    ]) {
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('paddock-managed-objects');
      expect(res.stderr).toContain(`NetworkPolicy paddock-isolation is managed by Paddock for tenant ${t.name}`);
    }
    // Opening it is refused too — by the fence or by the restriction, whichever kube-apiserver reports first.
    const open = await kubectl('alice', ['patch', 'networkpolicy', 'paddock-isolation', '-n', t.ns, '--type=merge', '-p', '{"spec":{"ingress":[{}]}}']);
    expect(open.code).not.toBe(0);
    expect(open.stderr).toMatch(/paddock-managed-objects|spec\.ingress\[0\] \(no from: every source\)/);
    expect((await kubectlJson('admin', ['get', 'networkpolicy', 'paddock-isolation', '-n', t.ns])).spec.ingress[0].from).toBeDefined();
  });
});

describe('a tenant that lists no sources', () => {
  let t: { name: string; ns: string };
  beforeAll(async () => {
    // The cluster admin's own policy for it, open to all: Paddock writes it, and it is not held to the owners' rule.
    t = await policyTenant('np-none', { networkPolicies: [{ podSelector: { matchLabels: { app: 'public' } }, ingress: [{}] }] });
  });

  it('is refused any namespace by name and any ipBlock, with none named as allowed', async () => {
    refused(await dryRun(t.ns, netpol('ingress', from(namedPeer(INGRESS_NS)))), 'spec.ingress[0].from[0] (namespaceSelector is not pinned', 'one of none', 'an ipBlock within none');
    refused(await dryRun(t.ns, netpol('cidr', from(ipBlock('203.0.113.0/24')))), 'spec.ingress[0].from[0] (ipBlock 203.0.113.0/24 is not within an allowed CIDR)');
    accepted(await dryRun(t.ns, netpol('tenant', from(tenantPeer(t.name)))));
  });

  it("has Paddock's policy from spec.networkPolicies in place, however open", async () => {
    await waitFor('paddock-policy-0 written', async () => (await kubectl('admin', ['get', 'networkpolicy', 'paddock-policy-0', '-n', t.ns])).code === 0, 30_000, 250);
    expect((await kubectlJson('admin', ['get', 'networkpolicy', 'paddock-policy-0', '-n', t.ns])).spec.ingress).toEqual([{}]);
  });
});

describe('spec.networkPolicyIngressFrom', () => {
  it('refuses what is not a namespace name or a CIDR (the CRD schema)', async () => {
    const bad = tenant(uniqueName('np-bad'), { networkPolicyIngressFrom: { ipBlocks: { allowed: ['10.0.0.1/8'] } } });
    const res = await kubectl('admin', ['create', '--dry-run=server', '-f', '-'], JSON.stringify(bad));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('spec.networkPolicyIngressFrom.ipBlocks.allowed[0]');
    expect(res.stderr).toContain('no bits set past its prefix length');
  });
});
