/**
 * The names Paddock gives to what it manages. They are part of the product contract (SPEC §1, §3): the
 * reconciler finds its objects again by these names, so they must stay stable across releases. The
 * names of guardrails are given by their kinds' modules (guardrails/).
 */
import { PADDOCK, type OwnerRole, type Tenant } from '../kube/types';

/** Pod Security Admission labels Paddock sets on every tenant namespace. */
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';
export const POD_SECURITY_VERSION_LABEL = 'pod-security.kubernetes.io/enforce-version';

/**
 * Read by the PodNodeSelector admission plugin: `k=v,k2=v2`. Paddock wrote it on tenant namespaces
 * before admission policies applied the nodeSelector; it now only removes it, and keeps it reserved.
 */
export const NODE_SELECTOR_ANNOTATION = 'scheduler.alpha.kubernetes.io/node-selector';

/** Label kube-apiserver puts on every namespace; nobody else may set it. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Annotation on a tenant namespace that records which label and annotation keys Paddock set, so that a
 * key removed from the Tenant is removed from the namespace while keys set by others stay untouched.
 */
export const MANAGED_METADATA_ANNOTATION = 'paddock.dev/managed-metadata';

/** Keys under this prefix belong to Paddock; a Tenant may not set them through namespaceMetadata. */
export const PADDOCK_KEY_PREFIX = 'paddock.dev/';

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

export const TENANT_API_VERSION = `${PADDOCK.tenantGroup}/${PADDOCK.tenantVersion}`;

/** Roles in the order they are rendered (strongest first). */
export const OWNER_ROLES: readonly OwnerRole[] = ['admin', 'operator', 'viewer'];

/** `<tenant>-<name>`: the namespace a declared name becomes. */
export function declaredNamespaceName(tenant: string, name: string): string {
  return `${tenant}-${name}`;
}

/**
 * The Tenants that declare `namespace`: for each split of it at a `-` into `<tenant>-<name>`, the Tenant
 * of that name if it exists (`tenantNamed`) and declares that name — more than one when two tenants'
 * declarations meet in one name (`a-b` declaring `c`, `a` declaring `b-c`). Read off the Tenants
 * themselves, so no index of every declared name is kept.
 */
export function tenantsDeclaring(namespace: string, tenantNamed: (name: string) => Tenant | undefined): Tenant[] {
  const out: Tenant[] = [];
  for (let i = namespace.indexOf('-'); i > 0; i = namespace.indexOf('-', i + 1)) {
    const tenant = tenantNamed(namespace.slice(0, i));
    if (tenant?.spec?.namespaces?.includes(namespace.slice(i + 1))) out.push(tenant);
  }
  return out;
}

/** The shipped ClusterRole an owner with `role` is bound to. */
export function tenantClusterRoleName(role: OwnerRole): string {
  return `paddock:tenant-${role}`;
}
