import type { ResourceQuota } from '../../../kube/types';
import { tryParseQuantity as parseQuantity, type Quantity } from '../../../quantity/quantity';

/** `status.quota` of a TenantNamespace: per resource name, the limit that binds and its usage. */
export interface QuotaSummary {
  hard: Record<string, string>;
  used: Record<string, string>;
}

/**
 * Merges the ResourceQuotas of one namespace into what binds: for each resource name, the most
 * restrictive `hard` across quotas, and the `used` reported by that same quota (on a tie, the larger
 * usage). Limits come from `status.hard` (what the quota controller enforces), or from `spec.hard` while
 * the controller has not reported yet; such a quota has no `used` yet.
 *
 * Only quotas without `scopes`/`scopeSelector` count when there is at least one: a scoped quota limits a
 * subset of pods, not the namespace. Keys of the result are sorted; undefined when nothing limits.
 */
export function mergeQuotas(quotas: readonly ResourceQuota[]): QuotaSummary | undefined {
  const unscoped = quotas.filter((q) => !q.spec?.scopes?.length && !q.spec?.scopeSelector);
  const counted = [...(unscoped.length > 0 ? unscoped : quotas)].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));

  const best = new Map<string, { hard: string; hardQ: Quantity; used?: string; usedQ?: Quantity }>();
  for (const quota of counted) {
    const hard = quota.status?.hard ?? stringValues(quota.spec?.hard);
    const used = quota.status?.hard ? quota.status.used : undefined;
    for (const [resource, hardText] of Object.entries(hard ?? {})) {
      const hardQ = parseQuantity(hardText);
      if (!hardQ) continue;
      const usedText = used?.[resource];
      const usedQ = usedText !== undefined ? parseQuantity(usedText) : undefined;
      const current = best.get(resource);
      const order = current ? hardQ.cmp(current.hardQ) : -1;
      const moreUsed = current && order === 0 && usedQ && (!current.usedQ || usedQ.cmp(current.usedQ) > 0);
      if (order < 0 || moreUsed) {
        best.set(resource, usedText !== undefined && usedQ ? { hard: hardText, hardQ, used: usedText, usedQ } : { hard: hardText, hardQ });
      }
    }
  }
  if (best.size === 0) return undefined;

  const summary: QuotaSummary = { hard: {}, used: {} };
  for (const resource of [...best.keys()].sort()) {
    const entry = best.get(resource)!;
    summary.hard[resource] = entry.hard;
    if (entry.used !== undefined) summary.used[resource] = entry.used;
  }
  return summary;
}

function stringValues(values: Record<string, string | number> | undefined): Record<string, string> | undefined {
  if (!values) return undefined;
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}
