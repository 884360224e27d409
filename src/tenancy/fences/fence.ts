/**
 * A fence: a ValidatingAdmissionPolicy of Paddock's that needs no parameter, and its one binding of the
 * same name — a rule about a tenant as a whole (cordoned, not to be deleted) rather than about what its
 * workloads may use (restrictions/). The objects are written with every server default set, so that a
 * converged cluster needs no writes. Pure.
 */
import { PADDOCK } from '../../kube/types';
import type { ResourceRule, Validation } from '../restrictions/cel';
import { ADMISSION_API_VERSION, managedLabels, matchResources, type AdmissionObject } from '../restrictions/policies';

export interface Fence {
  readonly name: string;
  readonly rules: readonly ResourceRule[];
  /** Which namespaces the binding selects (a label selector); absent: all, and cluster-scoped objects. */
  readonly namespaces?: Record<string, unknown>;
  /**
   * Which objects the binding selects (a label selector); absent: all. kube-apiserver matches it against
   * the object of a create, the old object of a delete, and either of an update.
   */
  readonly objects?: Record<string, unknown>;
  /** Requests the fence leaves alone (a match condition: the validations run where it holds). */
  readonly appliesWhen?: string;
  readonly validations: readonly Validation[];
}

/** The policy and its binding. */
export function fenceObjects(fence: Fence): AdmissionObject[] {
  const metadata = () => ({ name: fence.name, labels: managedLabels() });
  return [
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicy',
      metadata: metadata(),
      spec: {
        failurePolicy: 'Fail',
        matchConstraints: matchResources([...fence.rules]),
        ...(fence.appliesWhen ? { matchConditions: [{ name: 'applies', expression: fence.appliesWhen }] } : {}),
        validations: [...fence.validations],
      },
    },
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: metadata(),
      spec: { policyName: fence.name, matchResources: matchResources(undefined, fence.namespaces ?? {}, fence.objects ?? {}), validationActions: ['Deny'] },
    },
  ];
}

/** Every namespace labelled as a tenant's. */
export const TENANT_NAMESPACES = { matchExpressions: [{ key: PADDOCK.tenantLabel, operator: 'Exists' }] };
