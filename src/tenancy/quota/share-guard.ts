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
 * role bindings), and Events. Subresources are not matched (a pod's binding, a ServiceAccount token).
 * Pure.
 */
import { PADDOCK } from '../../kube/types';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { ADMISSION_API_VERSION, managedLabels, type AdmissionObject } from '../restrictions/policies';
import { QUOTA_LABEL, SHARE_NAME } from './share';

export const SHARE_GUARD_NAME = 'paddock-tenant-quota';

const rule = (apiGroups: string[], resources: string[]) => ({ apiGroups, apiVersions: ['*'], operations: ['CREATE'], resources, scope: 'Namespaced' });

/** The policy (parameter: the share) and its binding (no share: Deny), written with their server defaults. */
export function shareGuardObjects(): AdmissionObject[] {
  const metadata = () => ({ name: SHARE_GUARD_NAME, labels: managedLabels() });
  return [
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicy',
      metadata: metadata(),
      spec: {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: 'v1', kind: 'ResourceQuota' },
        matchConstraints: {
          resourceRules: [rule(['*'], ['*'])],
          excludeResourceRules: [
            rule([''], ['resourcequotas', 'limitranges', 'events']),
            rule(['events.k8s.io'], ['events']),
            rule([RESTRICTION_KIND.group], [RESTRICTION_KIND.plural]),
          ],
          matchPolicy: 'Equivalent',
          namespaceSelector: {},
          objectSelector: {},
        },
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
      },
    },
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: metadata(),
      spec: {
        policyName: SHARE_GUARD_NAME,
        paramRef: { name: SHARE_NAME, parameterNotFoundAction: 'Deny' },
        matchResources: {
          matchPolicy: 'Equivalent',
          namespaceSelector: {
            matchExpressions: [
              { key: PADDOCK.tenantLabel, operator: 'Exists' },
              { key: QUOTA_LABEL, operator: 'In', values: ['true'] },
            ],
          },
          objectSelector: {},
        },
        validationActions: ['Deny'],
      },
    },
  ];
}
