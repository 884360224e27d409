import { GROUP_VERSION } from '../../group-version';
import type { GroupKind, GroupResource } from '../../status/group-resource';

/**
 * The names of `tenantnamespaces` (SPEC §1, §4), once: its registration, row, Status messages and Table
 * rows take them from here.
 */
export const TENANT_NAMESPACES = {
  group: GROUP_VERSION.group,
  version: GROUP_VERSION.version,
  /** `tenancy.paddock.dev/v1alpha1` */
  groupVersion: GROUP_VERSION.groupVersion,
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

/** The GroupResource of TenantNamespaces, for Status errors. */
export const TNS_RESOURCE: GroupResource = { group: TENANT_NAMESPACES.group, resource: TENANT_NAMESPACES.resource };

/** The GroupKind of TenantNamespace, for `Invalid` Status errors. */
export const TNS_KIND: GroupKind = { group: TENANT_NAMESPACES.group, kind: TENANT_NAMESPACES.kind };
