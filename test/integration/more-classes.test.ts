import { accepted, readyWithRestriction, refused } from './admission-answers';
import { applyObject, kubectl, kubectlJson, uniqueName, waitFor, type KubectlResult } from './env';
import { tenant } from '../../src/testing/tenants';
import type { TenantSpec } from '../../src/kube/types';

jest.setTimeout(180_000);

/**
 * The class kinds of SPEC §10 beyond §9's, enforced by kube-apiserver itself: as the owner alice, in her
 * own namespace, through real kubectl against the real control plane. No volume is ever provisioned:
 * admission is all that is judged.
 */
const id = uniqueName('mcl').slice(4);
const name = `mcl-${id}`;
const ns = `${name}-app`;
const cls = (n: string) => `${n}-${id}`;
const [silver, platinum, gold, bronze] = [cls('silver'), cls('platinum'), cls('gold'), cls('bronze')];
const tier = `tier-${id}`;
/** A tenant that restricts neither kind. */
const unrestricted = `mcl-${id}-free`;
const unrestrictedNs = `${unrestricted}-app`;
const [gpu, tpu, fpga, nic] = [cls('gpu'), cls('tpu'), cls('fpga'), cls('nic')];

const vac = (n: string) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: n }, driverName: 'example.com/none', parameters: { iops: '3000' } });
const deviceClass = (n: string) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name: n }, spec: {} });
const classes = [vac(silver), vac(platinum), vac(gold), vac(bronze), deviceClass(gpu), deviceClass(tpu), deviceClass(fpga), deviceClass(nic)];

const tenantSpec = {
  owners: [{ kind: 'User', name: 'alice' }],
  namespaces: ['app'],
  volumeAttributesClasses: { allowed: [silver, platinum], selector: { matchLabels: { [tier]: 'gold' } }, default: silver },
  deviceClasses: { allowed: [gpu, tpu], selector: { matchLabels: { [tier]: 'gold' } }, default: gpu },
} satisfies Partial<TenantSpec>;

/** `kubectl create --dry-run=server` as `user` in the tenant namespace: admission runs in full, nothing is stored. */
function dryRun(obj: unknown, user = 'alice'): Promise<KubectlResult> {
  return kubectl(user, ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
}

const pvc = (pvcName: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: pvcName },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const withVAC = (pvcName: string, className: string) => pvc(pvcName, { volumeAttributesClassName: className });

const getTenant = (): Promise<any> => kubectlJson('admin', ['get', 'tenant', name]);

beforeAll(async () => {
  for (const c of classes) await applyObject(c);
  await applyObject(tenant(name, tenantSpec));
  await readyWithRestriction(name, ns);
  // kube-apiserver loads new policies and bindings from its own informers: wait until it enforces them.
  await waitFor('kube-apiserver enforcing the tenant policy', async () => (await dryRun(withVAC('probe', bronze))).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
  await waitFor('kube-apiserver applying the tenant defaults', async () => accepted(await dryRun(pvc('probe'))).spec.volumeAttributesClassName === silver, 30_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, unrestricted, '--wait=false']);
  await kubectl('admin', ['delete', '-f', '-', '--wait=false'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: classes }));
});

