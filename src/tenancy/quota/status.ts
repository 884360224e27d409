/**
 * What a Tenant shows of its tenant-wide quota: `status.quota.hard` and `.used` (summed over its
 * namespaces' shares) and the condition `QuotaAvailable` — False with reason `AtBudget` once some
 * resource is used up (creates that need it are refused until something is freed), `OverBudget` when the
 * use is above a budget that was lowered (nothing is deleted; shares are brought down to the use). Pure.
 */
import type { Condition, Tenant, TenantQuotaStatus } from '../../kube/types';
import { metaTime } from '../../kube/time';
import { formatUnits, quantitiesOf, type Amounts } from './amounts';

export const QUOTA_CONDITION = 'QuotaAvailable';

export const QuotaReason = { WithinBudget: 'WithinBudget', AtBudget: 'AtBudget', OverBudget: 'OverBudget' } as const;

/** The condition for `used` of `budget`. `now` stamps a change of status. */
export function quotaCondition(budget: Amounts, used: Amounts, previous: Condition | undefined, now: Date): Condition {
  const over: string[] = [];
  const at: string[] = [];
  for (const [resource, hard] of [...budget].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const u = used.get(resource) ?? 0n;
    const text = `${resource} ${formatUnits(resource, u)}/${formatUnits(resource, hard)}`;
    if (u > hard) over.push(text);
    else if (u === hard) at.push(text);
  }
  const [status, reason, message]: [Condition['status'], string, string] =
    over.length > 0
      ? ['False', QuotaReason.OverBudget, `used above the budget (lowered?): ${over.join(', ')}; shares are kept at the use, nothing is deleted`]
      : at.length > 0
        ? ['False', QuotaReason.AtBudget, `budget used up: ${at.join(', ')}`]
        : ['True', QuotaReason.WithinBudget, 'every budgeted resource has headroom'];
  const lastTransitionTime = previous?.status === status && previous.lastTransitionTime ? previous.lastTransitionTime : metaTime(now);
  return { type: QUOTA_CONDITION, status, reason, message, lastTransitionTime };
}

/** status.quota with `hard` and `used` as given, the ledger as in `quota`. */
export function quotaSummary(quota: TenantQuotaStatus | undefined, budget: Amounts, used: Amounts): TenantQuotaStatus {
  const usedOfBudget: Amounts = new Map([...budget.keys()].map((r) => [r, used.get(r) ?? 0n]));
  return { ...quota, hard: quantitiesOf(budget), used: quantitiesOf(usedOfBudget) };
}

/** The Tenant's conditions with `condition` in place of its type's (or added). */
export function withCondition(tenant: Tenant, condition: Condition): Condition[] {
  const conditions = tenant.status?.conditions ?? [];
  return conditions.some((c) => c.type === condition.type) ? conditions.map((c) => (c.type === condition.type ? condition : c)) : [...conditions, condition];
}
