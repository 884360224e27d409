/**
 * Which cluster roles spec.additionalRoleBindings may name (SPEC §10): the ones the installation lets
 * Paddock bind. That is one list, `--bindable-cluster-roles`. Its default is stated here, and both the
 * flag and Paddock's generated RBAC read it: the ClusterRole `paddock:bindable-cluster-roles` of
 * apiservice/rbac.yaml holds `bind` on exactly these names.
 *
 * kube-apiserver's RBAC is what enforces the list. It refuses Paddock a RoleBinding to any ClusterRole
 * that Paddock may not `bind` and whose permissions it does not hold. Paddock refuses such an item
 * before it asks, naming the field and the role, and binds the tenant's other items. An item refused
 * after it was bound (its role dropped from the list) loses its bindings: they are no longer wanted.
 */
import type { Tenant } from '../kube/types';
import type { SpecProblem } from './problems';

/** --bindable-cluster-roles unless set: `view`, Kubernetes' read-only role (no Secrets, no RBAC, no writes). */
export const DEFAULT_BINDABLE_CLUSTER_ROLES: readonly string[] = ['view'];

/** The ClusterRole of apiservice/rbac.yaml that lets Paddock bind them; an installer who changes the list patches its rule too. */
export const BINDABLE_CLUSTER_ROLES_RBAC = 'paddock:bindable-cluster-roles';

/** The cluster roles this installation lets Paddock bind. */
export interface BindableClusterRoles {
  /** --bindable-cluster-roles, as given. */
  readonly listed: readonly string[];
  /**
   * Listed roles that kube-apiserver was found not to let Paddock bind (the flag was changed and the
   * ClusterRole was not). They are refused as well, with that reason, rather than failing every pass on a 403.
   */
  readonly denied?: ReadonlySet<string>;
}

/** Why Paddock does not bind `role`, or undefined when it does. */
function refusal(role: string, bindable: BindableClusterRoles): Omit<SpecProblem, 'field'> | undefined {
  if (!bindable.listed.includes(role)) {
    const allowed = bindable.listed.length > 0 ? `bindable: ${bindable.listed.join(', ')}` : 'it lets Paddock bind none';
    return { reason: 'FieldValueNotSupported', message: `ClusterRole ${role} is not one this installation lets Paddock bind (${allowed})` };
  }
  if (bindable.denied?.has(role)) {
    return {
      reason: 'FieldValueForbidden',
      message: `ClusterRole ${role} is listed in --bindable-cluster-roles, but Paddock's RBAC does not let it bind it (ClusterRole ${BINDABLE_CLUSTER_ROLES_RBAC})`,
    };
  }
  return undefined;
}

/** The items of spec.additionalRoleBindings that Paddock does not bind, with why, in spec order. Pure. */
export function unbindable(tenant: Tenant, bindable: BindableClusterRoles): SpecProblem[] {
  return (tenant.spec.additionalRoleBindings ?? []).flatMap(({ clusterRoleName }, i) => {
    const why = refusal(clusterRoleName, bindable);
    return why ? [{ field: `spec.additionalRoleBindings[${i}].clusterRoleName`, ...why }] : [];
  });
}

/** `tenant` with only the additionalRoleBindings items Paddock binds: what its guardrails are built from. */
export function bindableOnly(tenant: Tenant, bindable: BindableClusterRoles): Tenant {
  const items = tenant.spec.additionalRoleBindings;
  if (items === undefined) return tenant;
  const bound = items.filter((item) => refusal(item.clusterRoleName, bindable) === undefined);
  return bound.length === items.length ? tenant : { ...tenant, spec: { ...tenant.spec, additionalRoleBindings: bound } };
}
