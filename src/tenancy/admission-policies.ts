/**
 * Everything kube-apiserver needs to enforce what tenants may use (SPEC §9, §10), as a constant set of
 * cluster-scoped objects: the two policies (restrictions/policies.ts) and four bindings of them, each
 * selecting every tenant namespace. Their parameter is the TenantRestriction `paddock-restrictions`
 * in the request's own namespace (guardrails/tenant-restriction.ts): kube-apiserver finds it by
 * namespace and name in its informer, so what a request costs is the same for 20 tenants as for 20,000.
 *
 * Fail-closed, without wedging a namespace's deletion:
 * - creates in a tenant namespace without its TenantRestriction are refused (`Deny`): a namespace
 *   Paddock has not furnished yet, one planted with a tenant label, one whose object was deleted;
 * - updates there are checked against the object when it exists and let through when it does not
 *   (`Allow`): while a namespace is being deleted its TenantRestriction may be gone before its pods,
 *   whose finalizers controllers still remove by update. Nothing can be created in such a namespace,
 *   and Paddock writes the object back when someone deletes it from a live one.
 * - the defaults policy fills in nothing without the object (`Allow`); the create is refused above.
 *
 * The tenant label that selects a namespace is written only by Paddock (owners cannot write
 * Namespaces), and the TenantRestriction only by Paddock. Pure: no I/O.
 */
import type { NamedObject } from '../cache/paddock-cache';
import { RESOURCES, type ResourceRef } from '../kube/resources';
import { cordon } from './fences/cordon';
import { fenceObjects, TENANT_NAMESPACES } from './fences/fence';
import { isGuardrailRule, managedObjects, NOT_PADDOCKS } from './fences/managed-objects';
import { hostnamesFence } from './fences/hostnames';
import { preventDeletion } from './fences/prevent-deletion';
import { RESTRICTION_OBJECT_NAME } from './guardrails/tenant-restriction';
import { shareGuard } from './quota/share-guard';
import type { ResourceRule } from './restrictions/cel';
import {
  ADMISSION_API_VERSION,
  DEFAULTS_POLICY_NAME,
  defaultsPolicy,
  managedLabels,
  matchResources,
  RESTRICTIONS_POLICY_NAME,
  restrictionsPolicy,
  type AdmissionObject,
} from './restrictions/policies';

export { DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from './restrictions/policies';

/** The binding of the restrictions policy for creates: no TenantRestriction, no create. */
export const RESTRICTIONS_BINDING_NAME = RESTRICTIONS_POLICY_NAME;
/**
 * The binding of the restrictions policy for creates of guardrail kinds (tenants' own NetworkPolicies):
 * as the first, for the objects that are not Paddock's. Paddock writes its guardrails right after the
 * TenantRestriction, and kube-apiserver looks the parameter up in a cache that may not have seen it yet:
 * the first binding would refuse them (the policy's checks pass them; the parameter lookup comes first).
 */
export const RESTRICTIONS_GUARDRAIL_KINDS_BINDING_NAME = `${RESTRICTIONS_POLICY_NAME}-narrowed`;
/** The binding of the restrictions policy for updates: checked when the TenantRestriction exists. */
export const RESTRICTIONS_UPDATES_BINDING_NAME = `${RESTRICTIONS_POLICY_NAME}-updates`;
/** The binding of the defaults policy. */
export const DEFAULTS_BINDING_NAME = DEFAULTS_POLICY_NAME;

type NotFound = 'Deny' | 'Allow';

/** `policy`'s resource rules narrowed to `operation` (those that have it). */
function rulesFor(policy: AdmissionObject, operation: string): ResourceRule[] {
  const rules = (policy.spec.matchConstraints as { resourceRules: ResourceRule[] }).resourceRules;
  return rules.filter((r) => r.operations.includes(operation)).map((r) => ({ ...r, operations: [operation] }));
}

function binding(kind: string, name: string, policy: AdmissionObject, notFound: NotFound, rules?: ResourceRule[], objects?: Record<string, unknown>): AdmissionObject {
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind,
    metadata: { name, labels: managedLabels() },
    spec: {
      policyName: policy.metadata.name,
      paramRef: { name: RESTRICTION_OBJECT_NAME, parameterNotFoundAction: notFound },
      matchResources: matchResources(rules, TENANT_NAMESPACES, objects),
      ...(kind === 'ValidatingAdmissionPolicyBinding' ? { validationActions: ['Deny'] } : {}),
    },
  };
}

/**
 * The rules about a tenant as a whole (fences/), each a policy with one binding and at most one
 * parameter object; the share guard of the tenant-wide quota last.
 */
const FENCES = [cordon, preventDeletion, hostnamesFence, shareGuard];

/**
 * The objects Paddock keeps while any Tenant exists, in the order they are written (one at a time; a
 * pass stops at its first failure):
 * - the managed-objects fence first: the narrowed bindings below leave Paddock-labelled objects to it;
 * - then the two policies and their bindings, then each other fence's policy and bindings (kube-apiserver
 *   checks a binding's paramRef against its policy's paramKind, so a policy goes first);
 * - a narrowed binding before the binding it narrows: an upgrade that narrows an existing binding never
 *   leaves the kinds it gives up unmatched, however a pass ends.
 */
export function admissionObjects(): AdmissionObject[] {
  const restrictions = restrictionsPolicy();
  const defaults = defaultsPolicy();
  const creates = rulesFor(restrictions, 'CREATE');
  const guardrailCreates = creates.filter(isGuardrailRule);
  const otherCreates = creates.filter((r) => !isGuardrailRule(r));
  // A binding with no resource rules would match every request of its policy: none is written.
  return [
    ...fenceObjects(managedObjects),
    restrictions,
    defaults,
    ...(guardrailCreates.length > 0 ? [binding('ValidatingAdmissionPolicyBinding', RESTRICTIONS_GUARDRAIL_KINDS_BINDING_NAME, restrictions, 'Deny', guardrailCreates, NOT_PADDOCKS)] : []),
    ...(otherCreates.length > 0 ? [binding('ValidatingAdmissionPolicyBinding', RESTRICTIONS_BINDING_NAME, restrictions, 'Deny', otherCreates)] : []),
    binding('ValidatingAdmissionPolicyBinding', RESTRICTIONS_UPDATES_BINDING_NAME, restrictions, 'Allow', rulesFor(restrictions, 'UPDATE')),
    binding('MutatingAdmissionPolicyBinding', DEFAULTS_BINDING_NAME, defaults, 'Allow'),
    ...FENCES.flatMap(fenceObjects),
  ];
}

const BY_KIND: Record<string, ResourceRef> = Object.fromEntries(
  [RESOURCES.validatingAdmissionPolicies, RESOURCES.mutatingAdmissionPolicies, RESOURCES.validatingAdmissionPolicyBindings, RESOURCES.mutatingAdmissionPolicyBindings].map((r) => [r.kind, r]),
);

/** The resource of an admission object by its kind. */
export function admissionResource(kind: string): ResourceRef {
  const ref = BY_KIND[kind];
  if (!ref) throw new Error(`not an admission kind of Paddock's: ${kind}`);
  return ref;
}

/** Each object of `admissionObjects()` by resource and name: Paddock reads and writes no other. */
export const ADMISSION_OBJECTS: readonly NamedObject[] = admissionObjects().map((o) => ({ resource: admissionResource(o.kind!), name: o.metadata.name }));
