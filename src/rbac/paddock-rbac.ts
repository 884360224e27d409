/**
 * Paddock's own RBAC, as installed (apiservice/rbac.yaml is generated from it: see manifests.ts): the
 * ClusterRole `paddock` — what the reconciler, the API server and their caches read and write — its
 * binding to Paddock's ServiceAccount, and the bindings and namespaced Roles that go with it. The rules
 * for the guardrail kinds are each kind's own (tenancy/guardrails); each other rule says why Paddock
 * holds it when that needs saying. Nothing here is a wildcard.
 */
import { RESOURCES, type ResourceRef } from '../kube/resources';
import { PADDOCK, type KubeObject, type PolicyRule, type RoleBinding } from '../kube/types';
import { clusterRoleBindings, clusterRoles, GUARDRAILS, RBAC_GROUP, type GuardrailKind } from '../tenancy';
import { ADMISSION_OBJECTS } from '../tenancy/admission-policies';
import { BINDABLE_CLUSTER_ROLES_RBAC, DEFAULT_BINDABLE_CLUSTER_ROLES } from '../tenancy/bindable';

/** A rule of a Role or ClusterRole, with why Paddock holds it: the comment above it in the manifest. */
export type RoleRule = PolicyRule & { readonly why?: string };

/** One document of a manifest, with the comment above it. */
export interface Document {
  readonly why?: string;
  readonly object: KubeObject & { rules?: RoleRule[]; roleRef?: RoleBinding['roleRef']; subjects?: RoleBinding['subjects'] };
}

const NAME = 'paddock';
const READ = ['get', 'list', 'watch'];
const SERVICE_ACCOUNT = { kind: 'ServiceAccount' as const, name: NAME, namespace: PADDOCK.systemNamespace };
const SERVING_CERT_SECRET = 'paddock-serving-cert';

const reads = (ref: ResourceRef): RoleRule => ({ apiGroups: [ref.group], resources: [ref.resource], verbs: READ });
const same = (a: readonly string[] | undefined, b: readonly string[] | undefined) => JSON.stringify(a ?? []) === JSON.stringify(b ?? []);

/**
 * The rules the guardrail `kinds` ask for, in their order. Consecutive rules that differ only in their
 * resources, with no reason or the same one, are one rule: the kinds of one API group read as one line.
 */
function rulesOf(kinds: readonly GuardrailKind[]): RoleRule[] {
  const out: RoleRule[] = [];
  for (const kind of kinds) {
    for (const [i, rule] of kind.rbac.rules.entries()) {
      const why = i === 0 ? kind.rbac.why : undefined;
      const last = out.at(-1);
      if (last && !last.resourceNames && !rule.resourceNames && why === last.why && same(last.apiGroups, rule.apiGroups) && same(last.verbs, rule.verbs)) {
        out[out.length - 1] = { ...last, resources: [...(last.resources ?? []), ...(rule.resources ?? [])] };
      } else {
        out.push(why === undefined ? { ...rule } : { why, ...rule });
      }
    }
  }
  return out;
}

/**
 * The admission policies and bindings (tenancy/admission-policies.ts): read, repaired and deleted by name
 * only, one rule per resource; `create` cannot be limited by name in RBAC.
 */
function admissionRules(): RoleRule[] {
  const resources = [...new Set(ADMISSION_OBJECTS.map((o) => o.resource))];
  const byName = resources.map((resource, i): RoleRule => ({
    ...(i === 0 ? {
      why: [
        'What tenants may use, enforced by kube-apiserver (SPEC §9, §10): two policies and three bindings, the same',
        'however many tenants there are, kept while any Tenant exists. As narrow as RBAC allows: read (list/watch',
        'with a metadata.name field selector), repair and delete only these names; `create` cannot be limited by',
        'name. kube-apiserver also requires `get` on the parameter kind to create a policy with that paramKind and',
        'a binding with a paramRef: the tenantrestrictions rule above holds it.',
      ].join('\n'),
    } : {}),
    apiGroups: [resource.group], resources: [resource.resource], resourceNames: ADMISSION_OBJECTS.filter((o) => o.resource === resource).map((o) => o.name), verbs: [...READ, 'update', 'patch', 'delete'],
  }));
  return [...byName, { apiGroups: [...new Set(resources.map((r) => r.group))], resources: resources.map((r) => r.resource), verbs: ['create'] }];
}

