import type { TenantNamespace } from '../../kube/types';
import { GUARDRAILS_READY, NODE_SELECTOR_ANNOTATION, POD_SECURITY_ENFORCE_LABEL } from '../tenantnamespaces';
import { translateTimestampSince } from './duration';

/** What the built-in printers show for a value that is not there. */
export const NONE = '<none>';

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
    guardrails?.reason ?? guardrails?.status ?? NONE,
    tns.metadata.labels?.[POD_SECURITY_ENFORCE_LABEL] ?? NONE,
    tns.metadata.annotations?.[NODE_SELECTOR_ANNOTATION] || NONE,
  ];
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
