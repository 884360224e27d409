import { controlPlane, httpsRequest, kubectl, kubectlJson, applyObject, uniqueName, waitFor } from './env';
import { APISERVICE, PADDOCK_NS as NS, PADDOCK_SELECTOR as SELECTOR, apiServiceAvailable, installInCluster, paddockPods, uninstallInCluster, type PaddockPod } from './in-cluster-install';
import { NODE_NAME, deleteTenants, describeNode, tenant, waitTenantReady } from './node-env';

// Paddock installed the way a platform team installs it (in-cluster-install.ts): the image built from
// the Dockerfile, then `kubectl apply -k` of apiservice/ through an overlay that changes the image name
// only. The run's Paddock processes step aside meanwhile and come back afterwards.

jest.setTimeout(300_000);

/** Two Ready pods of the current template, none terminating, and the Deployment says so too. */
async function waitSettled(describe: string): Promise<PaddockPod[]> {
  let pods: PaddockPod[] = [];
  await waitFor(describe, async () => {
    const d = await kubectlJson('admin', ['get', 'deployment', 'paddock', '-n', NS]);
    pods = await paddockPods();
    return d.status.observedGeneration === d.metadata.generation && d.status.updatedReplicas === 2 && d.status.readyReplicas === 2 &&
      d.status.availableReplicas === 2 && (d.status.replicas ?? 0) === 2 && pods.length === 2 && pods.every((p) => p.ready && !p.deleting);
  }, 120_000, 250);
  return pods;
}

/**
 * A client that lists tenantnamespaces as alice through kube-apiserver every 100 ms (as `kubectl get tns`
 * does) and records every answer that is not a 200 with alice's namespace in it.
 */
function poll(expectNamespace: string) {
  const { server, pki } = controlPlane();
  const failures: string[] = [];
  let requests = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = Date.now();
      requests++;
      try {
        const res = await httpsRequest(`${server}/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces`, { cert: pki.users.alice });
        if (res.status !== 200 || !res.body.includes(`"${expectNamespace}"`)) failures.push(`${new Date().toISOString()} ${res.status} ${res.body.slice(0, 200)}`);
      } catch (err) {
        failures.push(`${new Date().toISOString()} ${(err as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, Math.max(0, 100 - (Date.now() - started))));
    }
  })();
  return {
    failures,
    get requests() { return requests; },
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

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
