import { PADDOCK } from '../kube/types';

/**
 * The one resource this server serves, named once (SPEC §1). Every module of the API layer takes its
 * names from here so that discovery, OpenAPI, Status messages and Table rows cannot drift apart.
 */
export const TENANT_NAMESPACES = {
  group: PADDOCK.apiGroup,
  version: PADDOCK.apiVersion,
  /** `tenancy.paddock.dev/v1alpha1` */
  groupVersion: `${PADDOCK.apiGroup}/${PADDOCK.apiVersion}`,
  resource: 'tenantnamespaces',
  singular: 'tenantnamespace',
  kind: 'TenantNamespace',
  listKind: 'TenantNamespaceList',
  shortNames: ['tns'],
  categories: ['paddock'],
  namespaced: false,
  /** Sorted, as kube-apiserver lists verbs in discovery. Exactly the verbs that work (SPEC §4). */
  verbs: ['create', 'delete', 'get', 'list', 'watch'],
} as const;

/** A group and a resource, as in schema.GroupResource. The empty group is the core group. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and a kind, as in schema.GroupKind. */
export interface GroupKind {
  group: string;
  kind: string;
}

/** The GroupResource of TenantNamespaces, for Status errors. */
export const TNS_RESOURCE: GroupResource = { group: TENANT_NAMESPACES.group, resource: TENANT_NAMESPACES.resource };

/** The GroupKind of TenantNamespace, for `Invalid` Status errors. */
export const TNS_KIND: GroupKind = { group: TENANT_NAMESPACES.group, kind: TENANT_NAMESPACES.kind };
