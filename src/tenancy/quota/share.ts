/**
 * The share of a tenant-wide quota in one namespace: the ResourceQuota `paddock-tenant-quota`, whose
 * `spec.hard` kube-apiserver's quota admission enforces atomically. The reconciler creates it with every
 * budgeted resource at 0 — a share of nothing never breaks the sum — and from then on only the quota
 * controller changes its amounts (drift detection leaves `spec.hard` to it). Pure.
 */
import { PADDOCK, type ResourceQuota, type Tenant } from '../../kube/types';

export const SHARE_NAME = 'paddock-tenant-quota';

/**
 * The label Paddock sets on every namespace of a tenant with `spec.quota` (and removes when it has
 * none): the namespaces where kube-apiserver refuses creates while the share is missing (share-guard.ts).
 */
export const QUOTA_LABEL = `${PADDOCK.tenantGroup}/tenant-quota`;

/**
 * Written on a share with every change the quota controller makes: the Tenant resourceVersion whose
 * ledger the change is recorded against. Its other purpose is to change the share's resourceVersion
 * even when the amounts stay, which is what makes the ledger's bookkeeping safe (see the controller).
 */
export const LEDGER_ANNOTATION = `${PADDOCK.tenantGroup}/quota-ledger`;

/** Whether `tenant` has a tenant-wide budget. */
export function hasTenantQuota(tenant: Tenant): boolean {
  return tenant.spec?.quota?.hard !== undefined;
}

/** The share as first created: every budgeted resource at 0. */
export function initialShareSpec(tenant: Tenant): NonNullable<ResourceQuota['spec']> {
  return { hard: Object.fromEntries(Object.keys(tenant.spec.quota?.hard ?? {}).sort().map((r) => [r, '0'])) };
}

/** Whether `quota` is a share (the quota controller's), not one of `spec.resourceQuotas`. */
export function isShare(quota: { metadata: { name: string } }): boolean {
  return quota.metadata.name === SHARE_NAME;
}
