import { kubectl, kubectlJson, waitFor } from '../../env';
import type { TableCorpus } from '../corpus';

const tenants = (id: string) => [`${id}-oil`, `${id}-gas`];

/**
 * Namespace: kube's printNamespace (pkg/printers/internalversion/printers.go). A TenantNamespace prints
 * more than its Namespace (the tenant, owners, quota...): the columns both have are compared.
 */
export const NAMESPACES: TableCorpus = {
  view: 'tenantnamespaces',
  viewKind: 'TenantNamespace',
  source: '/api/v1/namespaces',
  branches: [
    'NAME, STATUS (Active) and AGE of the tenants\' namespaces; Terminating is left out (a tenant namespace is fenced from deletion)',
  ],
  objects: (id, labels) => [
    { apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', metadata: { name: `${id}-oil`, labels }, spec: { owners: [{ kind: 'User', name: 'alice' }], namespaces: ['app', 'web'], deletionPolicy: 'Delete' } },
    { apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', metadata: { name: `${id}-gas`, labels }, spec: { owners: [{ kind: 'Group', name: 'gas' }], namespaces: ['app'], deletionPolicy: 'Delete' } },
  ],
  selector: (id) => `paddock.dev/tenant in (${tenants(id).join(',')})`,
  settled: (id) => waitFor('the corpus namespaces provisioned', async () => (await kubectlJson('admin', ['get', 'namespaces', '-l', `paddock.dev/tenant in (${tenants(id).join(',')})`])).items.length === 3, 60_000, 250),
  sharedColumnsOnly: true,
  cleanup: async (id) => {
    await kubectl('admin', ['delete', 'tenants', ...tenants(id), '--wait=false']);
  },
};
