import { applyObject, kubectl, uniqueName, waitFor, type KubectlResult } from './env';
import type { TenantSpec } from '../../src/kube/types';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(180_000);

/**
 * Which image pull policies a tenant's pods may use (spec.imagePullPolicies), enforced by kube-apiserver
 * through the tenant's admission policies: as alice, in her namespaces, through real kubectl. A tenant
 * that allows only Always has it set on every container and image volume of a new pod; one that allows
 * more has a pod refused for a policy it does not list — whichever field the pull is in.
 */
interface PullTenant {
  name: string;
  ns: string;
}

const tagged = 'registry.example.com/app:1'; // kube defaults a tagged image to IfNotPresent

const pod = (spec: Record<string, unknown>, name = 'p') => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec });
const dryRun = (t: PullTenant, obj: unknown): Promise<KubectlResult> =>
  kubectl('alice', ['create', '-n', t.ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));

async function pullTenant(prefix: string, imagePullPolicies: TenantSpec['imagePullPolicies']): Promise<PullTenant> {
  const name = uniqueName(prefix);
  const t = { name, ns: `${name}-app` };
  await applyObject(tenant(name, { namespaces: ['app'], imagePullPolicies }));
  await waitFor(`the default service account of ${t.ns}`, async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', t.ns])).code === 0, 60_000, 250);
  // The validating and the mutating policy each take in the tenant's restrictions on their own, so each
  // test waits for the one it relies on. A tenant that allows only Always: enforced once a pod kube would
  // default to IfNotPresent gets Always (until then, the validating policy alone may refuse it). Any
  // other: once a pod pulling by a policy no test tenant allows (Never) is refused by the tenant's policy.
  const onlyAlways = imagePullPolicies?.length === 1 && imagePullPolicies[0] === 'Always';
  await waitFor(`kube-apiserver enforcing ${name}'s pull policies`, async () => onlyAlways
    ? (await dryRun(t, pod({ containers: [{ name: 'c', image: tagged }] }))).stdout.includes('"imagePullPolicy": "Always"')
    : (await dryRun(t, pod({ containers: [{ name: 'c', image: tagged, imagePullPolicy: 'Never' }] }))).stderr.includes('paddock-tenant-restrictions'), 60_000, 250);
  return t;
}

describe('a tenant that allows only Always', () => {
  let t: PullTenant;
  beforeAll(async () => {
    t = await pullTenant('pull-always', ['Always']);
  });
  afterAll(() => kubectl('admin', ['delete', 'tenant', t.name, '--wait=false']));

  it('gets Always on every container and image volume of a new pod, whatever kube defaulted or the pod said', async () => {
    const res = await dryRun(t, pod({
      initContainers: [{ name: 'init', image: tagged }],
      containers: [{ name: 'a', image: tagged }, { name: 'b', image: tagged, imagePullPolicy: 'Never' }],
      volumes: [{ name: 'v', image: { reference: tagged } }, { name: 'scratch', emptyDir: {} }],
    }));
    if (res.code !== 0) throw new Error(res.stderr);
    const spec = JSON.parse(res.stdout).spec;
    expect([...spec.initContainers, ...spec.containers].map((c: any) => c.imagePullPolicy)).toEqual(['Always', 'Always', 'Always']);
    expect(spec.volumes.find((v: any) => v.name === 'v').image.pullPolicy).toBe('Always');
    expect(spec.volumes.find((v: any) => v.name === 'scratch').image).toBeUndefined();
  });
});

describe('a tenant that allows Always and IfNotPresent', () => {
  let t: PullTenant;
  beforeAll(async () => {
    t = await pullTenant('pull-two', ['Always', 'IfNotPresent']);
  });
  afterAll(() => kubectl('admin', ['delete', 'tenant', t.name, '--wait=false']));

  const refused = (res: KubectlResult, ...mentions: string[]) => {
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('paddock-tenant-restrictions');
    for (const m of mentions) expect(res.stderr).toContain(m);
  };

  it('refuses Never in a container, an init container or an image volume, naming it and the allowed ones', async () => {
    refused(await dryRun(t, pod({ containers: [{ name: 'c', image: tagged, imagePullPolicy: 'Never' }] })), 'container c (Never)', 'allowed: Always, IfNotPresent');
    refused(await dryRun(t, pod({ initContainers: [{ name: 'i', image: tagged, imagePullPolicy: 'Never' }], containers: [{ name: 'c', image: tagged }] })), 'container i (Never)');
    refused(await dryRun(t, pod({ containers: [{ name: 'c', image: tagged }], volumes: [{ name: 'v', image: { reference: tagged, pullPolicy: 'Never' } }] })), 'image volume v (Never)');
  });

  it('accepts the policies it lists, and leaves kube\'s default as it is', async () => {
    const res = await dryRun(t, pod({ containers: [{ name: 'a', image: tagged }, { name: 'b', image: tagged, imagePullPolicy: 'Always' }] }));
    if (res.code !== 0) throw new Error(res.stderr);
    expect(JSON.parse(res.stdout).spec.containers.map((c: any) => c.imagePullPolicy)).toEqual(['IfNotPresent', 'Always']);
  });

  it('refuses an ephemeral container that pulls by a policy not listed, added to a running pod', async () => {
    const target = `target-${t.name}`;
    const created = await kubectl('alice', ['create', '-n', t.ns, '-f', '-'], JSON.stringify(pod({ containers: [{ name: 'c', image: tagged }] }, target)));
    if (created.code !== 0) throw new Error(created.stderr);
    const patch = { spec: { ephemeralContainers: [{ name: 'dbg', image: tagged, imagePullPolicy: 'Never', terminationMessagePolicy: 'File' }] } };
    refused(await kubectl('admin', ['patch', 'pod', target, '-n', t.ns, '--subresource=ephemeralcontainers', '--type=strategic', '-p', JSON.stringify(patch)]), 'container dbg (Never)');
    // The pod's own containers, unchanged by the update, are not judged again.
    expect((await kubectl('alice', ['label', 'pod', target, '-n', t.ns, 'touched=yes'])).code).toBe(0);
  });
});
