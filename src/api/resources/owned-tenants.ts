import type { KubeObject, Tenant } from '../../kube/types';
import { TENANT_PRINTER_COLUMNS } from '../../tenancy/schema/tenant-crd';
import { crdTable } from '../table';
import type { ViewDefinition } from './projected/define';

type Obj = KubeObject & Record<string, any>;

/**
 * `ownedtenants`: the Tenants a caller owns (admins: all), so that an owner can read its quota, status
 * and allowed classes, and `kubectl get paddock` works for every caller. Printed with the Tenant CRD's
 * own columns. Claims (Paddock's proof of which namespaces are the tenant's) are not shown.
 */
export const OWNED_TENANTS: ViewDefinition = {
  kind: 'OwnedTenant',
  resource: 'ownedtenants',
  shortName: 'otn',
  source: { group: 'paddock.dev', resource: 'tenants', kind: 'Tenant', apiVersion: 'paddock.dev/v1alpha1' },
  informer: (c) => c.tenants as never,
  mayUse: (t: Tenant, o: KubeObject) => t.metadata.name === o.metadata.name,
  sameNameOnly: true,
  relevant: () => null,
  // Claims left out as undefined, which JSON does not write: a copy with one key fewer would be built a
  // key at a time, its fields spilling out of the object.
  body: (o) => ({ spec: (o as Obj).spec, status: { ...((o as Obj).status ?? {}), claims: undefined } }),
  description: 'OwnedTenant is a Tenant (paddock.dev/v1alpha1) the caller owns: its spec and status.',
  fields: {
    spec: ['object', 'Spec of the Tenant: owners, namespaces, quotas and what its workloads may use.'],
    status: ['object', 'Status of the Tenant: phase, namespaces, the classes it may use (allowed) and conditions.'],
  },
  // The Tenant CRD's own printer columns, printed as kube-apiserver prints a custom resource: `kubectl
  // get otn` and `kubectl get tenants` show the same cells, whatever columns the CRD declares.
  table: crdTable(TENANT_PRINTER_COLUMNS),
};

