/**
 * The two cluster-scoped admission policies, composed from the restriction modules (registry.ts), with
 * the TenantRestriction of the request's namespace as their parameter (admission-policies.ts binds them):
 * - `paddock-tenant-restrictions` (ValidatingAdmissionPolicy) refuses what a module says the tenant
 *   may not use; refusals name the allowed values;
 * - `paddock-tenant-defaults` (MutatingAdmissionPolicy) fills in what a module defaults, before the
 *   validating policy runs.
 *
 * The objects are written with every field kube-apiserver would default already set, so that a live
 * policy compares equal to the desired one and a converged cluster needs no writes. Pure: no I/O.
 */
import { PADDOCK, type KubeObject } from '../../kube/types';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { MUTATE, REQUEST_VARIABLES, toJsonPatches, VALIDATE, type ResourceRule } from './cel';
import { composeValidations, inlineVariables, refusesCondition } from './compose';
import { RESTRICTIONS } from './registry';
import type { Restriction } from './restriction';

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';
export const ADMISSION_API_VERSION = `${ADMISSION_GROUP}/v1`;
export const RESTRICTIONS_POLICY_NAME = 'paddock-tenant-restrictions';
export const DEFAULTS_POLICY_NAME = 'paddock-tenant-defaults';

/** An admission policy or binding as Paddock writes it (the shapes of admissionregistration.k8s.io/v1). */
export interface AdmissionObject extends KubeObject {
  spec: Record<string, unknown>;
}

const PARAM_KIND = { apiVersion: `${RESTRICTION_KIND.group}/${RESTRICTION_KIND.version}`, kind: RESTRICTION_KIND.kind };

export const managedLabels = () => ({ [PADDOCK.managedByLabel]: PADDOCK.managedByValue });

/** matchConstraints / matchResources with their server defaults. */
export const matchResources = (resourceRules: unknown[] | undefined, namespaceSelector: Record<string, unknown> = {}, objectSelector: Record<string, unknown> = {}) => ({
  ...(resourceRules ? { resourceRules } : {}),
  matchPolicy: 'Equivalent',
  namespaceSelector,
  objectSelector,
});

/** The rules the modules need, each once, in the order of `all` (a module names them by identity). */
function rulesOf(all: Record<string, ResourceRule>, needed: readonly ResourceRule[]): ResourceRule[] {
  return Object.values(all).filter((r) => needed.includes(r));
}

/**
 * The ValidatingAdmissionPolicy: what a tenant's requests may not use. The modules' checks are composed
 * into one validation and the few variables it needs (compose.ts: what a request costs is the number
 * of expressions kube-apiserver evaluates for it).
 *
 * Its match condition is the validation negated: the policy applies to exactly the requests it refuses.
 * kube-apiserver evaluates a validating policy's validations and then, whether they failed or not, their
 * message expressions, each pass over fresh variables, so an admitted request paid for the checks twice
 * (the message names the first failing check by running them again). Match conditions come first, and
 * a policy whose condition is false is done: an admitted request now runs the checks once, a refused
 * one three times. An error in the condition (a cost limit, a type) refuses with `failurePolicy: Fail`,
 * as one in the validation did; the condition reads the same checks over the same values, each
 * variable guarding itself (so one evaluated where the validation would not have read it errs nowhere).
 * All the checks of an admitted request now share one expression's cost limit (`PerCallLimit`, 1M),
 * where each variable had its own: the largest pod admitted is smaller (docs/design.md).
 */
export function restrictionsPolicy(restrictions: readonly Restriction[] = RESTRICTIONS): AdmissionObject {
  const parts = restrictions.flatMap((r) => (r.validating ? [r.validating] : []));
  const { variables, validation, writtenOut } = inlineVariables([...REQUEST_VARIABLES, ...parts.flatMap((p) => p.variables)], composeValidations(parts));
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: RESTRICTIONS_POLICY_NAME, labels: managedLabels() },
    spec: {
      failurePolicy: 'Fail',
      paramKind: PARAM_KIND,
      matchConstraints: matchResources(rulesOf(VALIDATE, parts.flatMap((p) => p.rules))),
      matchConditions: [{ name: 'refuses-something', expression: refusesCondition(parts, variables, writtenOut) }],
      variables,
      validations: [validation],
    },
  };
}

/**
 * The MutatingAdmissionPolicy: what a tenant's new objects get filled in. Its match condition lets the
 * mutation run only when there is something to fill in: the tenant has a default (each module's `when`,
 * read from the parameter alone, first) and the object lacks it (the joined patch list is not empty).
 *
 * Why the condition must hold exactly then: kube-apiserver marks the object dirty whenever a mutation
 * runs, even one whose patch is empty, and a dirty object makes it run the whole mutating chain again
 * (every in-tree plugin, every webhook, this policy) before validation. A mutation that runs for nothing
 * doubles the mutating chain of the request.
 *
 * One mutation, the modules' patch lists joined: kube-apiserver encodes the object, applies the patch,
 * decodes and defaults it again for every mutation of a policy, so each mutation is a full round trip of
 * the object. The modules patch disjoint fields, so one patch applies them all alike.
 */
export function defaultsPolicy(restrictions: readonly Restriction[] = RESTRICTIONS): AdmissionObject {
  const parts = restrictions.flatMap((r) => (r.mutating ? [r.mutating] : []));
  const patches = parts.map((p) => `(${p.patches})`).join(' + ');
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: DEFAULTS_POLICY_NAME, labels: managedLabels() },
    spec: {
      failurePolicy: 'Fail',
      paramKind: PARAM_KIND,
      matchConstraints: matchResources(rulesOf(MUTATE, parts.flatMap((p) => p.rules))),
      matchConditions: [{ name: 'something-to-fill-in', expression: `(${parts.map((p) => `(${p.when})`).join(' || ')}) && size(${patches}) > 0` }],
      reinvocationPolicy: 'IfNeeded',
      mutations: [toJsonPatches(patches)],
    },
  };
}
