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

const vac = (n: string) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttributesClass', metadata: { name: n }, driverName: 'example.com/none', parameters: { iops: '3000' } });
const classes = [vac(silver), vac(platinum), vac(gold), vac(bronze)];

const tenantSpec = {
  owners: [{ kind: 'User', name: 'alice' }],
  namespaces: ['app'],
  volumeAttributesClasses: { allowed: [silver, platinum], selector: { matchLabels: { [tier]: 'gold' } }, default: silver },
} satisfies Partial<TenantSpec>;

/** `kubectl create --dry-run=server` as alice in the tenant namespace: admission runs in full, nothing is stored. */
function dryRun(obj: unknown): Promise<KubectlResult> {
  return kubectl('alice', ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
}

const pvc = (pvcName: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: pvcName },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, ...spec },
});
const withVAC = (pvcName: string, className: string) => pvc(pvcName, { volumeAttributesClassName: className });

function refused(res: KubectlResult, ...mentions: string[]): void {
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('paddock-tenant-restrictions');
  for (const m of mentions) expect(res.stderr).toContain(m);
}

function accepted(res: KubectlResult): any {
  if (res.code !== 0) throw new Error(`refused: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

const getTenant = (): Promise<any> => kubectlJson('admin', ['get', 'tenant', name]);

beforeAll(async () => {
  for (const c of classes) await applyObject(c);
  await applyObject(tenant(name, tenantSpec));
  await waitFor(`tenant ${name} Ready with its TenantRestriction`, async () => {
    const t = await getTenant();
    const ready = t.status?.conditions?.find((c: any) => c.type === 'Ready');
    if (ready?.status !== 'True' || t.status?.observedGeneration !== t.metadata.generation) return false;
    return (await kubectl('admin', ['get', '-n', ns, 'tenantrestriction/paddock-restrictions'])).code === 0;
  }, 60_000, 250);
  // kube-apiserver loads new policies and bindings from its own informers: wait until it enforces them.
  await waitFor('kube-apiserver enforcing the tenant policy', async () => (await dryRun(withVAC('probe', bronze))).stderr.includes('paddock-tenant-restrictions'), 30_000, 250);
  await waitFor('kube-apiserver applying the tenant defaults', async () => accepted(await dryRun(pvc('probe'))).spec.volumeAttributesClassName === silver, 30_000, 250);
});

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
  await kubectl('admin', ['delete', '-f', '-', '--wait=false'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: classes }));
});

describe('volumeAttributesClasses', () => {
  it('are resolved into status.allowed', async () => {
    expect((await getTenant()).status.allowed).toEqual({ volumeAttributesClasses: [platinum, silver].sort() });
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
