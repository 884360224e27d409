/**
 * The RoleBindings Paddock keeps in each tenant namespace:
 * - the owners': one per role that some owner holds, named after the shipped ClusterRole it binds
 *   (`paddock:tenant-<role>`), holding every owner with that role;
 * - spec.additionalRoleBindings (SPEC §10): one per item, `paddock:additional:<clusterRoleName>`,
 *   binding that cluster role to the item's subjects. Which roles may be named is the installation's
 *   choice (bindable.ts); desired() binds what it is given, the items refused already left out.
 * Subjects compare as a set once defaulted; a changed roleRef (immutable) means delete and create again.
 *
 * RoleBindings give access: when a namespace is released, every one in it goes first, Paddock's or not.
 */
import type { ResourceRef } from '../../kube/resources';
import type { OwnerRole, RoleBinding, Subject, Tenant, TenantOwner, TenantSubject } from '../../kube/types';
import { diffJson, type FieldDiff } from '../json';
import { OWNER_ROLES, RBAC_GROUP, tenantClusterRoleName } from '../names';
import { inTenantNamespaces } from './cached';
import { guardrailMeta, manages, typeMeta, type GuardrailKind } from './kind';

const RESOURCE: ResourceRef = { group: RBAC_GROUP, version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', namespaced: true };

/**
 * The RoleBinding that holds every owner with `role`. It is named after the ClusterRole it binds, as
 * kube-apiserver names its own bootstrap bindings (`system:node` binds `system:node`): one binding per
 * role, so its name never depends on who the owners are, and `kubectl get rolebindings` reads as
 * "who has paddock:tenant-admin here".
 */
export function roleBindingName(role: OwnerRole): string {
  return tenantClusterRoleName(role);
}

/** The owners holding each role, roles strongest first, owners in spec order; roles nobody holds are left out. */
export function ownersByRole(owners: TenantOwner[]): [OwnerRole, TenantOwner[]][] {
  return OWNER_ROLES.map((role): [OwnerRole, TenantOwner[]] => [role, owners.filter((o) => (o.role ?? 'admin') === role)]).filter(
    ([, holders]) => holders.length > 0,
  );
}

/** An owner or another subject of a Tenant as an RBAC subject, with the fields kube-apiserver would default already filled in. */
function rbacSubject(subject: TenantSubject): Subject {
  if (subject.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: subject.name, namespace: subject.namespace ?? '' };
  return { kind: subject.kind, apiGroup: RBAC_GROUP, name: subject.name };
}

const ADDITIONAL_PREFIX = 'paddock:additional:';

/**
 * The RoleBinding of the additionalRoleBindings item that binds `clusterRoleName`. Named after the
 * role, not the item's position: removing or reordering items leaves the others' bindings as they are
 * (a position would move a binding to another role, and a roleRef cannot be updated). It cannot be
 * the name of an owners' binding (`paddock:tenant-<role>`: another prefix), nor of another item's (a
 * role is listed once: the CRD's list-map key, and validate.ts).
 */
export function additionalBindingName(clusterRoleName: string): string {
  return `${ADDITIONAL_PREFIX}${clusterRoleName}`;
}

function ownerBindings(tenant: Tenant, namespace: string): RoleBinding[] {
  return ownersByRole(tenant.spec.owners).map(([role, owners]) => ({
    ...typeMeta(RESOURCE),
    metadata: guardrailMeta(tenant, namespace, roleBindingName(role)),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: tenantClusterRoleName(role) },
    subjects: owners.map(rbacSubject),
  }));
}

function additionalBindings(tenant: Tenant, namespace: string): RoleBinding[] {
  return (tenant.spec.additionalRoleBindings ?? []).map((item) => ({
    ...typeMeta(RESOURCE),
    metadata: guardrailMeta(tenant, namespace, additionalBindingName(item.clusterRoleName)),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: item.clusterRoleName },
    subjects: item.subjects.map(rbacSubject),
  }));
}

/** RBAC subject as kube-apiserver defaults it: User and Group are in rbac.authorization.k8s.io, a ServiceAccount in the core group. */
export function defaultSubject(subject: Subject): Subject {
  const out: Subject = { kind: subject.kind, name: subject.name };
  const apiGroup = subject.apiGroup || (subject.kind === 'ServiceAccount' ? '' : RBAC_GROUP);
  if (apiGroup) out.apiGroup = apiGroup;
  if (subject.namespace) out.namespace = subject.namespace;
  return out;
}

/** RBAC roleRef as kube-apiserver defaults it: the group defaults to rbac.authorization.k8s.io. */
export function defaultRoleRef(roleRef: RoleBinding['roleRef'] | undefined): RoleBinding['roleRef'] | undefined {
  if (!roleRef) return roleRef;
  return { ...roleRef, apiGroup: roleRef.apiGroup || RBAC_GROUP };
}

/** A binding, cluster-wide or not: subjects compare as a set once defaulted (their order means nothing to the authorizer). */
export function diffBinding(live: Pick<RoleBinding, 'roleRef' | 'subjects'>, desired: Pick<RoleBinding, 'roleRef' | 'subjects'>): FieldDiff[] {
  const subjects = (b: Pick<RoleBinding, 'subjects'>) => (b.subjects ?? []).map(defaultSubject).sort(compareSubjects);
  return [...diffJson('roleRef', defaultRoleRef(live.roleRef), defaultRoleRef(desired.roleRef)), ...diffJson('subjects', subjects(live), subjects(desired))];
}

/** A binding's roleRef is immutable: one that differs cannot be updated. */
export function roleRefChanged(live: Pick<RoleBinding, 'roleRef'>, desired: Pick<RoleBinding, 'roleRef'>): boolean {
  return diffJson('roleRef', defaultRoleRef(live.roleRef), defaultRoleRef(desired.roleRef)).length > 0;
}

function compareSubjects(a: Subject, b: Subject): number {
  const key = (s: Subject) => `${s.kind}\u0000${s.namespace ?? ''}\u0000${s.name}`;
  return key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
}

export const roleBindings: GuardrailKind<RoleBinding> = {
  resource: RESOURCE,
  informer: inTenantNamespaces,
  desired: (tenant, namespace) => [...ownerBindings(tenant, namespace), ...additionalBindings(tenant, namespace)],
  diff: diffBinding,
  requiresRecreate: roleRefChanged,
  grantsAccess: true,
  ownersMayWrite: true,
  rbac: manages(RESOURCE),
};
