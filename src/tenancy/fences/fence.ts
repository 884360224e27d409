/**
 * A fence: a ValidatingAdmissionPolicy of Paddock's, and its one binding of the same name — a rule about
 * a tenant as a whole (cordoned, not to be deleted, its quota's share in place) or across tenants
 * (hostnames held by others) rather than about what one tenant's workloads may use (restrictions/). Its
 * parameter, if any, is one object for every request or one in the request's own namespace, never one
 * per tenant: what a request costs does not grow with the number of tenants. The objects are written
 * with every server default set, so that a converged cluster needs no writes. Pure.
 */
import { PADDOCK } from '../../kube/types';
import type { ResourceRule, Validation, Variable } from '../restrictions/cel';
import { ADMISSION_API_VERSION, managedLabels, matchResources, type AdmissionObject } from '../restrictions/policies';

/** A validation whose refusal says the same every time: a `message`, not a `messageExpression`. */
export interface ConstantValidation {
  expression: string;
  message: string;
  reason: 'Forbidden';
}

export interface Fence {
  readonly name: string;
  readonly rules: readonly ResourceRule[];
  /** Requests of `rules` the policy does not match (its `excludeResourceRules`); absent: none. */
  readonly excludedRules?: readonly ResourceRule[];
  /** Which namespaces the binding selects (a label selector); absent: all, and cluster-scoped objects. */
  readonly namespaces?: Record<string, unknown>;
  /**
   * Which objects the binding selects (a label selector); absent: all. kube-apiserver matches it against
   * the object of a create, the old object of a delete, and either of an update.
   */
  readonly objects?: Record<string, unknown>;
  /**
   * Requests the fence judges only for the objects a selector selects: its binding leaves out the
   * requests of `narrowed.rules`, and a second binding of the same policy (`<name>-narrowed`) matches
   * them, for the objects `narrowed.objects` selects. Absent: none.
   */
  readonly narrowed?: { readonly rules: readonly ResourceRule[]; readonly objects: Record<string, unknown> };
  /** Requests the fence leaves alone (a match condition: the validations run where it holds). */
  readonly appliesWhen?: string;
  /** Variables its validations read (declared in order). */
  readonly variables?: readonly Variable[];
  readonly validations: readonly (Validation | ConstantValidation)[];
  /**
   * The one object it reads as `params`, by kind and by name and namespace — without a namespace, the
   * object of that name in the request's own namespace; absent: none. Missing, it is `notFound`: Allow
   * (as if empty) or Deny.
   */
  readonly param?: { apiVersion: string; kind: string; name: string; namespace?: string; notFound: 'Allow' | 'Deny' };
}

/** The policy and its binding (two, when it is `narrowed`). */
export function fenceObjects(fence: Fence): AdmissionObject[] {
  const metadata = (name = fence.name) => ({ name, labels: managedLabels() });
  const param = fence.param;
  const binding = (name: string, match: Record<string, unknown>): AdmissionObject => ({
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: metadata(name),
    spec: {
      policyName: fence.name,
      ...(param ? { paramRef: { name: param.name, ...(param.namespace ? { namespace: param.namespace } : {}), parameterNotFoundAction: param.notFound } } : {}),
      matchResources: match,
      validationActions: ['Deny'],
    },
  });
  const narrowed = fence.narrowed;
  return [
    {
      apiVersion: ADMISSION_API_VERSION,
      kind: 'ValidatingAdmissionPolicy',
      metadata: metadata(),
      spec: {
        failurePolicy: 'Fail',
        ...(param ? { paramKind: { apiVersion: param.apiVersion, kind: param.kind } } : {}),
        matchConstraints: {
          ...matchResources([...fence.rules]),
          ...(fence.excludedRules ? { excludeResourceRules: [...fence.excludedRules] } : {}),
        },
        ...(fence.appliesWhen ? { matchConditions: [{ name: 'applies', expression: fence.appliesWhen }] } : {}),
        ...(fence.variables ? { variables: [...fence.variables] } : {}),
        validations: [...fence.validations],
      },
    },
    // The narrowed binding first: written before the binding that gives its kinds up (see admission-policies.ts).
    ...(narrowed ? [binding(`${fence.name}-narrowed`, matchResources([...narrowed.rules], fence.namespaces ?? {}, narrowed.objects))] : []),
    binding(fence.name, {
      ...matchResources(undefined, fence.namespaces ?? {}, fence.objects ?? {}),
      ...(narrowed ? { excludeResourceRules: [...narrowed.rules] } : {}),
    }),
  ];
}

/** Every namespace labelled as a tenant's. */
export const TENANT_NAMESPACES = { matchExpressions: [{ key: PADDOCK.tenantLabel, operator: 'Exists' }] };