describe('volumeAttributesClasses', () => {
  it('are resolved into status.allowed', async () => {
    expect((await getTenant()).status.allowed).toEqual({ volumeAttributesClasses: [platinum, silver].sort(), deviceClasses: [gpu, tpu].sort() });
  });

  it('a PVC naming a class not allowed is refused, naming the class, the tenant and what is allowed', async () => {
    refused(await dryRun(withVAC('data', bronze)), `volume attributes class "${bronze}" is not allowed`, `(tenant ${name})`, `allowed: ${[silver, platinum].join(', ')}`);
  });

  it('a PVC naming an allowed class is accepted as it is', async () => {
    expect(accepted(await dryRun(withVAC('data', platinum))).spec.volumeAttributesClassName).toBe(platinum);
  });

  it('the default fills in a PVC naming none; an empty name is none, as kube reads it, and stays', async () => {
    expect(accepted(await dryRun(pvc('data'))).spec.volumeAttributesClassName).toBe(silver);
    expect(accepted(await dryRun(withVAC('data', ''))).spec.volumeAttributesClassName).toBe('');
  });

  it("a Pod's ephemeral volume naming a class not allowed is refused; an allowed one is accepted", async () => {
    const pod = (className: string) => ({
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' },
      spec: {
        containers: [{ name: 'c', image: 'nginx:1.27', volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }] }],
        volumes: [{ name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: withVAC('', className).spec } } }],
      },
    });
    refused(await dryRun(pod(bronze)), `volume attributes class "${bronze}" of an ephemeral volume is not allowed`, `allowed: ${[silver, platinum].join(', ')}`);
    accepted(await dryRun(pod(platinum)));
  });

  it('a class whose labels match the selector is allowed once status.allowed shows it', async () => {
    refused(await dryRun(withVAC('data', gold)), `volume attributes class "${gold}" is not allowed`);
    await kubectl('admin', ['label', 'volumeattributesclass', gold, `${tier}=gold`]);
    await waitFor('relabelled class in status.allowed', async () => ((await getTenant()).status.allowed.volumeAttributesClasses ?? []).includes(gold), 30_000, 100);
    await waitFor('kube-apiserver accepting the relabelled class', async () => (await dryRun(withVAC('data', gold))).code === 0, 30_000, 100);
    expect(accepted(await dryRun(withVAC('data', gold))).spec.volumeAttributesClassName).toBe(gold);
  });

  it('an update changing the class of a bound PVC is refused for a class not allowed and accepted for one allowed', async () => {
    // kube lets volumeAttributesClassName change only once the claim is bound: no binder runs here, so
    // the phase is set as the binder would.
    accepted(await kubectl('alice', ['create', '-n', ns, '-o', 'json', '-f', '-'], JSON.stringify(withVAC('bound', silver))));
    expect((await kubectl('admin', ['patch', 'pvc', 'bound', '-n', ns, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status: { phase: 'Bound' } })])).code).toBe(0);
    const change = (className: string) => kubectl('alice', ['patch', 'pvc', 'bound', '-n', ns, '--dry-run=server', '-o', 'json', '--type=merge', '-p', JSON.stringify({ spec: { volumeAttributesClassName: className } })]);
    expect(accepted(await change(platinum)).spec.volumeAttributesClassName).toBe(platinum);
    refused(await change(bronze), `volume attributes class "${bronze}" is not allowed`, `(tenant ${name})`);
    // An update that leaves the class alone is not judged again.
    expect((await kubectl('alice', ['label', 'pvc', 'bound', '-n', ns, '--dry-run=server', 'touched=yes'])).code).toBe(0);
  });
});

/** A device request naming `className` exactly (none: `exactly` without a class). */
const exactly = (requestName: string, className?: string) => ({ name: requestName, exactly: className === undefined ? { allocationMode: 'ExactCount', count: 1 } : { deviceClassName: className } });
/** A device request of subrequests, each naming one of `classNames` ('' for none). */
const firstAvailable = (requestName: string, ...classNames: string[]) => ({
  name: requestName, firstAvailable: classNames.map((c, i) => ({ name: `s${i}`, ...(c === '' ? {} : { deviceClassName: c }) })),
});
const claim = (...requests: unknown[]) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name: 'devices' }, spec: { devices: { requests } } });
const template = (...requests: unknown[]) => ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name: 'devices' }, spec: { spec: { devices: { requests } } } });
// Tenant owners are not granted ResourceClaims; admission judges every user alike, so the cluster admin asks.
const dryRunClaim = (obj: unknown) => dryRun(obj, 'admin');
const requestsOf = (obj: any) => (obj.kind === 'ResourceClaim' ? obj.spec : obj.spec.spec).devices.requests;

