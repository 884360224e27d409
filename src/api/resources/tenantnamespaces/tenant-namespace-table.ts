import type { TenantNamespace } from '../../../kube/types';
import type { TableConvertor } from '../../registration/served-resource';
import { AGE_COLUMN, column, NAME_COLUMN, NONE, translateTimestampSince, type TableColumnDefinition } from '../../table';
import { GUARDRAILS_READY, POD_SECURITY_ENFORCE_LABEL } from './read-model';

/** Quota keys each column reads, first present wins (`cpu` is the same quota as `requests.cpu`). */
const QUOTA_KEYS = {
  cpu: ['cpu', 'requests.cpu', 'limits.cpu'],
  memory: ['memory', 'requests.memory', 'limits.memory'],
  pods: ['pods', 'count/pods'],
} as const;

/**
 * The cells of one TenantNamespace row, in the order of TENANT_NAMESPACE_COLUMNS. Every cell is a string;
 * absent values are `<none>`, as kube-apiserver's printers write them. `now` makes AGE a pure function.
 */
export function tenantNamespaceCells(tns: TenantNamespace, now: Date): string[] {
  const status = tns.status;
  const guardrails = status?.conditions?.find((c) => c.type === GUARDRAILS_READY);
  return [
    tns.metadata.name,
    tns.spec.tenant || NONE,
    status?.phase ?? NONE,
    translateTimestampSince(tns.metadata.creationTimestamp, now),
    ownersCell(tns),
    quotaCell(tns, QUOTA_KEYS.cpu),
    quotaCell(tns, QUOTA_KEYS.memory),
    quotaCell(tns, QUOTA_KEYS.pods),
    shareCell(tns),
    guardrails?.reason ?? guardrails?.status ?? NONE,
    tns.metadata.labels?.[POD_SECURITY_ENFORCE_LABEL] ?? NONE,
    nodeSelectorCell(tns),
  ];
}

/** `k=v,k2=v2` sorted by key, as the node-selector annotation used to read; `<none>` without one. */
function nodeSelectorCell(tns: TenantNamespace): string {
  const selector = tns.status?.nodeSelector ?? {};
  const keys = Object.keys(selector).sort();
  return keys.length ? keys.map((k) => `${k}=${selector[k]}`).join(',') : NONE;
}

function ownersCell(tns: TenantNamespace): string {
  const owners = tns.status?.owners ?? [];
  if (owners.length === 0) return NONE;
  return owners.map((o) => (o.kind === 'ServiceAccount' && o.namespace ? `${o.kind}:${o.namespace}/${o.name}` : `${o.kind}:${o.name}`)).join(',');
}

/** `used/hard` as `kubectl get quota` shows it; usage not yet reported reads 0, no limit reads <none>. */
function quotaCell(tns: TenantNamespace, keys: readonly string[]): string {
  const quota = tns.status?.quota;
  const key = keys.find((k) => quota?.hard?.[k] !== undefined);
  if (!key) return NONE;
  return `${quota?.used?.[key] ?? '0'}/${quota!.hard![key]}`;
}

/** The text kubectl prints for a share none of which is in force yet, as for a Service's pending address. */
export const PENDING = '<pending>';

/**
 * The namespace's share of the tenant-wide quota as `kubectl get resourcequota` prints a quota's
 * requests (`pods: 3/5, requests.cpu: 100m/1`): each resource in force, sorted, `used/share`.
 * `<none>` when the Tenant has no budget, `<pending>` while nothing of the share is in force.
 */
function shareCell(tns: TenantNamespace): string {
  const tenantQuota = tns.status?.tenantQuota;
  if (!tenantQuota) return NONE;
  const resources = Object.keys(tenantQuota.share).sort();
  if (resources.length === 0) return PENDING;
  return resources.map((r) => `${r}: ${tenantQuota.used[r] ?? '0'}/${tenantQuota.share[r]}`).join(', ');
}

/**
 * The columns of `kubectl get tenantnamespaces` (SPEC §4), in order. Names are written as kube's built-in
 * printers write them (`Name`, `Age`); kubectl upper-cases them in its header. Priority 1 columns show
 * with `-o wide`. NAME and AGE carry the ObjectMeta descriptions, as every built-in resource's do.
 */
export const TENANT_NAMESPACE_COLUMNS: readonly TableColumnDefinition[] = Object.freeze([
  NAME_COLUMN,
  column('Tenant', 'The Tenant this namespace belongs to.'),
  column('Status', 'The status of the namespace'),
  AGE_COLUMN,
  column('Owners', "The owners of the namespace's Tenant, as Kind:name (ServiceAccount:namespace/name).", 1),
  column('CPU', 'CPU used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Memory', 'Memory used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Pods', 'Pods used/hard under the most restrictive ResourceQuota of the namespace.', 1),
  column('Share', "The namespace's share of its Tenant's tenant-wide quota (spec.quota) in force, used/share per resource.", 1),
  column('Guardrails', 'Reason of the GuardrailsReady condition: InSync when every guardrail is as the Tenant wants it.', 1),
  column('Pod-Security', 'The Pod Security Standard enforced in the namespace (pod-security.kubernetes.io/enforce).', 1),
  column('Node-Selector', "The node selector every pod of the namespace gets (the Tenant's nodeSelector, applied by admission).", 1),
]);

/** How TenantNamespaces print (SPEC §4). */
export const TENANT_NAMESPACE_TABLE: TableConvertor<TenantNamespace> = { columns: TENANT_NAMESPACE_COLUMNS, cells: tenantNamespaceCells };
