/**
 * No unguarded window: a namespace without a ResourceQuota is unlimited, so in the namespaces of a
 * tenant with a tenant-wide quota (labelled {@link QUOTA_LABEL} by Paddock) kube-apiserver refuses every
 * create while the namespace's share is missing. The policy's parameter is the share itself
 * (`paddock-tenant-quota` in the request's namespace) and the binding denies when it is not found, so
 * the rule holds from the instant the namespace is labelled — at its creation, or when its Tenant gains
 * `spec.quota` — until the share exists, and again whenever someone deletes the share. Owners cannot
 * write Namespaces or ResourceQuotas, so they can neither drop the label nor plant a share.
 *
 * Left out: Events, and Paddock's own guardrails. These are the objects of the guardrail kinds
 * (guardrails/registry.ts: the TenantRestriction, ResourceQuotas — the share among them — LimitRanges,
 * network policies, role bindings) that carry Paddock's label, which the managed-objects fence reserves to
 * Paddock: the guard's second binding matches the guardrail kinds for objects without that label only.
 * So an owner's network policy or role binding is held like any other create, and Paddock's are never
 * held — not while kube-controller-manager has yet to put the share in force, and not in the moment after
 * Paddock wrote the share in which kube-apiserver's own cache has yet to see it (kube-apiserver looks the
 * parameter up before anything of the policy runs, so no match condition could let them through; every
 * new namespace of a budgeted tenant would have failed a pass). Subresources are not matched (a pod's
 * binding, a ServiceAccount token).
 * It is a fence (fences/fence.ts) whose parameter is found in the request's namespace. Pure.
 */
import { PADDOCK } from '../../kube/types';
import { GUARDRAILS } from '../guardrails/registry';
import type { Fence } from '../fences/fence';
import { NOT_PADDOCKS } from '../fences/managed-objects';
import type { ResourceRule } from '../restrictions/cel';
import { QUOTA_LABEL, SHARE_NAME } from './share';

export const SHARE_GUARD_NAME = 'paddock-tenant-quota';

const creates = (apiGroups: string[], resources: string[]): ResourceRule => ({ apiGroups, apiVersions: ['*'], operations: ['CREATE'], resources, scope: 'Namespaced' });

/** The policy (parameter: the share in the request's namespace) and its binding (no share: Deny). */
export const shareGuard: Fence = {
  name: SHARE_GUARD_NAME,
  rules: [creates(['*'], ['*'])],
  excludedRules: [creates([''], ['events']), creates(['events.k8s.io'], ['events'])],
  namespaces: {
    matchExpressions: [
      { key: PADDOCK.tenantLabel, operator: 'Exists' },
      { key: QUOTA_LABEL, operator: 'In', values: ['true'] },
    ],
  },
  narrowed: {
    rules: GUARDRAILS.map(({ resource }) => creates([resource.group], [resource.resource])),
    objects: NOT_PADDOCKS,
  },
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
