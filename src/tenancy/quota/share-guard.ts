/**
 * No unguarded window: a namespace without a ResourceQuota is unlimited, so in the namespaces of a
 * tenant with a tenant-wide quota (labelled {@link QUOTA_LABEL} by Paddock) kube-apiserver refuses every
 * create while the namespace's share is missing. The policy's parameter is the share itself
 * (`paddock-tenant-quota` in the request's namespace) and the binding denies when it is not found, so
 * the rule holds from the instant the namespace is labelled — at its creation, or when its Tenant gains
 * `spec.quota` — until the share exists, and again whenever someone deletes the share. Owners cannot
 * write Namespaces or ResourceQuotas, so they can neither drop the label nor plant a share.
 *
 * Left out: what only Paddock creates in tenant namespaces before the share (the TenantRestriction,
 * ResourceQuotas and LimitRanges; guardrails/registry.ts writes the share before network policies and
 * role bindings), and Events. Paddock's own creates pass once the share exists, in force or not: its
 * guardrails are not the owners' use, and holding them until kube-controller-manager has copied the
 * share's limits into its status would fail the first pass of every new namespace. (kube-apiserver looks
 * the parameter up before it evaluates match conditions, so while the share is missing Paddock's creates
 * are refused too: the share is written first.) Subresources are not matched (a pod's binding, a ServiceAccount token).
 * It is a fence (fences/fence.ts) whose parameter is found in the request's namespace. Pure.
 */
import { PADDOCK } from '../../kube/types';
import { PADDOCK_USER } from '../ownership';
import type { Fence } from '../fences/fence';
import type { ResourceRule } from '../restrictions/cel';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { QUOTA_LABEL, SHARE_NAME } from './share';

export const SHARE_GUARD_NAME = 'paddock-tenant-quota';

const creates = (apiGroups: string[], resources: string[]): ResourceRule => ({ apiGroups, apiVersions: ['*'], operations: ['CREATE'], resources, scope: 'Namespaced' });

/** The policy (parameter: the share in the request's namespace) and its binding (no share: Deny). */
export const shareGuard: Fence = {
  name: SHARE_GUARD_NAME,
  rules: [creates(['*'], ['*'])],
  excludedRules: [
    creates([''], ['resourcequotas', 'limitranges', 'events']),
    creates(['events.k8s.io'], ['events']),
    creates([RESTRICTION_KIND.group], [RESTRICTION_KIND.plural]),
  ],
  namespaces: {
    matchExpressions: [
      { key: PADDOCK.tenantLabel, operator: 'Exists' },
      { key: QUOTA_LABEL, operator: 'In', values: ['true'] },
    ],
  },
  appliesWhen: `request.userInfo.username != '${PADDOCK_USER}'`,
  param: { apiVersion: 'v1', kind: 'ResourceQuota', name: SHARE_NAME, notFound: 'Deny' },
  // The share must exist and be in force: quota admission enforces `status.hard`, which
  // kube-controller-manager fills in from `spec.hard` after the share is created — until then the
  // namespace would be unlimited in every resource of the budget.
  validations: [
    {
      expression: "params.spec.?hard.orValue({}).all(r, r in params.?status.?hard.orValue({}))",
      message: `the tenant-wide quota's share of this namespace (ResourceQuota ${SHARE_NAME}) is not in force yet; try again in a moment`,
      reason: 'Forbidden',
    },
  ],
};
