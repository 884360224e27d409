/**
 * The objects Paddock keeps inside every tenant namespace (SPEC §3): ResourceQuotas, LimitRanges,
 * NetworkPolicies and the owners' RoleBindings. Each one carries the tenant labels and a controller
 * ownerReference to the Tenant; its name says which item of the Tenant it comes from.
 */
import type {
  LimitRange,
  LimitRangeSpec,
  NetworkPolicy,
  ObjectMeta,
  OwnerRole,
  ResourceQuota,
  ResourceQuotaSpec,
  RoleBinding,
  Subject,
  Tenant,
  TenantOwner,
} from '../kube/types';
import { PADDOCK } from '../kube/types';
import { cloneJson, isRecord } from './json';
import {
  ISOLATION_POLICY_NAME,
  OWNER_ROLES,
  RBAC_GROUP,
  limitRangeName,
  networkPolicyName,
  resourceQuotaName,
  roleBindingName,
  tenantClusterRoleName,
} from './names';
import { controllerRef, tenantLabels } from './ownership';

/** Every object Paddock manages inside a tenant namespace. */
export type Guardrail = ResourceQuota | LimitRange | NetworkPolicy | RoleBinding;

/** Guardrails for `namespace`, in a fixed order: quotas, limits, policies, role bindings. */
export function desiredGuardrails(tenant: Tenant, namespace: string): Guardrail[] {
  const meta = (name: string): ObjectMeta => ({
    name,
    namespace,
    labels: tenantLabels(tenant.metadata.name),
    ownerReferences: [controllerRef(tenant)],
  });
  const spec = tenant.spec;
  const objects: Guardrail[] = [];
  (spec.resourceQuotas ?? []).forEach((quota, i) => {
    objects.push({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: meta(resourceQuotaName(i)), spec: resourceQuotaSpec(quota) });
  });
  (spec.limitRanges ?? []).forEach((range, i) => {
    objects.push({ apiVersion: 'v1', kind: 'LimitRange', metadata: meta(limitRangeName(i)), spec: limitRangeSpec(range) });
  });
  if (spec.networkIsolation !== false) {
    objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta(ISOLATION_POLICY_NAME), spec: isolationPolicySpec(tenant.metadata.name) });
  }
  (spec.networkPolicies ?? []).forEach((policy, i) => {
    objects.push({ apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: meta(networkPolicyName(i)), spec: cloneJson(policy) });
  });
  for (const [role, owners] of ownersByRole(spec.owners)) {
    objects.push({
      apiVersion: `${RBAC_GROUP}/v1`,
      kind: 'RoleBinding',
      metadata: meta(roleBindingName(role)),
      roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: tenantClusterRoleName(role) },
      subjects: owners.map(ownerSubject),
    });
  }
  return objects;
}

/**
 * Ingress only from namespaces labelled for this tenant; egress is left alone. The label is one only
 * Paddock can set on a namespace (owners cannot write Namespace objects), so it cannot be forged.
 */
export function isolationPolicySpec(tenant: string): Record<string, unknown> {
  return {
    podSelector: {},
    policyTypes: ['Ingress'],
    ingress: [{ from: [{ namespaceSelector: { matchLabels: { [PADDOCK.tenantLabel]: tenant } } }] }],
  };
}

/** The owners holding each role, roles strongest first, owners in spec order; roles nobody holds are left out. */
export function ownersByRole(owners: TenantOwner[]): [OwnerRole, TenantOwner[]][] {
  return OWNER_ROLES.map((role): [OwnerRole, TenantOwner[]] => [role, owners.filter((o) => (o.role ?? 'admin') === role)]).filter(
    ([, holders]) => holders.length > 0,
  );
}

/** An owner as an RBAC subject, with the fields kube-apiserver would default already filled in. */
export function ownerSubject(owner: TenantOwner): Subject {
  if (owner.kind === 'ServiceAccount') return { kind: 'ServiceAccount', name: owner.name, namespace: owner.namespace ?? '' };
  return { kind: owner.kind, apiGroup: RBAC_GROUP, name: owner.name };
}

function resourceQuotaSpec(quota: ResourceQuotaSpec): ResourceQuotaSpec {
  const spec: ResourceQuotaSpec = {};
  if (quota.hard) spec.hard = quantityStrings(quota.hard);
  if (quota.scopes) spec.scopes = [...quota.scopes];
  if (quota.scopeSelector) spec.scopeSelector = cloneJson(quota.scopeSelector);
  return spec;
}

function limitRangeSpec(range: LimitRangeSpec): LimitRangeSpec {
  return {
    limits: range.limits.map((item) => {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(item)) out[key] = isRecord(value) ? quantityStrings(value) : cloneJson(value);
      return out;
    }),
  };
}

/** Integer-or-string quantities written as strings, the form kube-apiserver returns them in. */
function quantityStrings(map: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, String(v)]));
}
