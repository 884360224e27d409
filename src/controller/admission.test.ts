import type { PaddockCache } from '../cache/paddock-cache';
import { FakeInformer } from '../cache/testing/fake-informer';
import type { KubeObject, Tenant } from '../kube/types';
import { admissionObjects, RESTRICTIONS_POLICY_NAME } from '../tenancy/admission-policies';
import { tenant } from '../testing/tenants';
import { TenantAdmission } from './admission';
import type { Writer } from './writer';

const key = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;

/**
 * The cluster as kube-apiserver keeps it, for what TenantAdmission writes: objects by kind and name, and
 * kube-apiserver's rule for a binding with a paramRef written by a user that may not get every resource
 * (Paddock): it is refused while the policy it names does not exist (the permission check reads the
 * policy's paramKind).
 */
class FakeCluster {
  readonly objects = new Map<string, KubeObject>();
  readonly writes: string[] = [];

  writer(): Writer {
    return {
      createIfAbsent: async (obj: KubeObject & { spec?: { policyName?: string; paramRef?: unknown } }) => {
        const policyKind = obj.kind?.replace(/Binding$/, '');
        if (obj.spec?.paramRef && policyKind !== obj.kind && !this.objects.has(`${policyKind}/${obj.spec.policyName}`)) {
          this.writes.push(`refused ${key(obj)}`);
          throw new Error(`${obj.kind} "${obj.metadata.name}" is invalid: spec.paramRef: Forbidden: unable to get policy ${obj.spec.policyName}`);
        }
        if (this.objects.has(key(obj))) return undefined;
        this.writes.push(`create ${key(obj)}`);
        this.objects.set(key(obj), obj);
        return obj;
      },
      get: async (obj: KubeObject) => this.objects.get(key(obj)),
      update: async (obj: KubeObject) => {
        this.writes.push(`update ${key(obj)}`);
        this.objects.set(key(obj), obj);
        return obj;
      },
      delete: async (obj: KubeObject) => {
        this.writes.push(`delete ${key(obj)}`);
        this.objects.delete(key(obj));
      },
    } as unknown as Writer;
  }
}

function world(tenants: Tenant[], listed = true) {
  const tenantInformer = new FakeInformer<Tenant>();
  for (const t of tenants) tenantInformer.set(t.metadata.name, t);
  if (listed) tenantInformer.markListed();
  const admission = new Map(admissionObjects().map((o) => [key(o), new FakeInformer<KubeObject>()]));
  const classes = new FakeInformer<KubeObject>();
  const cache = { tenants: tenantInformer, classes: () => classes, admissionObject: (kind: string, name: string) => admission.get(`${kind}/${name}`) } as unknown as PaddockCache;
  const cluster = new FakeCluster();
  /** What the informers would show once they have seen every write. */
  const sync = () => {
    for (const [k, informer] of admission) {
      const stored = cluster.objects.get(k);
      if (stored) informer.set(stored.metadata.name, { ...stored, metadata: { ...stored.metadata, resourceVersion: String(cluster.writes.length) } });
      else if (informer.store.get(k.split('/')[1]!)) informer.remove(k.split('/')[1]!);
    }
  };
  return { cluster, tenants: tenantInformer, admission, sync, pass: new TenantAdmission(cache, cluster.writer()) };
}

const stored = (name: string): Tenant => tenant(name, {}, undefined, { uid: `uid-${name}` });
const ALL = admissionObjects().map((o) => `create ${key(o)}`);

describe('TenantAdmission', () => {
  it('creates the policies, then the bindings that name them, once any Tenant exists — whatever it restricts', async () => {
    const { cluster, pass } = world([stored('gas')]);
    await pass.reconcile();
    expect(cluster.writes).toEqual(ALL);
    for (const b of admissionObjects().filter((o) => o.kind!.endsWith('Binding'))) {
      const policy = `create ${b.kind!.replace(/Binding$/, '')}/${String(b.spec.policyName)}`;
      expect(cluster.writes.indexOf(`create ${key(b)}`)).toBeGreaterThan(cluster.writes.indexOf(policy));
    }
  });

  it('writes nothing once they are in place, however many passes and tenants', async () => {
    const { cluster, tenants, sync, pass } = world([stored('oil')]);
    await pass.reconcile();
    sync();
    for (let i = 0; i < 50; i++) tenants.set(`t${i}`, stored(`t${i}`));
    await Promise.all([pass.reconcile(), pass.reconcile(), pass.reconcile()]);
    expect(cluster.writes).toEqual(ALL);
  });

  it('removes them, bindings first, once the last Tenant is gone', async () => {
    const { cluster, tenants, sync, pass } = world([stored('oil'), stored('gas')]);
    await pass.reconcile();
    sync();
    tenants.remove('gas');
    await pass.reconcile();
    expect(cluster.writes).toEqual(ALL);
    tenants.remove('oil');
    await pass.reconcile();
    expect(cluster.writes.slice(ALL.length)).toEqual(admissionObjects().reverse().map((o) => `delete ${key(o)}`));
  });

  it('stops removing them as soon as a Tenant appears, and the next pass puts back what went', async () => {
    const { cluster, tenants, sync, pass } = world([stored('oil')]);
    await pass.reconcile();
    sync();
    tenants.remove('oil');
    const writer = pass.writer;
    const del = writer.delete.bind(writer);
    // The Tenant gas arrives while the first object is being deleted.
    writer.delete = (async (obj: KubeObject) => {
      await del(obj);
      tenants.set('gas', stored('gas'));
    }) as Writer['delete'];
    await pass.reconcile();
    const fenced = admissionObjects().reverse()[0]!;
    expect(cluster.writes.slice(ALL.length)).toEqual([`delete ${key(fenced)}`]);
    sync();
    await pass.reconcile();
    expect(cluster.writes.slice(ALL.length + 1)).toEqual([`create ${key(fenced)}`]);
  });

  it('neither writes nor deletes anything until the Tenants are listed (an empty store then says nothing)', async () => {
    const { cluster, tenants, sync, pass } = world([stored('oil')]);
    await pass.reconcile();
    sync();
    // Paddock restarts on a converged cluster: its admission informers list before its Tenant informer.
    const restarted = world([], false);
    for (const [k, informer] of restarted.admission) {
      const live = cluster.objects.get(k);
      if (live) informer.set(live.metadata.name, live);
    }
    await restarted.pass.reconcile();
    expect(restarted.cluster.writes).toEqual([]);
    restarted.tenants.set('oil', stored('oil'));
    restarted.tenants.markListed();
    await restarted.pass.reconcile();
    expect(restarted.cluster.writes.filter((w) => w.startsWith('delete'))).toEqual([]);
    expect(tenants.store.size).toBe(1);
  });

  it('repairs one edited after an earlier pass found it as wanted', async () => {
    const { cluster, admission, sync, pass } = world([stored('oil')]);
    await pass.reconcile();
    sync();
    await pass.reconcile();
    const informer = admission.get(`ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`)!;
    const live = informer.store.get(RESTRICTIONS_POLICY_NAME)!;
    informer.set(RESTRICTIONS_POLICY_NAME, { ...live, metadata: { ...live.metadata, resourceVersion: '99' }, spec: { ...(live as unknown as { spec: object }).spec, failurePolicy: 'Ignore' } } as KubeObject);
    await pass.reconcile();
    expect(cluster.writes.slice(ALL.length)).toEqual([`update ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`]);
  });
});
