/**
 * The four ClusterRoles Paddock ships and keeps in place (SPEC §1, §3), and the one
 * ClusterRoleBinding that goes with them.
 *
 * Invariants, each enforced by a test:
 * - no wildcard anywhere: every group, resource and verb is spelled out, so a resource added to
 *   Kubernetes later is never granted by accident (a `*` would include resourcequotas);
 * - no role lets anyone create, update, patch or delete ResourceQuotas, LimitRanges or Namespaces (or
 *   their subresources): owners cannot weaken their guardrails. Admins write NetworkPolicies of their
 *   own, whose ingress kube-apiserver holds to the tenant (restrictions/network-policy-ingress.ts);
 *   Paddock's own NetworkPolicies and RoleBindings no owner may change (fences/managed-objects.ts);
 * - the three tenant roles are only ever bound by RoleBindings inside tenant namespaces, so they give
 *   nothing elsewhere; the only cluster-wide grant is TenantNamespaces to authenticated users;
 * - admin ⊇ operator ⊇ viewer, so an admin owner passes RBAC's escalation check when binding any of
 *   them; admin also holds `bind` on exactly those three roles, so binding them works even if the
 *   roles are extended by hand, and it can create Roles only with permissions it holds itself.
 */
import { PADDOCK, type ClusterRole, type KubeObject, type PolicyRule, type RoleBinding } from '../kube/types';
import { OWNER_ROLES, RBAC_GROUP, tenantClusterRoleName } from './names';

/** rbac.authorization.k8s.io/v1 ClusterRoleBinding: a RoleBinding without a namespace. */
export interface ClusterRoleBinding extends KubeObject {
  subjects?: RoleBinding['subjects'];
  roleRef: RoleBinding['roleRef'];
}

export const TENANTNAMESPACES_USER_ROLE = 'paddock:tenantnamespaces-user';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];
const READ_WRITE = [...READ, ...WRITE];

const GATEWAY_GROUP = 'gateway.networking.k8s.io';
/** The Gateway API kinds that name hostnames, each judged by the restrictions policy. */
const GATEWAY_RESOURCES = ['gateways', 'grpcroutes', 'httproutes', 'listenersets', 'tlsroutes'];

