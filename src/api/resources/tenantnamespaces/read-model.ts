import type { Condition, Namespace, ResourceQuota, Tenant, TenantNamespace, TenantNamespaceOwner } from '../../../kube/types';
import { PADDOCK } from '../../../kube/types';
import { namespaceMeta } from '../../../cache/records';
import { Interner } from '../../../cache/summaries';
import { TENANT_NAMESPACES } from './names';
import { mergeQuotas } from './quota';
import { tenantQuotaOf } from './tenant-quota';
import { deriveResourceVersion } from './derived-version';

/** The Pod Security label Paddock sets on every tenant namespace (SPEC §3). */
export const POD_SECURITY_ENFORCE_LABEL = 'pod-security.kubernetes.io/enforce';

/** Condition type reporting whether the guardrails of the namespace are as the Tenant wants them. */
export const GUARDRAILS_READY = 'GuardrailsReady';

/**
 * What the reconciler knows about the guardrails of one namespace (quotas, limits, policies, RBAC,
 * labels). Absent means nothing has been reported yet.
 */
export interface GuardrailSummary {
  /** Every guardrail exists and matches what the Tenant wants. */
  inSync: boolean;
  /** CamelCase reason, e.g. `InSync`, `Drifted`, `Missing`; defaults to `InSync` / `NotInSync`. */
  reason?: string;
  /** Which guardrail is missing or drifted, for humans. */
  message?: string;
  /** RFC 3339 time the summary last flipped between in sync and not. */
  lastTransitionTime?: string;
}

/** The objects one TenantNamespace is joined from. */
export interface TenantNamespaceSources {
  /** The tenant namespace (it carries the tenant label). */
  namespace: Namespace;
  /** Its Tenant; undefined while the Tenant is gone but the namespace is still labelled. */
  tenant: Tenant | undefined;
  /** The ResourceQuotas in the namespace. */
  quotas: readonly ResourceQuota[];
  guardrails?: GuardrailSummary;
  /**
   * The resourceVersion to serve. The watch layer passes the revision of its change log; absent, it is
   * derived from the sources (see `deriveResourceVersion`).
   */
  resourceVersion?: string;
}

/**
 * Joins a Namespace, its Tenant, its ResourceQuotas and its guardrail summary into the TenantNamespace
 * served to clients (SPEC §4). The result shares nothing mutable with the inputs: parts that are equal
 * in many rows — a tenant's owners and condition, a quota summary — are one frozen value shared by every
 * row that shows them (see {@link sharedPart}), and the namespace's labels and the tenant's
 * nodeSelector are referenced, not copied, when the cache has frozen them.
 *
 * - metadata: the namespace's name, uid, creationTimestamp, deletionTimestamp and labels (its
 *   annotations are not the tenant's to see);
 * - spec.tenant: the namespace's `paddock.dev/tenant` label (the Tenant's name when the label is absent);
 * - status.phase: the namespace phase (Terminating once it has a deletionTimestamp);
 * - status.owners: the Tenant's owners, role defaulted to admin; empty when the Tenant is gone;
 * - status.quota: see `mergeQuotas`; absent when no quota limits the namespace (the share of a
 *   tenant-wide quota is one of its quotas: it binds there when it is the tighter);
 * - status.tenantQuota: the namespace's share of the Tenant's `spec.quota` and its use, see
 *   `tenantQuotaOf`; absent when the Tenant has no budget;
 * - status.nodeSelector: the Tenant's nodeSelector, which admission merges into every pod;
 * - status.conditions: `GuardrailsReady`.
 */
export function toTenantNamespace(sources: TenantNamespaceSources): TenantNamespace {
  const { namespace, tenant, quotas } = sources;
  const { spec, status } = tenantNamespaceBody(sources);
  return {
    kind: TENANT_NAMESPACES.kind,
    apiVersion: TENANT_NAMESPACES.groupVersion,
    metadata: tenantNamespaceMetadata(namespace, sources.resourceVersion ?? deriveResourceVersion([namespace, tenant, ...quotas])),
    spec,
    status,
  };
}

