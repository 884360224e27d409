import { accepted, readyWithRestriction, refused } from './admission-answers';
import { resyncRounds } from './paddock-env';
import { applyObject, auditWrites, kubectl, kubectlJson, PADDOCK_USER, serviceAccountUser, sleep, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * What a tenant may use (SPEC §9), enforced by kube-apiserver itself: as the owner alice, in her own
 * namespace, through real kubectl against the real control plane (no kubelet or scheduler: pods stay
 * Pending, which is all admission needs).
 */
const id = uniqueName('adm').slice(4);
const name = `adm-${id}`;
const ns = `${name}-app`;
const cls = (n: string) => `${n}-${id}`;
const [std, gold, fast] = [cls('std'), cls('gold'), cls('fast')];
const [nginxInternal, public_] = [cls('nginx-internal'), cls('public')];
const [low, high] = [cls('low'), cls('high')];
const [gvisor, kata] = [cls('gvisor'), cls('kata')];
const tier = `tier-${id}`;

const classes = [
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: std }, provisioner: 'example.com/none' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: gold }, provisioner: 'example.com/none' },
  { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: fast }, provisioner: 'example.com/none' },
  { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: nginxInternal }, spec: { controller: 'example.com/nginx' } },
  { apiVersion: 'networking.k8s.io/v1', kind: 'IngressClass', metadata: { name: public_ }, spec: { controller: 'example.com/nginx' } },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: low }, value: 100 },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: high }, value: 100000 },
  { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: gvisor }, handler: 'runsc' },
  { apiVersion: 'node.k8s.io/v1', kind: 'RuntimeClass', metadata: { name: kata }, handler: 'kata' },
];

const tenantSpec = {
  owners: [
    { kind: 'User', name: 'alice' },
    { kind: 'Group', name: `devs-${id}`, role: 'operator' },
    { kind: 'ServiceAccount', namespace: `ci-${id}`, name: 'deployer', role: 'operator' },
  ],
  namespaces: ['app'],
  storageClasses: { allowed: [std], selector: { matchLabels: { [tier]: 'gold' } }, default: std },
  ingressClasses: { allowed: [nginxInternal], default: nginxInternal },
  priorityClasses: { allowed: [low], default: low },
  runtimeClasses: { allowed: [gvisor] },
  containerRegistries: { allowed: ['registry.example.com', 'ghcr.io/oil-org', 'docker.io/library'] },
  nodeSelector: { 'kubernetes.io/os': 'linux', pool: id },
} satisfies Partial<TenantSpec>;

/** `kubectl create --dry-run=server` as `user` in the tenant namespace: admission runs in full, nothing is stored. */
function dryRun(obj: unknown, user = 'alice'): Promise<KubectlResult> {
  return kubectl(user, ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
}

const pod = (podName: string, spec: Record<string, unknown> = {}, image = 'nginx:1.27') => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: podName }, spec: { containers: [{ name: 'c', image }], ...spec },
});
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const pvc = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data', ...(annotations ? { annotations } : {}) },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const ingress = (spec: Record<string, unknown> = {}, annotations?: Record<string, string>) => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', ...(annotations ? { annotations } : {}) },
  spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } }, ...spec },
});

/** How many times kube-apiserver has run a policy's mutations or validations (its own metric, every binding). */
async function policyRuns(metric: 'mutating' | 'validating', policy: string): Promise<number> {
  const res = await kubectl('admin', ['get', '--raw', '/metrics']);
  expect(res.code).toBe(0);
  return res.stdout.split('\n')
    .filter((l) => l.startsWith(`apiserver_${metric}_admission_policy_check_total{`) && l.includes(`policy="${policy}"`))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}
const defaultsPolicyRuns = () => policyRuns('mutating', 'paddock-tenant-defaults');

async function getTenant(): Promise<any> {
  return kubectlJson('admin', ['get', 'tenant', name]);
}