/** The rules of the ClusterRole `paddock`, in the order of the manifest. */
export function paddockRules(): RoleRule[] {
  return [
    { apiGroups: [PADDOCK.tenantGroup], resources: ['tenants'], verbs: [...READ, 'update', 'patch'] },
    { apiGroups: [PADDOCK.tenantGroup], resources: ['tenants/status', 'tenants/finalizers'], verbs: ['get', 'update', 'patch'] },
    { apiGroups: [''], resources: ['namespaces'], verbs: [...READ, 'create', 'update', 'patch', 'delete'] },
    ...rulesOf(GUARDRAILS),
    { apiGroups: [RBAC_GROUP], resources: ['clusterroles', 'clusterrolebindings'], verbs: READ },
    {
      why: [
        'The paddock:* roles are installed with Paddock (tenant-roles.yaml) and Paddock keeps them in place:',
        'RBAC lets it repair them without holding every permission in them only through `escalate` on exactly',
        'those roles, and bind owners to them only through `bind` (neither works for `create`, deliberately).',
      ].join('\n'),
      apiGroups: [RBAC_GROUP], resources: ['clusterroles'], resourceNames: clusterRoles().map((r) => r.metadata.name), verbs: ['update', 'patch', 'escalate', 'bind'],
    },
    { apiGroups: [RBAC_GROUP], resources: ['clusterrolebindings'], resourceNames: clusterRoleBindings().map((b) => b.metadata.name), verbs: ['update', 'patch'] },
    { why: 'What tenants may use (SPEC §9): read cluster-wide to resolve status.allowed and serve the views.', ...reads(RESOURCES.nodes) },
    ...[RESOURCES.storageClasses, RESOURCES.ingressClasses, RESOURCES.priorityClasses, RESOURCES.runtimeClasses, RESOURCES.volumeAttributesClasses, RESOURCES.deviceClasses, RESOURCES.gatewayClasses].map(reads),
    ...admissionRules(),
    { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] },
    {
      why: '--manage-serving-cert: the CA of the serving certificate goes into the APIService\'s caBundle.',
      apiGroups: ['apiregistration.k8s.io'], resources: ['apiservices'], resourceNames: [`${PADDOCK.apiVersion}.${PADDOCK.apiGroup}`], verbs: ['get', 'patch'],
    },
  ];
}

const binding = (kind: 'ClusterRoleBinding' | 'RoleBinding', name: string, roleKind: 'ClusterRole' | 'Role', role: string, namespace?: string): Document['object'] => ({
  apiVersion: `${RBAC_GROUP}/v1`,
  kind,
  metadata: namespace === undefined ? { name } : { name, namespace },
  roleRef: { apiGroup: RBAC_GROUP, kind: roleKind, name: role },
  subjects: [SERVICE_ACCOUNT],
});

/**
 * The ClusterRole with `bind` on the cluster roles a Tenant's additionalRoleBindings may name (the default
 * of --bindable-cluster-roles). Apart from the ClusterRole `paddock`, so that an installer changes the
 * list by replacing this one rule (`/rules/0/resourceNames`), beside the Deployment's flag.
 */
function bindableClusterRoles(): Document['object'] {
  const rule: RoleRule = { apiGroups: [RBAC_GROUP], resources: ['clusterroles'], resourceNames: [...DEFAULT_BINDABLE_CLUSTER_ROLES], verbs: ['bind'] };
  return { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: BINDABLE_CLUSTER_ROLES_RBAC }, rules: [rule] };
}

const role = (name: string, rules: RoleRule[]): Document['object'] => ({ apiVersion: `${RBAC_GROUP}/v1`, kind: 'Role', metadata: { name, namespace: PADDOCK.systemNamespace }, rules });

/** The documents of apiservice/rbac.yaml. */
export function paddockRbac(): Document[] {
  const leaderElection = `${NAME}:leader-election`;
  const servingCert = `${NAME}:serving-cert`;
  return [
    { object: { apiVersion: `${RBAC_GROUP}/v1`, kind: 'ClusterRole', metadata: { name: NAME }, rules: paddockRules() } },
    { object: binding('ClusterRoleBinding', NAME, 'ClusterRole', NAME) },
    {
      why: [
        'The cluster roles a Tenant\'s additionalRoleBindings may bind in its namespaces: the same list as the',
        `Deployment's --bindable-cluster-roles (default: ${DEFAULT_BINDABLE_CLUSTER_ROLES.join(',')}); change both together (README, "Install in a`,
        'cluster"). kube-apiserver refuses Paddock a binding to any role not named here, and Paddock refuses',
        'an item whose role the flag does not list.',
      ].join('\n'),
      object: bindableClusterRoles(),
    },
    { object: binding('ClusterRoleBinding', BINDABLE_CLUSTER_ROLES_RBAC, 'ClusterRole', BINDABLE_CLUSTER_ROLES_RBAC) },
    { why: 'TokenReview and SubjectAccessReview for delegated authentication and authorization.', object: binding('ClusterRoleBinding', `${NAME}:auth-delegator`, 'ClusterRole', 'system:auth-delegator') },
    {
      why: 'Reads kube-system/extension-apiserver-authentication (client CA, front-proxy CA and header names).',
      object: binding('RoleBinding', `${NAME}:extension-apiserver-authentication-reader`, 'Role', 'extension-apiserver-authentication-reader', 'kube-system'),
    },
    { why: 'Leader election: only one replica reconciles.', object: role(leaderElection, [{ apiGroups: [RESOURCES.leases.group], resources: [RESOURCES.leases.resource], verbs: [...READ, 'create', 'update', 'patch'] }]) },
    { object: binding('RoleBinding', leaderElection, 'Role', leaderElection, PADDOCK.systemNamespace) },
    {
      why: '--manage-serving-cert: Paddock keeps its serving certificate in this Secret (create cannot be limited\nby name; get and update can).',
      object: role(servingCert, [
        { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: [SERVING_CERT_SECRET], verbs: ['get', 'update'] },
      ]),
    },
    { object: binding('RoleBinding', servingCert, 'Role', servingCert, PADDOCK.systemNamespace) },
  ];
}
