/**
 * The bindings of Paddock's two admission policies (admission-policies.ts): per Tenant that needs a
 * policy, one binding of it, cluster-scoped, selecting the tenant's namespaces. They are written with
 * every server default set, so their content compares as JSON. A binding is written only after the
 * policy it binds exists (see controller/admission.ts), and goes before its Tenant does.
 */
import type { NamedObject } from '../../cache/paddock-cache';
import { RESOURCES, type ResourceRef } from '../../kube/resources';
import { PADDOCK } from '../../kube/types';
import { ADMISSION_GROUP, DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, desiredBindings, type AdmissionObject } from '../admission-policies';
import { perTenant } from './cached';
import { manages, type TenantGuardrail } from './kind';
import { diffContent } from './semantic';

/** The policies the bindings bind: one object each, known by name (Paddock may read no other). */
export const ADMISSION_POLICIES: readonly NamedObject[] = [
  { resource: RESOURCES.validatingAdmissionPolicies, name: RESTRICTIONS_POLICY_NAME },
  { resource: RESOURCES.mutatingAdmissionPolicies, name: DEFAULTS_POLICY_NAME },
];

/** The kind of the bindings of one policy: those of `desiredBindings` that are of its kind. */
function bindingsOf(resource: ResourceRef): TenantGuardrail<AdmissionObject> {
  return {
    scope: 'tenant',
    resource,
    informer: perTenant,
    desired: (tenant) => desiredBindings(tenant).filter((b) => b.kind === resource.kind),
    diff: diffContent,
    ownersMayWrite: false,
    rbac: manages(resource, [
      'The bindings of the policies: names are per tenant, so RBAC cannot narrow them by name; Paddock writes',
      `only those labelled ${PADDOCK.managedByLabel}=${PADDOCK.managedByValue}, for its own policies, with a Tenant as parameter.`,
    ].join('\n')),
  };
}

const binding = (resource: string, kind: string): ResourceRef => ({ group: ADMISSION_GROUP, version: 'v1', resource, kind, namespaced: false });

/** `paddock-restrictions-<tenant>`: binds the restrictions policy to a tenant that restricts anything. */
export const restrictionsBindings = bindingsOf(binding('validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding'));

/** `paddock-defaults-<tenant>`: binds the defaults policy to a tenant with a default or a nodeSelector. */
export const defaultsBindings = bindingsOf(binding('mutatingadmissionpolicybindings', 'MutatingAdmissionPolicyBinding'));
