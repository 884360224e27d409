/**
 * The cache the projected views read, as fakes: Tenants, StorageClasses and Nodes set by the tests.
 * Not used by the program.
 */
import type { PaddockCache } from '../../cache/paddock-cache';
import { FakeInformer } from '../../cache/testing/fake-informer';
import type { KubeObject, Tenant, TenantSpec, TenantStatus } from '../../kube/types';

export function viewWorld(tenantStatus: (name: string) => TenantStatus = () => ({})) {
  const tenants = new FakeInformer<Tenant>();
  const storageClasses = new FakeInformer<KubeObject>();
  const nodes = new FakeInformer<KubeObject>();
  const cache = { tenants, storageClasses, nodes } as unknown as PaddockCache;
  const tenant = (name: string, owners: Tenant['spec']['owners'], spec: Partial<TenantSpec> = {}) =>
    tenants.set(name, { metadata: { name, uid: name }, spec: { owners, ...spec }, status: tenantStatus(name) });
  const sc = (name: string, labels: Record<string, string> = {}) =>
    storageClasses.set(name, { apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name, uid: `uid-${name}`, labels, creationTimestamp: '2026-01-01T00:00:00Z' }, provisioner: 'example.com/disk' } as KubeObject);
  const node = (name: string, labels: Record<string, string>) => nodes.set(name, { metadata: { name, uid: `uid-${name}`, labels } });
  return { tenants, storageClasses, nodes, cache, tenant, sc, node };
}
