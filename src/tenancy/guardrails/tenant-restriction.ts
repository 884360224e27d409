/**
 * TenantRestriction `paddock-restrictions`: one in every tenant namespace, a copy of what its Tenant
 * restricts — each restriction field the Tenant sets, its name, and the class names its selectors
 * resolve to. It is the parameter of Paddock's admission policies: their bindings select every tenant
 * namespace and kube-apiserver finds this object in the request's namespace, so that what a request
 * costs does not grow with the number of tenants (admission-policies.ts).
 *
 * Invariant: every namespace Paddock has furnished for a tenant holds one, equal to the Tenant's
 * restrictions as of the last pass. A tenant-labelled namespace without one refuses every create the
 * policies match (see admission-policies.ts), so in a release it goes only after the tenant label.
 */
import type { ResourceRef } from '../../kube/resources';
import type { KubeObject, Tenant } from '../../kube/types';
import { cloneJson, diffJson } from '../json';
import { RESTRICTIONS } from '../restrictions/registry';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { inTenantNamespaces } from './cached';
import { guardrailMeta, manages, typeMeta, type GuardrailKind } from './kind';

/** The name of the one TenantRestriction in a tenant namespace (the bindings' paramRef). */
export const RESTRICTION_OBJECT_NAME = 'paddock-restrictions';

export interface TenantRestriction extends KubeObject {
  spec: { tenant: string; allowed?: Record<string, string[]> } & Record<string, unknown>;
}

const RESOURCE: ResourceRef = { group: RESTRICTION_KIND.group, version: RESTRICTION_KIND.version, resource: RESTRICTION_KIND.plural, kind: RESTRICTION_KIND.kind, namespaced: true };

/** What `tenant` restricts, as its namespaces' TenantRestriction states it. Pure. */
export function restrictionSpec(tenant: Tenant): TenantRestriction['spec'] {
  const spec: TenantRestriction['spec'] = { tenant: tenant.metadata.name };
  const fields = tenant.spec as unknown as Record<string, unknown>;
  for (const { field } of RESTRICTIONS) if (fields[field] !== undefined) spec[field] = cloneJson(fields[field]);
  // Absent rather than empty when no class kind is restricted: the same object however it was computed.
  const allowed = tenant.status?.allowed;
  if (allowed !== undefined && Object.keys(allowed).length > 0) spec.allowed = cloneJson(allowed) as Record<string, string[]>;
  return spec;
}

export const tenantRestrictions: GuardrailKind<TenantRestriction> = {
  resource: RESOURCE,
  informer: inTenantNamespaces,
  desired: (tenant, namespace) => [{ ...typeMeta(RESOURCE), metadata: guardrailMeta(tenant, namespace, RESTRICTION_OBJECT_NAME), spec: restrictionSpec(tenant) }],
  // The CRD has no defaults, and its schema is the Tenant's: the copy is stored as written.
  diff: (live, desired) => diffJson('spec', live.spec, desired.spec),
  ownersMayWrite: false,
  outlivesTenantLabel: true,
  rbac: manages(RESOURCE, "The parameter of the admission policies, one per tenant namespace: only Paddock writes it."),
};
