import { applyObject, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { APISERVICE, NS, SELECTOR, apiServiceAvailable, installInCluster, paddockPods, poll, uninstallInCluster, waitSettled } from './install-env';
import { NODE_NAME, deleteTenants, describeNode, tenant, waitTenantReady } from './node-env';

// Paddock installed the way a platform team installs it (install-env.ts): the image built from the
// Dockerfile, then `kubectl apply -k` of apiservice/.

jest.setTimeout(300_000);


describeNode('Paddock installed with kubectl apply -k apiservice/ on a real node', () => {
  const t = uniqueName('install');
  const tenantNs = `${t}-apps`;
  let applyToAvailableMs = 0;

  beforeAll(async () => {
    applyToAvailableMs = await installInCluster();
    process.stderr.write(`kubectl apply -k → APIService Available in ${applyToAvailableMs} ms\n`);
    await applyObject(tenant(t, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['apps'] }));
    await waitTenantReady(t);
  }, 600_000);

  afterAll(async () => {
    await deleteTenants(t);
    await uninstallInCluster();
  }, 180_000);

  test('two Ready replicas on the node behind the Service, and the APIService Available through it', async () => {
    const pods = await waitSettled('2 Ready Paddock pods');
    const slices = await kubectlJson('admin', ['get', 'endpointslices', '-n', NS, '-l', 'kubernetes.io/service-name=paddock-apiserver']);
    const ready = slices.items.flatMap((s: any) => s.endpoints.filter((e: any) => e.conditions.ready).flatMap((e: any) => e.addresses));
    expect(ready.sort()).toEqual(pods.map((p) => p.ip).sort());
    const svc = await kubectlJson('admin', ['get', 'service', 'paddock-apiserver', '-n', NS]);
    expect(svc.spec.type).toBe('ClusterIP');
    for (const p of pods) expect((await kubectlJson('admin', ['get', 'pod', p.name, '-n', NS])).spec.nodeName).toBe(NODE_NAME);
    expect(await apiServiceAvailable()).toBe(true);
    expect(applyToAvailableMs).toBeGreaterThan(0);
  });

  test('Paddock made its own serving certificate: its CA is the caBundle, and it names the Service', async () => {
    const secret = await kubectlJson('admin', ['get', 'secret', 'paddock-serving-cert', '-n', NS]);
    expect(secret.type).toBe('kubernetes.io/tls');
    const apiService = await kubectlJson('admin', ['get', 'apiservice', APISERVICE]);
    expect(apiService.spec.caBundle).toBe(secret.data['ca.crt']);
    const { X509Certificate } = await import('node:crypto');
    const leaf = new X509Certificate(Buffer.from(secret.data['tls.crt'], 'base64'));
    const ca = new X509Certificate(Buffer.from(secret.data['ca.crt'], 'base64'));
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkHost('paddock-apiserver.paddock-system.svc')).toBe('paddock-apiserver.paddock-system.svc');
  });

  test('kubectl get tns works for alice through the aggregated API and shows her tenant namespace only', async () => {
    const res = await kubectl('alice', ['get', 'tns', '-o', 'name']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout.trim().split('\n')).toContain(`tenantnamespace.tenancy.paddock.dev/${tenantNs}`);
    const carol = await kubectl('carol', ['get', 'tns', '-o', 'name']);
    expect(carol.code).toBe(0);
    expect(carol.stdout).not.toContain(tenantNs);
  });

  test('deleting a pod fails no request of a client polling every 100 ms', async () => {
    const before = await waitSettled('2 Ready Paddock pods');
    const client = poll(tenantNs);
    try {
      await new Promise((r) => setTimeout(r, 1000));
      expect((await kubectl('admin', ['delete', 'pod', before[0].name, '-n', NS, '--wait=false'])).code).toBe(0);
      await waitFor(`pod ${before[0].name} gone`, async () => !(await paddockPods()).some((p) => p.name === before[0].name), 120_000, 250);
      const after = await waitSettled('2 Ready Paddock pods after the deletion');
      expect(after.map((p) => p.name)).not.toContain(before[0].name);
      await new Promise((r) => setTimeout(r, 1000));
    } finally {
      await client.stop();
    }
    expect(client.requests).toBeGreaterThan(20);
    expect(client.failures).toEqual([]);
  });

  test('kubectl rollout restart fails no request either, and the leader is one of the new pods', async () => {
    const before = await waitSettled('2 Ready Paddock pods');
    const client = poll(tenantNs);
    try {
      expect((await kubectl('admin', ['rollout', 'restart', 'deployment/paddock', '-n', NS])).code).toBe(0);
      const status = await kubectl('admin', ['rollout', 'status', 'deployment/paddock', '-n', NS, '--timeout=180s']);
      expect(status.code).toBe(0);
      const after = await waitSettled('2 Ready Paddock pods after the restart');
      expect(after.filter((p) => before.some((b) => b.name === p.name))).toEqual([]);
      await waitFor('the Lease held by a new pod', async () => {
        const lease = await kubectlJson('admin', ['get', 'lease', 'paddock-controller', '-n', NS]);
        return after.some((p) => p.name === lease.spec.holderIdentity);
      }, 60_000, 250);
    } finally {
      await client.stop();
    }
    expect(client.requests).toBeGreaterThan(20);
    expect(client.failures).toEqual([]);
  });

  test('the PodDisruptionBudget keeps one replica serving through a drain', async () => {
    await waitSettled('2 Ready Paddock pods');
    const client = poll(tenantNs);
    let drain;
    try {
      drain = await kubectl('admin', ['drain', NODE_NAME, `--pod-selector=${SELECTOR}`, '--timeout=10s']);
      const pods = await paddockPods();
      expect(pods.filter((p) => p.ready && !p.deleting)).toHaveLength(1);
      expect(await apiServiceAvailable()).toBe(true);
    } finally {
      await kubectl('admin', ['uncordon', NODE_NAME]);
      await client.stop();
    }
    expect(drain.code).not.toBe(0);
    expect(drain.stderr).toMatch(/Cannot evict pod as it would violate the pod's disruption budget/);
    expect(client.failures).toEqual([]);
    await waitSettled('2 Ready Paddock pods after the uncordon');
  });
});
