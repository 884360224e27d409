import { applyObject, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { NODE_NAME, deleteTenants, describeNode, netcheckPod, probe, tenant, waitRunning, waitTenantReady } from './node-env';

// Guardrails proven by behaviour on the test bed's real node: traffic between pods, scheduling, admission
// of real pods. A check that something is refused is always followed by one that something comparable
// succeeds at that moment, so that a broken network or a stopped pod cannot pass for a guardrail.

jest.setTimeout(180_000);

/** Pod `echo`'s IP in `namespace` (after waitRunning). */
async function podIp(namespace: string, name = 'echo'): Promise<string> {
  return (await waitRunning(namespace, name)).status.podIP as string;
}

async function expectReached(namespace: string, pod: string, proto: 'tcp' | 'udp', target: string): Promise<void> {
  expect(`${namespace}/${pod} -> ${proto} ${target}: ${await probe(namespace, pod, proto, target) ? 'reached' : 'not reached'}`)
    .toBe(`${namespace}/${pod} -> ${proto} ${target}: reached`);
}

describeNode('NetworkPolicy isolation, proven by traffic between pods on a real node', () => {
  const oil = uniqueName('oil');
  const gas = uniqueName('gas');
  const oilProduction = `${oil}-production`;
  const oilStaging = `${oil}-staging`;
  const gasProduction = `${gas}-production`;
  const ip: Record<string, string> = {};
  let serviceIp = '';

  beforeAll(async () => {
    await applyObject(tenant(oil, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['production', 'staging'], networkIsolation: true, podSecurity: { enforce: 'baseline' } }));
    await applyObject(tenant(gas, { owners: [{ kind: 'Group', name: 'gas-devs' }], namespaces: ['production'], networkIsolation: true, podSecurity: { enforce: 'restricted' } }));
    await waitTenantReady(oil);
    await waitTenantReady(gas);
    const pods = [netcheckPod('echo', oilProduction), netcheckPod('echo', oilStaging), netcheckPod('echo', gasProduction), netcheckPod('client', gasProduction)];
    const service = {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'echo', namespace: oilProduction },
      spec: { selector: { app: 'echo' }, ports: [{ name: 'tcp', port: 80, targetPort: 8080, protocol: 'TCP' }, { name: 'udp', port: 81, targetPort: 8081, protocol: 'UDP' }] },
    };
    await applyObject({ apiVersion: 'v1', kind: 'List', items: [...pods, service] });
    for (const ns of [oilProduction, oilStaging, gasProduction]) ip[ns] = await podIp(ns);
    await waitRunning(gasProduction, 'client');
    serviceIp = (await kubectlJson('admin', ['get', 'service', 'echo', '-n', oilProduction])).spec.clusterIP;
  });

  afterAll(() => deleteTenants(oil, gas));

  test('the tenant isolation policies are in place in every namespace', async () => {
    for (const ns of [oilProduction, oilStaging, gasProduction]) {
      expect((await kubectl('admin', ['get', 'networkpolicy', 'paddock-isolation', '-n', ns])).code).toBe(0);
    }
  });

  test('within a tenant: oil-production and oil-staging reach each other by pod IP and Service IP, TCP and UDP', async () => {
    for (const proto of ['tcp', 'udp'] as const) {
      const port = proto === 'tcp' ? 8080 : 8081;
      await expectReached(oilStaging, 'echo', proto, `${ip[oilProduction]}:${port}`);
      await expectReached(oilProduction, 'echo', proto, `${ip[oilStaging]}:${port}`);
      await expectReached(oilStaging, 'echo', proto, `${serviceIp}:${proto === 'tcp' ? 80 : 81}`);
      await expectReached(gasProduction, 'client', proto, `${ip[gasProduction]}:${port}`);
    }
  });

  test('across tenants: gas cannot reach oil and oil cannot reach gas (pod IPs and Service IP, TCP and UDP), while each tenant still reaches itself', async () => {
    // [client namespace, client pod, target, a same-tenant client of the target that must get through right after]
    const cases: [string, string, (proto: 'tcp' | 'udp') => string, [string, string]][] = [
      [gasProduction, 'client', (p) => `${ip[oilProduction]}:${p === 'tcp' ? 8080 : 8081}`, [oilStaging, 'echo']],
      [gasProduction, 'client', (p) => `${ip[oilStaging]}:${p === 'tcp' ? 8080 : 8081}`, [oilProduction, 'echo']],
      [gasProduction, 'client', (p) => `${serviceIp}:${p === 'tcp' ? 80 : 81}`, [oilStaging, 'echo']],
      [oilProduction, 'echo', (p) => `${ip[gasProduction]}:${p === 'tcp' ? 8080 : 8081}`, [gasProduction, 'client']],
      [oilStaging, 'echo', (p) => `${ip[gasProduction]}:${p === 'tcp' ? 8080 : 8081}`, [gasProduction, 'client']],
    ];
    for (const [ns, pod, target, [okNs, okPod]] of cases) {
      for (const proto of ['tcp', 'udp'] as const) {
        // NetworkPolicies are enforced eventually (kube-router syncs on events): wait for the refusal...
        await waitFor(`${ns}/${pod} refused or timed out on ${proto} ${target(proto)}`, async () => !(await probe(ns, pod, proto, target(proto))), 30_000, 200);
        // ...then prove that the target was up and answering its own tenant at that moment.
        await expectReached(okNs, okPod, proto, target(proto));
      }
    }
  });

  test('with isolation turned off, gas and oil reach each other', async () => {
    await applyObject(tenant(oil, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['production', 'staging'], networkIsolation: false, podSecurity: { enforce: 'baseline' } }));
    await applyObject(tenant(gas, { owners: [{ kind: 'Group', name: 'gas-devs' }], namespaces: ['production'], networkIsolation: false, podSecurity: { enforce: 'restricted' } }));
    await waitTenantReady(oil);
    await waitTenantReady(gas);
    for (const proto of ['tcp', 'udp'] as const) {
      const port = proto === 'tcp' ? 8080 : 8081;
      await waitFor(`gas reaches oil-production over ${proto}`, () => probe(gasProduction, 'client', proto, `${ip[oilProduction]}:${port}`), 30_000, 200);
      await waitFor(`gas reaches oil's Service over ${proto}`, () => probe(gasProduction, 'client', proto, `${serviceIp}:${proto === 'tcp' ? 80 : 81}`), 30_000, 200);
      await waitFor(`oil-staging reaches gas over ${proto}`, () => probe(oilStaging, 'echo', proto, `${ip[gasProduction]}:${port}`), 30_000, 200);
    }
    for (const ns of [oilProduction, oilStaging, gasProduction]) {
      expect((await kubectl('admin', ['get', 'networkpolicy', 'paddock-isolation', '-n', ns])).code).not.toBe(0);
    }
  });
});

