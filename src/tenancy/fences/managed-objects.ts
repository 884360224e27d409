import { PADDOCK } from '../../kube/types';
import { GUARDRAILS } from '../guardrails/registry';
import { PADDOCK_USER } from '../ownership';
import type { ResourceRule } from '../restrictions/cel';
import { TENANT_NAMESPACES, type Fence } from './fence';

/**
 * Who may change what Paddock made: Paddock, which repairs it; the garbage collector and the namespace
 * controller, which remove it with its Tenant or its namespace, and the resource quota controller, which
 * writes a quota's status (as kube-controller-manager itself or, with --use-service-account-credentials,
 * as their ServiceAccounts); kube-apiserver's quota admission, which counts use into a quota's status
 * (as itself, in `system:masters`); and `system:masters`, the break-glass
 * group that RBAC does not limit either (docs/security.md). Nobody else: not the tenant's owners, not a
 * user bound to cluster-admin.
 */
export const MANAGED_OBJECT_WRITERS = [
  `request.userInfo.username in ['${PADDOCK_USER}', 'system:kube-controller-manager', 'system:serviceaccount:kube-system:generic-garbage-collector', 'system:serviceaccount:kube-system:namespace-controller', 'system:serviceaccount:kube-system:resourcequota-controller']`,
  "'system:masters' in request.userInfo.groups",
];

const MANAGED = `${PADDOCK.managedByLabel}=${PADDOCK.managedByValue}`;

/**
 * Whether `rule` names only guardrail kinds — every group it names with every resource it names —
 * objects of which, labelled as Paddock's, only Paddock may create.
 */
export function isGuardrailRule(rule: ResourceRule): boolean {
  return rule.apiGroups.every((group) => rule.resources.every((r) => GUARDRAILS.some(({ resource }) => resource.group === group && resource.resource === r)));
}

/**
 * Of the guardrail kinds, the objects that are not Paddock's own (an object selector): this fence refuses
 * Paddock's label on a create by anyone else. A binding that must not hold Paddock's guardrails (while
 * kube-apiserver's cache has yet to see a parameter Paddock wrote a moment before) narrows its guardrail
 * kinds to these: everyone else's objects stay held.
 */
export const NOT_PADDOCKS = { matchExpressions: [{ key: PADDOCK.managedByLabel, operator: 'NotIn', values: [PADDOCK.managedByValue] }] };

/** The old object of an update or delete carries Paddock's label: it is one Paddock made. */
const WAS_PADDOCKS = `oldObject != null && oldObject.metadata.?labels[?'${PADDOCK.managedByLabel}'].orValue('') == '${PADDOCK.managedByValue}'`;

/**
 * The objects Paddock keeps in tenant namespaces (every guardrail kind: quotas, limits, network
 * policies, role bindings, the TenantRestriction) are Paddock's alone: kube-apiserver refuses anyone
 * else's update or delete of them, a deletecollection included (it admits each object).
 *
 * They are the objects of those kinds labelled `app.kubernetes.io/managed-by: paddock`, so the label
 * must mean Paddock made it: the same fence refuses a create that carries it and an update that adds
 * it. kube-apiserver matches the binding's object selector against the old object as well as the new
 * one, so an update that drops the label is refused too. A ResourceQuota's status is matched as well:
 * quota admission enforces `status.hard`, so whoever could write it could lift the quota.
 */
const QUOTA_STATUS = { apiGroups: [''], apiVersions: ['*'], operations: ['UPDATE'], resources: ['resourcequotas/status'], scope: 'Namespaced' };

export const managedObjects: Fence = {
  name: 'paddock-managed-objects',
  rules: [...new Set(GUARDRAILS.map(({ resource }) => `${resource.group}/${resource.resource}`))].map((groupResource) => {
    const [group, resource] = groupResource.split('/') as [string, string];
    return { apiGroups: [group], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: [resource], scope: 'Namespaced' };
  }).concat(QUOTA_STATUS),
  namespaces: TENANT_NAMESPACES,
  objects: { matchLabels: { [PADDOCK.managedByLabel]: PADDOCK.managedByValue } },
  appliesWhen: MANAGED_OBJECT_WRITERS.map((w) => `!(${w})`).join(' && '),
  validations: [
    {
      expression: 'false',
      messageExpression:
        `${WAS_PADDOCKS} ? ` +
        `request.kind.kind + ' ' + request.name + ' is managed by Paddock for tenant ' + oldObject.metadata.?labels[?'${PADDOCK.tenantLabel}'].orValue('') + ': only Paddock may change or delete it (change the Tenant instead)' : ` +
        `'the label ${MANAGED} is for what Paddock makes: a ' + request.kind.kind + ' of yours may not carry it'`,
      reason: 'Forbidden',
    },
  ],
};
