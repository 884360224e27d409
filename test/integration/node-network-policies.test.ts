import { applyObject, kubectl, uniqueName, waitFor } from './env';
import { deleteTenants, describeNode, netcheckPod, probe, tenant, waitRunning, waitTenantReady } from './node-env';
import type { TenantSpec } from '../../src/kube/types';

// The owners' own NetworkPolicies (SPEC §10), proven by traffic between pods on the test bed's real
// node. NetworkPolicies add up: with Paddock's isolation policy admitting the whole tenant to every pod,
// an owner's policy can add a source the Tenant lists but cannot narrow traffic inside the tenant; with
// isolation off, it narrows the pods it selects. No owner policy lets another tenant in. A refusal is
// always followed by a comparable success at that moment, so that a broken network cannot pass for a policy.

jest.setTimeout(300_000);

const TCP = (ip: string) => `${ip}:8080`;

describeNode("owners' NetworkPolicies, proven by traffic between pods on a real node", () => {
  const oil = uniqueName('npo');
  const gas = uniqueName('npg');
  const edge = uniqueName('edge');
  const [oilA, oilB, gasApp] = [`${oil}-a`, `${oil}-b`, `${gas}-app`];
  let echo = '';
  const oilSpec = (networkIsolation: boolean): Partial<TenantSpec> => ({
    owners: [{ kind: 'User', name: 'alice' }], namespaces: ['a', 'b'], networkIsolation,
    networkPolicyIngressFrom: { namespaces: { allowed: [edge] } },
  });

  /** Waits until `from` no longer reaches oil-a/echo, then proves echo answered `ok` at that moment. */
  async function refusedThenReached(from: [string, string], ok: [string, string]): Promise<void> {
    await waitFor(`${from.join('/')} refused by echo`, async () => !(await probe(from[0], from[1], 'tcp', TCP(echo))), 60_000, 200);
    expect(await probe(ok[0], ok[1], 'tcp', TCP(echo))).toBe(true);
  }
  const reaches = (from: [string, string], target = echo) =>
    waitFor(`${from.join('/')} reaching ${target}`, () => probe(from[0], from[1], 'tcp', TCP(target)), 60_000, 200);

  beforeAll(async () => {
    await applyObject(tenant(oil, oilSpec(false)));
    await applyObject(tenant(gas, { owners: [{ kind: 'Group', name: 'gas-devs' }], namespaces: ['app'] }));
    await kubectl('admin', ['create', 'namespace', edge]);
    await waitTenantReady(oil);
    await waitTenantReady(gas);
    await applyObject({
      apiVersion: 'v1', kind: 'List',
      items: [netcheckPod('echo', oilA), netcheckPod('front', oilB, { labels: { role: 'frontend' } }), netcheckPod('other', oilB), netcheckPod('client', gasApp), netcheckPod('proxy', edge)],
    });
    echo = (await waitRunning(oilA, 'echo')).status.podIP as string;
    for (const [ns, pod] of [[oilB, 'front'], [oilB, 'other'], [gasApp, 'client'], [edge, 'proxy']] as const) await waitRunning(ns, pod);
    // echo admits only oil's frontends, by the owner's own policy.
    const onlyFrontends = {
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'only-frontends' },
      spec: { podSelector: { matchLabels: { app: 'echo' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'paddock.dev/tenant': oil } }, podSelector: { matchLabels: { role: 'frontend' } } }] }] },
    };
    const res = await kubectl('alice', ['create', '-n', oilA, '-f', '-'], JSON.stringify(onlyFrontends));
    expect(res.stderr).toBe('');
  });

  afterAll(async () => {
    await deleteTenants(oil, gas);
    await kubectl('admin', ['delete', 'namespace', edge, '--wait=false']);
  });

  test("with isolation off, the owner's policy narrows the pods it selects; the pods it does not select are open", async () => {
    await refusedThenReached([oilB, 'other'], [oilB, 'front']);
    await refusedThenReached([gasApp, 'client'], [oilB, 'front']);
    // front is selected by no policy: with isolation off, anyone reaches it, the other tenant too.
    const front = (await waitRunning(oilB, 'front')).status.podIP as string;
    await reaches([gasApp, 'client'], front);
  });

  test('with isolation on, the same policy narrows nothing: the whole tenant reaches echo again; the other tenant does not', async () => {
    await applyObject(tenant(oil, oilSpec(true)));
    await waitTenantReady(oil);
    // other was refused above under the owner's policy alone; Paddock's isolation policy now admits it too.
    await reaches([oilB, 'other']);
    await refusedThenReached([gasApp, 'client'], [oilB, 'other']);
  });

  test("a source the Tenant lists is let in only by an owner's policy that names it", async () => {
    await refusedThenReached([edge, 'proxy'], [oilB, 'front']);
    const fromEdge = {
      apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'from-edge' },
      spec: { podSelector: { matchLabels: { app: 'echo' } }, ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': edge } } }] }] },
    };
    expect((await kubectl('alice', ['create', '-n', oilA, '-f', '-'], JSON.stringify(fromEdge))).code).toBe(0);
    await reaches([edge, 'proxy']);
    // ...and the other tenant still not: the policy that lets edge in is no way in for gas.
    await refusedThenReached([gasApp, 'client'], [edge, 'proxy']);
    expect((await kubectl('alice', ['delete', 'networkpolicy', 'from-edge', '-n', oilA])).code).toBe(0);
    await refusedThenReached([edge, 'proxy'], [oilB, 'front']);
  });

  test('no owner policy can admit the other tenant: kube-apiserver refuses each way of naming it', async () => {
    const peers = [{ namespaceSelector: { matchLabels: { 'paddock.dev/tenant': gas } } }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': gasApp } } }, { namespaceSelector: {} }, { ipBlock: { cidr: '10.244.0.0/16' } }];
    for (const peer of peers) {
      const policy = { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name: 'let-gas-in' }, spec: { podSelector: {}, ingress: [{ from: [peer] }] } };
      const res = await kubectl('alice', ['create', '-n', oilA, '-f', '-'], JSON.stringify(policy));
      expect(res.code).not.toBe(0);
      expect(res.stderr).toContain('spec.ingress[0].from[0]');
    }
    await refusedThenReached([gasApp, 'client'], [oilB, 'front']);
  });
});