/** When this suite started writing: the audit log after it holds Paddock's writes for this tenant. */
const suiteStarted = new Date();

beforeAll(async () => {
  for (const c of classes) await applyObject(c);
  await applyObject(tenant(name, tenantSpec));
  await readyWithRestriction(name, ns);
  await waitFor('the default service account', async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', ns])).code === 0, 30_000, 250);
  // kube-apiserver loads new policies and bindings from its own informers: wait until it enforces them.
  await waitFor('kube-apiserver enforcing the tenant policy', async () => (await dryRun(pod('probe', {}, 'quay.io/x/y'))).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
  await waitFor('kube-apiserver applying the tenant defaults', async () => accepted(await dryRun(pod('probe'))).spec.nodeSelector?.pool === id, 30_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  await kubectl('admin', ['delete', '-f', '-', '--wait=false'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: classes }));
});

describe("Paddock's writes of the admission objects and the tenant's TenantRestriction (kube-apiserver audit log)", () => {
  // kube-apiserver refuses a binding with a paramRef from a user that may not get every resource while
  // the policy it names does not exist: Paddock writes each policy first. Run alone on a fresh control
  // plane, no tenant needed the policies before this one. (Excluded: a 409, a create that finds the
  // object already made by an earlier pass the cache has not shown yet; a 404, a delete that finds it gone
  // — another suite's last Tenant may go while this one's is not made yet.)
  it('none was refused', () => {
    const ADMISSION = /admissionpolic(y|ies)|tenantrestrictions/;
    const refused = auditWrites(suiteStarted)
      .filter((e) => e.user.username === PADDOCK_USER && ADMISSION.test(e.objectRef?.resource ?? '') && (e.responseStatus?.code ?? 0) >= 400 && e.responseStatus?.code !== 409 && !(e.verb === 'delete' && e.responseStatus?.code === 404))
      .map((e) => `${e.verb} ${e.objectRef?.resource} ${e.objectRef?.name} → ${e.responseStatus?.code}`);
    expect(refused).toEqual([]);
  });
});

describe('status.allowed', () => {
  it('lists the resolved class names per restricted kind', async () => {
    const t = await getTenant();
    expect(t.status.allowed).toEqual({ storageClasses: [std], ingressClasses: [nginxInternal], priorityClasses: [low], runtimeClasses: [gvisor] });
  });

  it('follows a class relabel: in when its labels match the selector, out when they stop', async () => {
    await kubectl('admin', ['label', 'storageclass', fast, `${tier}=gold`]);
    await waitFor('relabelled class allowed', async () => JSON.stringify((await getTenant()).status.allowed.storageClasses) === JSON.stringify([fast, std].sort()), 30_000, 100);
    await kubectl('admin', ['label', 'storageclass', fast, `${tier}-`]);
    await waitFor('unlabelled class no longer allowed', async () => JSON.stringify((await getTenant()).status.allowed.storageClasses) === JSON.stringify([std]), 30_000, 100);
  });
});

describe('kube-apiserver refuses, as alice in her namespace', () => {
  it('a PVC with a storage class not allowed, naming the allowed ones', async () => {
    refused(await dryRun(pvc({ storageClassName: gold })), `storage class "${gold}" is not allowed`, `allowed: ${std}`);
  });

  // kube reads the beta annotation before spec.storageClassName (GetPersistentVolumeClaimClass): it is
  // the class the claim binds, provisions and is counted by quota under.
  it('a PVC naming a class not allowed by the beta annotation, with or without an allowed spec class', async () => {
    refused(await dryRun(pvc({}, { [BETA_STORAGE_CLASS]: gold })), `storage class "${gold}" is not allowed`, `allowed: ${std}`);
    refused(await dryRun(pvc({ storageClassName: std }, { [BETA_STORAGE_CLASS]: gold })), `storage class "${gold}" is not allowed`);
  });

  it('a Pod whose generic ephemeral volume names a class not allowed, by spec or by the beta annotation', async () => {
    const ephemeral = (spec: Record<string, unknown>, annotations?: Record<string, string>) => pod('p', {
      volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { ...(annotations ? { metadata: { annotations } } : {}), spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec } } } }],
    });
    refused(await dryRun(ephemeral({ storageClassName: gold })), `storage class "${gold}" of an ephemeral volume is not allowed`, `allowed: ${std}`);
    refused(await dryRun(ephemeral({ storageClassName: std }, { [BETA_STORAGE_CLASS]: gold })), `storage class "${gold}" of an ephemeral volume is not allowed`);
    accepted(await dryRun(ephemeral({ storageClassName: std })));
    accepted(await dryRun(ephemeral({})));
  });

  it('a PVC whose beta annotation is empty (it would bind a volume of no class)', async () => {
    refused(await dryRun(pvc({}, { [BETA_STORAGE_CLASS]: '' })), 'storage class "" is not allowed');
  });

  it('an Ingress with an ingress class not allowed, by name or by the older annotation', async () => {
    refused(await dryRun(ingress({ ingressClassName: public_ })), `ingress class "${public_}" is not allowed`, `allowed: ${nginxInternal}`);
    refused(await dryRun(ingress({}, { 'kubernetes.io/ingress.class': public_ })), `ingress class "${public_}" is not allowed`);
  });

  it('a Pod with a priority class not allowed', async () => {
    refused(await dryRun(pod('p', { priorityClassName: high })), `priority class "${high}" is not allowed`, `allowed: ${low}`);
  });

  it('a Pod with a runtime class not allowed', async () => {
    refused(await dryRun(pod('p', { runtimeClassName: kata })), `runtime class "${kata}" is not allowed`, `allowed: ${gvisor}`);
  });

  it.each([
    ['quay.io/evil/miner:1', 'another registry'],
    ['foo/bar', 'docker.io/foo (not docker.io/library)'],
    ['ghcr.io/oil-org-fork/app', 'a prefix that only looks like an allowed one'],
    ['localhost:5000/app', 'a local registry'],
  ])('a Pod with image %s (%s), naming the allowed registries', async (image) => {
    refused(await dryRun(pod('p', {}, image)), `image ${image} is not from an allowed registry`, 'allowed: registry.example.com, ghcr.io/oil-org, docker.io/library');
  });

  it('a Pod whose init container comes from a registry not allowed', async () => {
    refused(await dryRun(pod('p', { initContainers: [{ name: 'init', image: 'quay.io/evil/init' }] })), 'image quay.io/evil/init');
  });

  it('a Pod that escapes the tenant nodeSelector: another value for its key, or a nodeName', async () => {
    refused(await dryRun(pod('p', { nodeSelector: { pool: 'other' } })), `nodeSelector must include kubernetes.io/os=linux,pool=${id}`);
    refused(await dryRun(pod('p', { nodeName: 'node-1' })), 'spec.nodeName is not allowed');
  });

  describe('an ephemeral container from a registry not allowed', () => {
    const target = `target-${id}`;
    beforeAll(async () => {
      const res = await kubectl('alice', ['create', '-n', ns, '-f', '-'], JSON.stringify(pod(target)));
      if (res.code !== 0) throw new Error(res.stderr);
    });

    // Tenant roles do not grant pods/ephemeralcontainers: the cluster admin adds one, and the tenant's
    // policy holds for everyone in the namespace.
    it('added with kubectl debug', async () => {
      const res = await kubectl('admin', ['debug', '-n', ns, target, '--image=quay.io/evil/debug', '--profile=baseline']);
      refused(res, 'image quay.io/evil/debug is not from an allowed registry');
      const ok = await kubectl('admin', ['debug', '-n', ns, target, '--image=busybox', '--profile=baseline']);
      expect(ok.stderr).not.toContain('paddock-tenant-restrictions');
      expect(ok.code).toBe(0);
    });

    it('added with a raw PATCH of pods/ephemeralcontainers', async () => {
      const patch = { spec: { ephemeralContainers: [{ name: 'raw', image: 'quay.io/evil/raw', terminationMessagePolicy: 'File' }] } };
      refused(await kubectl('admin', ['patch', 'pod', target, '-n', ns, '--subresource=ephemeralcontainers', '--type=strategic', '-p', JSON.stringify(patch)]), 'image quay.io/evil/raw');
    });

    it('but an update that brings no new image passes', async () => {
      expect((await kubectl('alice', ['label', 'pod', target, '-n', ns, 'touched=yes'])).code).toBe(0);
    });
  });
});