/** The spec and status of the TenantNamespace joined from `sources` (see toTenantNamespace). */
export function tenantNamespaceBody(sources: TenantNamespaceSources): Pick<TenantNamespace, 'spec' | 'status'> {
  const { namespace, tenant, quotas, guardrails } = sources;
  const meta = namespaceMeta(namespace);
  const tenantName = meta.labels?.[PADDOCK.tenantLabel] ?? tenant?.metadata.name ?? '';

  const quota = mergeQuotas(quotas);
  const tenantQuota = tenantQuotaOf(tenant, quotas);
  const nodeSelector = tenant?.spec.nodeSelector;
  const status: NonNullable<TenantNamespace['status']> = {
    phase: namespace.status?.phase ?? (meta.deletionTimestamp ? 'Terminating' : 'Active'),
    owners: sharedPart(ownersOf(tenant)),
    quota: quota ? sharedPart(quota) : undefined,
    // Not a part of its own: a namespace's share and use are seldom another row's, and the status holding it is.
    tenantQuota,
    nodeSelector: nodeSelector && Object.keys(nodeSelector).length ? frozenOrCopy(nodeSelector) : undefined,
    conditions: sharedPart([guardrailsCondition(tenantName, tenant, guardrails)]),
  };
  return {
    spec: sharedPart({ tenant: tenantName }),
    // Equal in the namespaces of a tenant that are alike (same phase, quota usage and condition).
    status: sharedPart(status),
  };
}

/**
 * The metadata of the TenantNamespace of `namespace`, at `resourceVersion`: the namespace's name, uid,
 * creation and deletion times and labels (its annotations are not the tenant's to see).
 */
export function tenantNamespaceMetadata(namespace: Namespace, resourceVersion: string | undefined): TenantNamespace['metadata'] {
  const meta = namespaceMeta(namespace);
  const labels = meta.labels;
  // Objects are made as literals with every field (an absent one undefined, which no encoding writes),
  // so that their fields are stored inside them.
  return {
    name: meta.name,
    uid: meta.uid || undefined,
    resourceVersion,
    creationTimestamp: meta.creationTimestamp || undefined,
    deletionTimestamp: meta.deletionTimestamp || undefined,
    labels: labels && hasKeys(labels) ? frozenOrCopy(labels) : undefined,
  };
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** Row parts equal by JSON in several rows, kept once while some row holds them. */
const parts = new Interner();

/** `value` frozen, or the equal frozen value another row already shows (never to be mutated). */
function sharedPart<T extends object>(value: T): T {
  return parts.value(value);
}

/** A flat map of strings: the same object when frozen (the cache's), else a copy. */
function frozenOrCopy(values: Record<string, string>): Record<string, string> {
  return Object.isFrozen(values) ? values : { ...values };
}

function ownersOf(tenant: Tenant | undefined): TenantNamespaceOwner[] {
  return (tenant?.spec.owners ?? []).map((o) => {
    const owner: TenantNamespaceOwner = { kind: o.kind, name: o.name } as TenantNamespaceOwner;
    if (o.kind === 'ServiceAccount' && o.namespace) owner.namespace = o.namespace;
    owner.role = o.role ?? 'admin';
    return owner;
  });
}

function guardrailsCondition(tenantName: string, tenant: Tenant | undefined, guardrails: GuardrailSummary | undefined): Condition {
  if (!tenant) {
    return { type: GUARDRAILS_READY, status: 'False', reason: 'TenantNotFound', message: `Tenant "${tenantName}" not found` };
  }
  if (!guardrails) {
    return { type: GUARDRAILS_READY, status: 'Unknown', reason: 'Pending', message: 'guardrails not reconciled yet' };
  }
  const condition: Condition = {
    type: GUARDRAILS_READY,
    status: guardrails.inSync ? 'True' : 'False',
    reason: guardrails.reason ?? (guardrails.inSync ? 'InSync' : 'NotInSync'),
  };
  if (guardrails.message) condition.message = guardrails.message;
  if (guardrails.lastTransitionTime) condition.lastTransitionTime = guardrails.lastTransitionTime;
  return condition;
}
