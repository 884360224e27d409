import { kubectl, kubectlJson, waitFor } from '../../env';
import { projectedMetadata, type TableCorpus } from '../corpus';

const names = (id: string) => ['full', 'open', 'over', 'pending'].map((n) => `${id}-${n}`);

/** The Tenants' own answer: every one reconciled (its Ready condition written for its current generation). */
async function reconciled(id: string): Promise<boolean> {
  const tenants = (await kubectlJson('admin', ['get', 'tenants', ...names(id)])).items as any[];
  return tenants.every((t) => t.status?.observedGeneration === t.metadata.generation && t.status?.conditions?.some((c: any) => c.type === 'Ready'));
}

/**
 * Tenant: the Tenant CRD's additionalPrinterColumns, printed by kube-apiserver's CRD table convertor
 * (k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor).
 */
export const TENANTS: TableCorpus = {
  view: 'ownedtenants',
  viewKind: 'OwnedTenant',
  source: '/apis/paddock.dev/v1alpha1/tenants',
  branches: [
    'integer columns: present (NAMESPACES 1, 0; QUOTA 3, 1, 0) and absent (QUOTA with no namespaceQuota: a null cell)',
    'the Ready condition found by a JSONPath filter: True and False',
    'string columns: OWNERS of User, Group and ServiceAccount owners with roles; PHASE Active, Degraded, Pending',
    'the date column (AGE)',
  ],
  objects: (id, labels) => {
    const tenant = (name: string, spec: Record<string, unknown>) => ({ apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', metadata: { name: `${id}-${name}`, labels }, spec: { deletionPolicy: 'Delete', ...spec } });
    return [
      tenant('full', {
        owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'ops', role: 'operator' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'viewer' }],
        namespaces: ['app'], namespaceQuota: 3,
      }),
      tenant('open', { owners: [{ kind: 'User', name: 'bob' }] }),
      tenant('over', { owners: [{ kind: 'User', name: 'carol' }], namespaces: ['a', 'b'], namespaceQuota: 1 }),
      tenant('pending', { owners: [{ kind: 'User', name: 'carol' }], namespaces: ['a'], namespaceQuota: 0 }),
    ];
  },
  settled: (id) => waitFor('the corpus Tenants reconciled', () => reconciled(id), 60_000, 250),
  // The view shows the Tenant's spec and status, but not the claims (Paddock's proof of which namespaces are the tenant's).
  projection: (source) => {
    const { claims: _claims, ...status } = source.status ?? {};
    return { metadata: projectedMetadata(source), body: { spec: source.spec, status } };
  },
  cleanup: async (id) => {
    await kubectl('admin', ['delete', 'tenants', ...names(id), '--wait=false']);
  },
};
