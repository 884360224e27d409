/**
 * ResourceQuotas `paddock-quota-<i>`: one in each tenant namespace per item of the Tenant's
 * `spec.resourceQuotas`. Amounts are written as strings and compare as quantities (kube-apiserver
 * stores `1000m` as `1`), scopes as a set. With `spec.quota`, also the namespace's share of the
 * tenant-wide budget (quota/share.ts): created at 0, its amounts then the quota controller's alone.
 */
import type { ResourceRef } from '../../kube/resources';
import type { ResourceQuota, ResourceQuotaSpec } from '../../kube/types';
import { cloneJson, diffJson } from '../json';
import { inTenantNamespaces } from './cached';
import { guardrailMeta, manages, typeMeta, type GuardrailKind } from './kind';
import { diffQuantities, quantityStrings, sortedStrings } from './semantic';
import { hasTenantQuota, initialShareSpec, isShare, SHARE_NAME } from '../quota/share';

const RESOURCE: ResourceRef = { group: '', version: 'v1', resource: 'resourcequotas', kind: 'ResourceQuota', namespaced: true };

export function resourceQuotaName(index: number): string {
  return `paddock-quota-${index}`;
}

function resourceQuotaSpec(quota: ResourceQuotaSpec): ResourceQuotaSpec {
  const spec: ResourceQuotaSpec = {};
  if (quota.hard) spec.hard = quantityStrings(quota.hard);
  if (quota.scopes) spec.scopes = [...quota.scopes];
  if (quota.scopeSelector) spec.scopeSelector = cloneJson(quota.scopeSelector);
  return spec;
}

export const resourceQuotas: GuardrailKind<ResourceQuota> = {
  resource: RESOURCE,
  informer: inTenantNamespaces,
  desired: (tenant, namespace) => [
    ...(hasTenantQuota(tenant) ? [{ ...typeMeta(RESOURCE), metadata: guardrailMeta(tenant, namespace, SHARE_NAME), spec: initialShareSpec(tenant) }] : []),
    ...(tenant.spec.resourceQuotas ?? []).map((quota, i) => ({ ...typeMeta(RESOURCE), metadata: guardrailMeta(tenant, namespace, resourceQuotaName(i)), spec: resourceQuotaSpec(quota) })),
  ],
  diff(live, desired, eq) {
    if (isShare(desired)) return []; // its amounts are the quota controller's (controller/tenant-quota/)
    const l = live.spec ?? {};
    const d = desired.spec ?? {};
    return [
      ...diffQuantities('spec.hard', l.hard, d.hard, eq),
      ...diffJson('spec.scopes', sortedStrings(l.scopes), sortedStrings(d.scopes)),
      ...diffJson('spec.scopeSelector', l.scopeSelector, d.scopeSelector),
    ];
  },
  ownersMayWrite: false,
  rbac: manages(RESOURCE),
};