describe('kube-apiserver accepts and defaults the allowed forms', () => {
  it('a Pod from an allowed registry gets the tenant nodeSelector and default priority class', async () => {
    for (const image of ['nginx', 'docker.io/library/nginx:1.27', 'ghcr.io/oil-org/app@sha256:' + '0'.repeat(64), 'registry.example.com/team/app:2']) {
      const p = accepted(await dryRun(pod('p', { nodeSelector: { zone: 'a' } }, image)));
      expect(p.spec.nodeSelector).toEqual({ zone: 'a', 'kubernetes.io/os': 'linux', pool: id });
      expect(p.spec.priorityClassName).toBe(low);
      expect(p.spec.priority).toBe(100);
    }
  });

  it('a Pod naming allowed classes keeps them', async () => {
    const p = accepted(await dryRun(pod('p', { priorityClassName: low, runtimeClassName: gvisor, nodeSelector: { pool: id } })));
    expect(p.spec.runtimeClassName).toBe(gvisor);
    expect(p.spec.nodeSelector).toEqual({ 'kubernetes.io/os': 'linux', pool: id });
  });

  it('a PVC without a class gets the tenant default (this cluster has no default StorageClass)', async () => {
    const defaults = (await kubectlJson('admin', ['get', 'storageclasses'])).items.filter((c: any) => c.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true');
    expect(defaults).toEqual([]);
    expect(accepted(await dryRun(pvc())).spec.storageClassName).toBe(std);
    expect(accepted(await dryRun(pvc({ storageClassName: std }))).spec.storageClassName).toBe(std);
  });

  it('a PVC naming an allowed class by the beta annotation keeps it, with no second class defaulted beside it', async () => {
    const claim = accepted(await dryRun(pvc({}, { [BETA_STORAGE_CLASS]: std })));
    expect(claim.metadata.annotations[BETA_STORAGE_CLASS]).toBe(std);
    expect(claim.spec.storageClassName).toBeUndefined();
  });

  it('an Ingress without a class gets the tenant default', async () => {
    expect(accepted(await dryRun(ingress())).spec.ingressClassName).toBe(nginxInternal);
  });

  // kube-apiserver marks the object changed whenever a mutation runs, even with an empty patch, and then
  // runs the whole mutating chain again: the defaults policy must run only when it fills something in.
  // Its own counter of mutation runs (this suite creates nothing else meanwhile: suites run one at a time).
  it('runs the defaults mutation only when it fills something in: never for a pod that has every default, once for one that lacks them', async () => {
    const nodeSelector = { 'kubernetes.io/os': 'linux', pool: id };
    const full = pod('full', { priorityClassName: low, nodeSelector });
    const before = await defaultsPolicyRuns();
    const kept = accepted(await dryRun(full));
    expect(kept.spec.nodeSelector).toEqual(nodeSelector);
    expect(await defaultsPolicyRuns()).toBe(before);
    const filled = accepted(await dryRun(pod('bare')));
    expect(filled.spec.nodeSelector).toEqual(nodeSelector);
    expect(filled.spec.priorityClassName).toBe(low);
    expect(await defaultsPolicyRuns()).toBe(before + 1);
  });

  // kube-apiserver evaluates a validating policy's message expressions whether or not the request is
  // refused; the restrictions policy applies (its match condition) only to what it refuses, so an
  // admitted request runs its checks once, in the match condition, and never reaches its validation.
  it('runs the restrictions validation only for a request it refuses', async () => {
    const before = await policyRuns('validating', 'paddock-tenant-restrictions');
    accepted(await dryRun(pod('allowed')));
    expect(await policyRuns('validating', 'paddock-tenant-restrictions')).toBe(before);
    expect((await dryRun(pod('refused', {}, 'quay.io/x/y'))).stderr).toContain('paddock-tenant-restrictions');
    expect(await policyRuns('validating', 'paddock-tenant-restrictions')).toBe(before + 1);
  });
});

// The policies bind namespaces, not owners: whoever the owner is, the same requests are refused.
describe('kube-apiserver refuses the same to a group owner and a ServiceAccount owner', () => {
  const owners: Record<string, () => Promise<{ user: string; args: string[] }>> = {
    'a member of the owning group': async () => ({ user: 'admin', args: ['--as', `member-${id}`, '--as-group', `devs-${id}`] }),
    'the owning ServiceAccount': async () => ({ user: await serviceAccountUser(`ci-${id}`, 'deployer'), args: [] }),
  };
  const attempts: [string, unknown, string][] = [
    ['an image volume from a registry not allowed', pod('p', { volumes: [{ name: 'v', image: { reference: 'evil.io/payload:latest' } }] }), 'evil.io/payload:latest'],
    ['an upper-case first component, which is a registry host', pod('p', {}, 'EVILHOST/library/nginx'), 'EVILHOST/library/nginx'],
    ['a storage class not allowed, by the beta annotation', pvc({}, { [BETA_STORAGE_CLASS]: gold }), `storage class "${gold}" is not allowed`],
    ['a nodeName', pod('p', { nodeName: 'node-1' }), 'spec.nodeName is not allowed'],
  ];
  describe.each(Object.keys(owners))('as %s', (who) => {
    let as: { user: string; args: string[] };
    beforeAll(async () => {
      as = await owners[who]();
    });
    it.each(attempts)('%s', async (_what, obj, mention) => {
      refused(await kubectl(as.user, [...as.args, 'create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj)), mention);
    });
  });
});

describe('what the owner cannot change (SubjectAccessReviews as alice)', () => {
  const can = async (args: string[]) => (await kubectl('admin', ['auth', 'can-i', ...args, '--as=alice'])).stdout.trim();

  it.each([
    ['validatingadmissionpolicies.admissionregistration.k8s.io', 'paddock-tenant-restrictions'],
    ['mutatingadmissionpolicies.admissionregistration.k8s.io', 'paddock-tenant-defaults'],
    ['validatingadmissionpolicybindings.admissionregistration.k8s.io', 'paddock-tenant-restrictions'],
    ['validatingadmissionpolicybindings.admissionregistration.k8s.io', 'paddock-tenant-restrictions-updates'],
    ['mutatingadmissionpolicybindings.admissionregistration.k8s.io', 'paddock-tenant-defaults'],
  ])('%s %s', async (resource, object) => {
    for (const verb of ['update', 'patch', 'delete']) expect(await can([verb, `${resource}/${object}`])).toBe('no');
    expect(await can(['create', resource])).toBe('no');
  });

  it('nor the TenantRestriction in her namespace, which she may read', async () => {
    const object = 'tenantrestrictions.paddock.dev/paddock-restrictions';
    for (const verb of ['update', 'patch', 'delete']) expect(await can([verb, object, '-n', ns])).toBe('no');
    expect(await can(['create', 'tenantrestrictions.paddock.dev', '-n', ns])).toBe('no');
    expect(await can(['get', object, '-n', ns])).toBe('yes');
  });

  it('nor the tenant label on her namespace that selects the bindings', async () => {
    for (const verb of ['update', 'patch']) expect(await can([verb, `namespace/${ns}`])).toBe('no');
  });
});

describe('reconciled like every guardrail', () => {
  it('repairs an edited binding and a deleted policy', async () => {
    await kubectl('admin', ['patch', 'validatingadmissionpolicybinding', 'paddock-tenant-restrictions', '--type=merge', '-p', '{"spec":{"validationActions":["Audit"]}}']);
    await waitFor('binding repaired', async () => (await kubectlJson('admin', ['get', 'validatingadmissionpolicybinding', 'paddock-tenant-restrictions'])).spec.validationActions.join() === 'Deny', 30_000, 100);
    await kubectl('admin', ['delete', 'mutatingadmissionpolicy', 'paddock-tenant-defaults']);
    await waitFor('policy recreated', async () => (await kubectl('admin', ['get', 'mutatingadmissionpolicy', 'paddock-tenant-defaults'])).code === 0, 30_000, 100);
  });

  // Paddock writes the TenantRestriction first and its NetworkPolicy right after; kube-apiserver looks a
  // binding's parameter up in a cache that may not have seen the first yet: no binding may hold the second.
  it("never had a write of its own refused in the tenant's namespace (kube-apiserver audit log)", async () => {
    const refused = auditWrites(suiteStarted)
      .filter((e) => e.user.username === PADDOCK_USER && e.objectRef?.namespace === ns && (e.responseStatus?.code ?? 0) >= 400 && e.responseStatus?.code !== 409 && !(e.verb === 'delete' && e.responseStatus?.code === 404))
      .map((e) => `${e.verb} ${e.objectRef?.resource}/${e.objectRef?.name} → ${e.responseStatus?.code}`);
    expect(refused).toEqual([]);
  });

  it('issues no write when converged, policies and bindings in place (kube-apiserver audit log)', async () => {
    const NOT_STATE = new Set(['leases', 'tokenreviews', 'subjectaccessreviews']);
    const writes = (since: Date) => auditWrites(since).filter((e) => e.user.username === PADDOCK_USER && !NOT_STATE.has(e.objectRef?.resource ?? ''));
    await waitFor('a quiet cluster', async () => {
      const since = new Date();
      await sleep(5000);
      return writes(since).length === 0;
    }, 90_000, 0);
    const since = new Date();
    await resyncRounds(2);
    expect(writes(since)).toEqual([]);
  });
});

describe('a tenant that restricts less', () => {
  it('has its namespaces restricted and defaulted by what it still sets only, and status.allowed loses the kinds it no longer restricts', async () => {
    await applyObject(tenant(name, { owners: tenantSpec.owners, namespaces: tenantSpec.namespaces, containerRegistries: tenantSpec.containerRegistries }));
    await waitFor('status.allowed emptied', async () => Object.keys((await getTenant()).status.allowed ?? {}).length === 0, 30_000, 100);
    // A pod naming a node was refused while the tenant had a nodeSelector: accepted once kube-apiserver has the change.
    await waitFor('nodeSelector no longer enforced', async () => (await dryRun(pod('named', { nodeName: 'n1' }))).code === 0, 30_000, 100);
    expect(accepted(await dryRun(pod('plain'))).spec.nodeSelector).toBeUndefined();
    refused(await dryRun(pod('quay', {}, 'quay.io/x/y')), 'quay.io/x/y');
    expect((await kubectlJson('admin', ['get', '-n', ns, 'tenantrestriction', 'paddock-restrictions'])).spec).toEqual({ tenant: name, containerRegistries: tenantSpec.containerRegistries });
  });
});

describe('deletion', () => {
  it('releases the namespace: no TenantRestriction left, and nothing of the tenant restricts it', async () => {
    await kubectl('admin', ['delete', 'tenant', name, '--timeout=60s']);
    expect((await kubectl('admin', ['get', '-n', ns, 'tenantrestriction', 'paddock-restrictions'])).code).not.toBe(0);
    accepted(await kubectl('admin', ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(pod('quay', {}, 'quay.io/x/y'))));
  });
});