describeNode('node selector, proven by scheduling on a real node', () => {
  const key = 'pool.test.paddock.dev/name';
  const a = uniqueName('pool-a');
  const b = uniqueName('pool-b');

  beforeAll(async () => {
    await applyObject(tenant(a, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'], nodeSelector: { [key]: a } }));
    await applyObject(tenant(b, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'], nodeSelector: { [key]: b } }));
    await waitTenantReady(a);
    await waitTenantReady(b);
    // kube-apiserver loads a new policy binding shortly after it is written: wait until a dry-run pod
    // (which runs mutating admission) comes back with the tenant's nodeSelector.
    for (const t of [a, b]) {
      await waitFor(`admission to give ${t}'s pods its nodeSelector`, async () => {
        const r = await kubectl('admin', ['create', '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(netcheckPod('probe', `${t}-apps`)));
        return r.code === 0 && JSON.parse(r.stdout).spec?.nodeSelector?.[key] === t;
      }, 60_000, 250);
    }
    expect((await kubectl('admin', ['label', 'node', NODE_NAME, `${key}=${a}`, '--overwrite'])).code).toBe(0);
  });

  afterAll(async () => {
    await kubectl('admin', ['label', 'node', NODE_NAME, `${key}-`]);
    await deleteTenants(a, b);
  });

  /**
   * A pod with no nodeSelector of its own: the tenant's comes from Paddock's MutatingAdmissionPolicy
   * (stock kube-apiserver admission, no PodNodeSelector plugin), and is checked on the stored pod.
   */
  async function tenantPod(t: string, name: string): Promise<Record<string, unknown>> {
    return netcheckPod(name, `${t}-apps`);
  }

  async function createTenantPod(t: string, name: string): Promise<void> {
    await applyObject(await tenantPod(t, name));
    const stored = await kubectlJson('admin', ['get', 'pod', '-n', `${t}-apps`, name]);
    expect(stored.spec.nodeSelector).toEqual({ [key]: t });
  }

  async function waitUnschedulable(namespace: string, name: string): Promise<void> {
    let pod: any;
    await waitFor(`pod ${namespace}/${name} unschedulable because the node does not match`, async () => {
      pod = await kubectlJson('admin', ['get', 'pod', '-n', namespace, name]);
      const c = pod.status?.conditions?.find((x: any) => x.type === 'PodScheduled');
      return c?.status === 'False' && c.reason === 'Unschedulable' && /didn't match Pod's node affinity\/selector/.test(c.message);
    }, 60_000, 250);
    expect(pod.spec.nodeName).toBeUndefined();
    expect(pod.status.phase).toBe('Pending');
  }

  test("A's pods run on the node of A's pool; B's stay Pending with the scheduler's reason until the node joins B's pool", async () => {
    await createTenantPod(a, 'first');
    await createTenantPod(b, 'first');
    const runningA = await waitRunning(`${a}-apps`, 'first');
    expect(runningA.spec.nodeName).toBe(NODE_NAME);
    await waitUnschedulable(`${b}-apps`, 'first');

    expect((await kubectl('admin', ['label', 'node', NODE_NAME, `${key}=${b}`, '--overwrite'])).code).toBe(0);
    const runningB = await waitRunning(`${b}-apps`, 'first');
    expect(runningB.spec.nodeName).toBe(NODE_NAME);
    // Now A's pool has no node: A's next pod waits, and B's next pod runs right after it was refused a node.
    await createTenantPod(a, 'second');
    await waitUnschedulable(`${a}-apps`, 'second');
    await createTenantPod(b, 'second');
    expect((await waitRunning(`${b}-apps`, 'second')).spec.nodeName).toBe(NODE_NAME);
  });
});

describeNode('quota and limits, proven by admitting real pods', () => {
  const t = uniqueName('quota');
  const ns = `${t}-apps`;

  beforeAll(async () => {
    await applyObject(tenant(t, {
      owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'],
      resourceQuotas: [{ hard: { pods: '20' } }],
      limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '100m', memory: '64Mi' }, defaultRequest: { cpu: '10m', memory: '16Mi' } }] }],
    }));
    await waitTenantReady(t);
    // Quota admission refuses everything until the quota controller has computed the quota's status.
    await waitFor(`quota of ${ns} computed`, async () => {
      const q = await kubectlJson('admin', ['get', 'resourcequota', '-n', ns]);
      return q.items.length === 1 && q.items[0].status?.hard?.pods === '20';
    }, 60_000, 250);
  });

  afterAll(() => deleteTenants(t));

  test('a pod without requests gets the LimitRange defaults and runs', async () => {
    await applyObject(netcheckPod('defaults', ns));
    const pod = await waitRunning(ns, 'defaults');
    expect(pod.spec.containers[0].resources).toEqual({ requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '100m', memory: '64Mi' } });
    expect(pod.spec.nodeName).toBe(NODE_NAME);
  });

  test('the 21st pod of a 20-pod quota is refused; it is admitted once a pod is gone', async () => {
    // 19 more pods that no node matches: they count against the quota without loading the node.
    const parked = Array.from({ length: 19 }, (_, i) => netcheckPod(`parked-${i}`, ns, { nodeSelector: { 'pool.test.paddock.dev/name': 'nowhere' } }));
    await applyObject({ apiVersion: 'v1', kind: 'List', items: parked });
    const refused = await kubectl('admin', ['create', '-f', '-'], JSON.stringify(netcheckPod('twenty-first', ns)));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/exceeded quota: paddock-quota-0, requested: pods=1, used: pods=20, limited: pods=20/);
    expect((await kubectl('admin', ['delete', 'pod', 'parked-0', '-n', ns, '--wait=true'])).code).toBe(0);
    await waitFor('the 21st pod admitted after a pod is gone', async () => {
      return (await kubectl('admin', ['create', '-f', '-'], JSON.stringify(netcheckPod('twenty-first', ns)))).code === 0;
    }, 30_000, 250);
    await waitRunning(ns, 'twenty-first');
  });
});

describeNode('Pod Security, proven by admitting real pods', () => {
  const restricted = uniqueName('strict');
  const privileged = uniqueName('priv');

  beforeAll(async () => {
    await applyObject(tenant(restricted, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'], podSecurity: { enforce: 'restricted' } }));
    await applyObject(tenant(privileged, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'], podSecurity: { enforce: 'privileged' } }));
    await waitTenantReady(restricted);
    await waitTenantReady(privileged);
  });

  afterAll(() => deleteTenants(restricted, privileged));

  test('a privileged pod is refused in a restricted tenant and runs in a privileged one; a restricted pod runs in the restricted tenant', async () => {
    const refused = await kubectl('admin', ['create', '-f', '-'], JSON.stringify(netcheckPod('root', `${restricted}-apps`, { privileged: true })));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/violates PodSecurity "restricted:latest": privileged/);
    await applyObject(netcheckPod('root', `${privileged}-apps`, { privileged: true }));
    const pod = await waitRunning(`${privileged}-apps`, 'root');
    expect(pod.spec.containers[0].securityContext.privileged).toBe(true);
    await applyObject(netcheckPod('plain', `${restricted}-apps`));
    await waitRunning(`${restricted}-apps`, 'plain');
  });
});
