import type { KubeObject, Tenant } from '../../kube/types';
import { AGE_COLUMN, column, NAME_COLUMN, NONE, translateTimestampSince } from '../table';
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
  table: {
    columns: [
      NAME_COLUMN,
      column('Namespaces', 'Namespaces the tenant has', 0, '', 'integer'),
      column('Quota', 'Most namespaces the tenant may have', 0, '', 'integer'),
      column('Ready', ''),
      AGE_COLUMN,
      column('Owners', 'Owners as kind/name:role', 1),
      column('Phase', '', 1),
      column('Budget', "The tenant-wide quota: per resource, used/hard summed over the tenant's namespaces", 1),
    ],
    cells: (row, now) => {
      const o = row as Obj;
      const ready = (o.status?.conditions ?? []).find((c: { type: string }) => c.type === 'Ready');
      return [o.metadata.name, o.status?.size ?? NONE, o.spec?.namespaceQuota ?? NONE, ready?.status ?? NONE, translateTimestampSince(o.metadata.creationTimestamp, now), o.status?.ownerSummary ?? NONE, o.status?.phase ?? NONE, budgetCell(o.status?.quota)];
    },
  },
};

/** `pods 12/50, requests.cpu 3/20`: the tenant-wide quota's use of its budget; `<none>` without one. */
function budgetCell(quota: { hard?: Record<string, string>; used?: Record<string, string> } | undefined): string {
  const hard = quota?.hard;
  if (!hard || Object.keys(hard).length === 0) return NONE;
  return Object.keys(hard).sort().map((r) => `${r} ${quota.used?.[r] ?? '0'}/${hard[r]}`).join(', ');
}
