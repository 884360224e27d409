import type { PaddockCache } from '../cache/paddock-cache';
import { FakeInformer } from '../cache/testing/fake-informer';
import { PADDOCK, type KubeObject, type Tenant } from '../kube/types';
import { DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, restrictionsPolicy } from '../tenancy/admission-policies';
import { tenant } from '../testing/tenants';
import { TenantAdmission } from './admission';
import type { Writer } from './writer';

const byTenantLabel = (o: KubeObject): [string, string[]][] => [['tenant', [o.metadata.labels?.[PADDOCK.tenantLabel] ?? '']]];

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
    const key = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;
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

function world(tenants: Tenant[]) {
  const informers = {
    tenants: new FakeInformer<Tenant>(),
    restrictionsPolicy: new FakeInformer<KubeObject>(),
    defaultsPolicy: new FakeInformer<KubeObject>(),
    restrictionsBindings: new FakeInformer<KubeObject>(byTenantLabel),
    defaultsBindings: new FakeInformer<KubeObject>(byTenantLabel),
  };
  for (const t of tenants) informers.tenants.set(t.metadata.name, t);
  const classes = new FakeInformer<KubeObject>();
  const policies: Record<string, FakeInformer<KubeObject>> = { [RESTRICTIONS_POLICY_NAME]: informers.restrictionsPolicy, [DEFAULTS_POLICY_NAME]: informers.defaultsPolicy };
  const bindings: Record<string, FakeInformer<KubeObject>> = { ValidatingAdmissionPolicyBinding: informers.restrictionsBindings, MutatingAdmissionPolicyBinding: informers.defaultsBindings };
  const cache = { tenants: informers.tenants, classes: () => classes, policy: (name: string) => policies[name], guardrail: (kind: string) => bindings[kind] } as unknown as PaddockCache;
  const cluster = new FakeCluster();
  return { cluster, informers, admission: new TenantAdmission(cache, cluster.writer()) };
}

const stored = (name: string, spec: Partial<Tenant['spec']>): Tenant => tenant(name, spec, undefined, { uid: `uid-${name}` });

describe('TenantAdmission', () => {
  it('creates the policies a tenant binds before its bindings, when no tenant needed them yet', async () => {
    const oil = stored('oil', { storageClasses: { allowed: ['std'], default: 'std' } });
    const { cluster, admission } = world([oil]);
    await admission.ensureBindings(oil, () => undefined);
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([
      `create ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`,
      'create ValidatingAdmissionPolicyBinding/paddock-restrictions-oil',
      `create MutatingAdmissionPolicy/${DEFAULTS_POLICY_NAME}`,
      'create MutatingAdmissionPolicyBinding/paddock-defaults-oil',
    ]);
  });

  it('writes nothing for a tenant that binds neither policy', async () => {
    const gas = stored('gas', {});
    const { cluster, admission } = world([gas]);
    await admission.ensureBindings(gas, () => undefined);
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([]);
  });

  it('removes a policy once the last tenant that needed it stops needing it, and only then', async () => {
    const oil = stored('oil', { containerRegistries: { allowed: ['ghcr.io/oil'] } });
    const gas = stored('gas', { containerRegistries: { allowed: ['ghcr.io/gas'] } });
    const { cluster, informers, admission } = world([oil, gas]);
    const policy = { ...restrictionsPolicy(), metadata: { ...restrictionsPolicy().metadata, uid: 'p1', resourceVersion: '7' } };
    informers.restrictionsPolicy.set(RESTRICTIONS_POLICY_NAME, policy);
    informers.tenants.set('oil', stored('oil', {}));
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([]);
    informers.tenants.remove('gas');
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([`delete ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`]);
  });

  it('repairs a policy edited after an earlier pass found it as wanted', async () => {
    const oil = stored('oil', { containerRegistries: { allowed: ['ghcr.io/oil'] } });
    const { cluster, informers, admission } = world([oil]);
    const want = restrictionsPolicy();
    informers.restrictionsPolicy.set(RESTRICTIONS_POLICY_NAME, { ...want, metadata: { ...want.metadata, resourceVersion: '7' } });
    await admission.reconcilePolicies();
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([]);
    informers.restrictionsPolicy.set(RESTRICTIONS_POLICY_NAME, { ...want, metadata: { ...want.metadata, resourceVersion: '8' }, spec: { ...want.spec, failurePolicy: 'Ignore' } } as KubeObject);
    await admission.reconcilePolicies();
    expect(cluster.writes).toEqual([`update ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`]);
  });

  it('names the tenants a policy event concerns: those that bind either policy', () => {
    const { informers, admission } = world([stored('oil', { containerRegistries: { allowed: ['ghcr.io/oil'] } }), stored('gas', {})]);
    expect(admission.tenantsConcerned('policy', restrictionsPolicy())).toEqual(['oil']);
    informers.tenants.set('gas', stored('gas', { storageClasses: { allowed: ['std'], default: 'std' } }));
    expect(admission.tenantsConcerned('policy', restrictionsPolicy()).sort()).toEqual(['gas', 'oil']);
  });
});