const rule = (apiGroup: string, resources: string[], verbs: string[], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { apiGroups: [apiGroup], resources, verbs, resourceNames } : { apiGroups: [apiGroup], resources, verbs };

/** What anyone with a role in a tenant namespace may read: its workloads and guardrails, not its secrets. */
const VIEWER_RULES: PolicyRule[] = [
  rule('', [
    'configmaps', 'endpoints', 'events', 'limitranges', 'namespaces', 'namespaces/status', 'persistentvolumeclaims',
    'persistentvolumeclaims/status', 'pods', 'pods/log', 'pods/status', 'replicationcontrollers', 'replicationcontrollers/scale',
    'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status', 'serviceaccounts', 'services', 'services/status',
  ], READ),
  rule('apps', [
    'controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets',
    'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status',
  ], READ),
  rule('autoscaling', ['horizontalpodautoscalers', 'horizontalpodautoscalers/status'], READ),
  rule('batch', ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'], READ),
  rule('coordination.k8s.io', ['leases'], READ),
  rule('discovery.k8s.io', ['endpointslices'], READ),
  rule('events.k8s.io', ['events'], READ),
  rule('networking.k8s.io', ['ingresses', 'ingresses/status', 'networkpolicies'], READ),
  // What kube-apiserver enforces in the namespace (guardrails/tenant-restriction.ts): read, never written.
  rule(PADDOCK.tenantGroup, ['tenantrestrictions'], READ),
  rule('policy', ['poddisruptionbudgets', 'poddisruptionbudgets/status'], READ),
  // Gateway API, where installed: hostnames and classes are what the tenant's restrictions say (SPEC §10).
  rule(GATEWAY_GROUP, [...GATEWAY_RESOURCES, ...GATEWAY_RESOURCES.map((r) => `${r}/status`), 'referencegrants'], READ),
];

/** Running workloads: everything `edit` allows in a namespace except NetworkPolicies and impersonation. */
const OPERATOR_RULES: PolicyRule[] = [
  ...VIEWER_RULES,
  rule('', [
    'configmaps', 'persistentvolumeclaims', 'pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy',
    'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy',
  ], READ_WRITE),
  rule('', ['pods/eviction', 'serviceaccounts/token'], ['create']),
  rule('', ['events'], WRITE),
  rule('apps', ['daemonsets', 'deployments', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'], READ_WRITE),
  rule('autoscaling', ['horizontalpodautoscalers'], READ_WRITE),
  rule('batch', ['cronjobs', 'jobs'], READ_WRITE),
  rule('coordination.k8s.io', ['leases'], READ_WRITE),
  rule('events.k8s.io', ['events'], WRITE),
  rule('networking.k8s.io', ['ingresses'], READ_WRITE),
  rule('policy', ['poddisruptionbudgets'], READ_WRITE),
  rule(GATEWAY_GROUP, [...GATEWAY_RESOURCES, 'referencegrants'], READ_WRITE),
];

/**
 * Operator plus the power to share: Roles and RoleBindings in the namespace (RBAC still refuses any
 * Role granting more than the admin holds — no `escalate`), `bind` on the three tenant roles only,
 * and LocalSubjectAccessReviews to check what a subject may do here; and NetworkPolicies of its own.
 */
const ADMIN_RULES: PolicyRule[] = [
  ...OPERATOR_RULES,
  rule('networking.k8s.io', ['networkpolicies'], WRITE),
  rule(RBAC_GROUP, ['rolebindings', 'roles'], READ_WRITE),
  rule(RBAC_GROUP, ['clusterroles'], ['bind'], OWNER_ROLES.map(tenantClusterRoleName)),
  rule('authorization.k8s.io', ['localsubjectaccessreviews'], ['create']),
];

const TENANTNAMESPACES_USER_RULES: PolicyRule[] = [
  rule(PADDOCK.apiGroup, ['tenantnamespaces'], ['get', 'list', 'watch', 'create', 'delete']),
  // The read-only views of what a tenant may use (SPEC §9); each shows a caller only its own share.
  rule(PADDOCK.apiGroup, ['ownedtenants', 'tenantdeviceclasses', 'tenantgatewayclasses', 'tenantingressclasses', 'tenantnodes', 'tenantpriorityclasses', 'tenantruntimeclasses', 'tenantstorageclasses'], READ),
];

const labels = () => ({ [PADDOCK.managedByLabel]: PADDOCK.managedByValue });

function clusterRole(name: string, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name, labels: labels() }, rules: structuredClone(rules) };
}

/** admin, operator, viewer, tenantnamespaces-user — in that order, fresh objects on every call. */
export function clusterRoles(): ClusterRole[] {
  return [
    clusterRole(tenantClusterRoleName('admin'), ADMIN_RULES),
    clusterRole(tenantClusterRoleName('operator'), OPERATOR_RULES),
    clusterRole(tenantClusterRoleName('viewer'), VIEWER_RULES),
    clusterRole(TENANTNAMESPACES_USER_ROLE, TENANTNAMESPACES_USER_RULES),
  ];
}

/**
 * Every authenticated user may use TenantNamespaces and read the views; the aggregated API server then
 * shows each caller only the rows of its own tenants (SPEC §4, §9).
 */
export function clusterRoleBindings(): ClusterRoleBinding[] {
  return [
    {
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name: TENANTNAMESPACES_USER_ROLE, labels: labels() },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: TENANTNAMESPACES_USER_ROLE },
      subjects: [{ kind: 'Group', apiGroup: RBAC_GROUP, name: 'system:authenticated' }],
    },
  ];
}
