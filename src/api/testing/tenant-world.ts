import { INDEX, type PaddockCache } from '../../cache/paddock-cache';
import { FakeInformer } from '../../cache/testing/fake-informer';
import type { Namespace, NamespaceClaim, ResourceQuota, Tenant, TenantSpec } from '../../kube/types';
import { tenant as tenantNamed } from '../../testing/tenants';
import { ownerKeysOfTenant } from '../../tenancy/owner-keys';
import { TenantNamespaceView } from '../resources/tenantnamespaces/view';
import { ResourceVersionSeal } from '../storage/version-seal';

/** One key for every replica a test makes, as replicas share the serving certificate's. */
export const TEST_SEAL = new ResourceVersionSeal(() => 'a test key');

/**
 * Tenants, namespaces and quotas in fake informers, with the TenantNamespace view over them: a small
 * world for unit tests of what reads the cache. Not used by the program.
 */
export function tenantWorld(opts: { window?: number } = {}) {
  const tenants = new FakeInformer<Tenant>((t) => [[INDEX.owner, [...ownerKeysOfTenant(t)]]]);
  const namespaces = new FakeInformer<Namespace>();
  const quotas = new FakeInformer<ResourceQuota>((q) => [[INDEX.namespace, [q.metadata.namespace ?? '']]]);
  const cache = {
    tenants, namespaces, resourceQuotas: quotas,
    quotasIn: (ns: string) => quotas.store.list().filter((q) => q.metadata.namespace === ns),
    namespacesOf: (t: string) => namespaces.store.list().filter((n) => n.metadata.labels?.['paddock.dev/tenant'] === t),
  } as unknown as PaddockCache;
  const tns = new TenantNamespaceView(cache, opts.window ?? 100, TEST_SEAL);
  /** The rows as the request path reads them (and, for tests, the store's change log). */
  const view = tns.store;
  const tenant = (name: string, owners: Tenant['spec']['owners'], claims: NamespaceClaim[], spec: Partial<TenantSpec> = {}) =>
    tenants.set(name, tenantNamed(name, { owners, ...spec }, { claims }, { uid: name }));
  const namespace = (name: string, tenantName: string, phase: 'Active' | 'Terminating' = 'Active') =>
    namespaces.set(name, { metadata: { name, uid: `uid-${name}`, labels: { 'paddock.dev/tenant': tenantName } }, status: { phase } });
  return { tenants, namespaces, quotas, cache, tns, view, tenant, namespace };
}