describe('deviceClasses', () => {
  it('resource.k8s.io/v1 ResourceClaims and ResourceClaimTemplates are served', async () => {
    const res = await kubectl('admin', ['api-resources', '--api-group=resource.k8s.io', '-o', 'name']);
    expect(res.stdout.split('\n')).toEqual(expect.arrayContaining(['deviceclasses.resource.k8s.io', 'resourceclaims.resource.k8s.io', 'resourceclaimtemplates.resource.k8s.io']));
  });

  it.each([['ResourceClaim', claim], ['ResourceClaimTemplate', template]] as const)('a %s naming a class not allowed, exactly or in any subrequest, is refused naming it, the tenant and what is allowed', async (_kind, make) => {
    const denied = [
      [make(exactly('a', fpga)), fpga],
      [make(exactly('a', gpu), exactly('b', nic)), nic],
      [make(firstAvailable('a', gpu, fpga)), fpga],
      [make(exactly('a', tpu), firstAvailable('b', gpu, tpu), firstAvailable('c', nic, gpu)), nic],
    ] as const;
    for (const [obj, className] of denied) {
      refused(await dryRunClaim(obj), `device class "${className}" is not allowed`, `(tenant ${name})`, `allowed: ${[gpu, tpu].join(', ')}`);
    }
  });

  it.each([['ResourceClaim', claim], ['ResourceClaimTemplate', template]] as const)('a %s naming only allowed classes is accepted as it is', async (_kind, make) => {
    const obj = accepted(await dryRunClaim(make(exactly('a', tpu), firstAvailable('b', gpu, tpu))));
    expect(requestsOf(obj).map((r: any) => r.exactly?.deviceClassName ?? r.firstAvailable.map((s: any) => s.deviceClassName))).toEqual([tpu, [gpu, tpu]]);
  });

  it.each([['ResourceClaim', claim], ['ResourceClaimTemplate', template]] as const)('the default fills in every request and subrequest of a %s naming no class, and only those', async (_kind, make) => {
    const obj = accepted(await dryRunClaim(make(exactly('a'), exactly('b', tpu), firstAvailable('c', tpu, ''))));
    expect(requestsOf(obj).map((r: any) => r.exactly?.deviceClassName ?? r.firstAvailable.map((s: any) => s.deviceClassName))).toEqual([gpu, tpu, [tpu, gpu]]);
  });

  it('a class whose labels match the selector is allowed once status.allowed shows it', async () => {
    refused(await dryRunClaim(claim(exactly('a', fpga))), `device class "${fpga}" is not allowed`);
    await kubectl('admin', ['label', 'deviceclass', fpga, `${tier}=gold`]);
    await waitFor('relabelled class in status.allowed', async () => ((await getTenant()).status.allowed.deviceClasses ?? []).includes(fpga), 30_000, 100);
    await waitFor('kube-apiserver accepting the relabelled class', async () => (await dryRunClaim(claim(exactly('a', fpga)))).code === 0, 30_000, 100);
    accepted(await dryRunClaim(template(firstAvailable('a', fpga))));
  });
});

describe('a tenant that restricts neither kind', () => {
  it('may name any VolumeAttributesClass and DeviceClass, and gets no default', async () => {
    await applyObject(tenant(unrestricted, { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app'] }));
    await waitFor(`the TenantRestriction of ${unrestricted}`, async () => (await kubectl('admin', ['get', '-n', unrestrictedNs, 'tenantrestriction/paddock-restrictions'])).code === 0, 60_000, 250);
    const create = (obj: unknown, user: string) => kubectl(user, ['create', '-n', unrestrictedNs, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
    await waitFor('kube-apiserver admitting in the new namespace', async () => (await create(withVAC('data', bronze), 'alice')).code === 0, 30_000, 250);
    expect(accepted(await create(withVAC('data', bronze), 'alice')).spec.volumeAttributesClassName).toBe(bronze);
    expect(accepted(await create(pvc('data'), 'alice')).spec.volumeAttributesClassName).toBeUndefined();
    expect(requestsOf(accepted(await create(claim(exactly('a', nic), firstAvailable('b', fpga)), 'admin'))).map((r: any) => r.exactly?.deviceClassName ?? r.firstAvailable[0].deviceClassName)).toEqual([nic, fpga]);
  });
});
