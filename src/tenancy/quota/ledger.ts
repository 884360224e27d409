/**
 * The ledger of a tenant-wide quota: per namespace, the most its share may be (`status.quota.allocations`
 * of the Tenant). It is written only with the Tenant's resourceVersion as precondition, so every change
 * to it is decided on the state it replaces, and it keeps two invariants that together bound the
 * tenant:
 *
 *   (A) for each resource, the sum of the allocations ≤ the budget, whenever an allocation is raised
 *       ({@link grantRaises} grants no more than the budget leaves);
 *   (B) each namespace's share (its ResourceQuota's `spec.hard`) ≤ its allocation, at every instant:
 *       a share is raised only after the allocation covering it is recorded, and an allocation is
 *       lowered only to a share that was written after the ledger was read (see the controller).
 *
 * So the sum of the shares ≤ the sum of the allocations ≤ the budget. Pure: reading and writing the
 * Tenant is the controller's.
 */
import type { Tenant, TenantQuotaStatus } from '../../kube/types';
import { amountsOf, maxOf, minOf, quantitiesOf, type Amounts } from './amounts';

/** Per namespace, its allocation. */
export type Allocations = Map<string, Amounts>;

/** The tenant's budget in units (`spec.quota.hard`); empty when it has none. */
export function budgetOf(tenant: Tenant): Amounts {
  return amountsOf(tenant.spec?.quota?.hard, 'down');
}

/** The allocations recorded in the Tenant's status. */
export function allocationsOf(tenant: Tenant): Allocations {
  return new Map(Object.entries(tenant.status?.quota?.allocations ?? {}).map(([ns, a]) => [ns, amountsOf(a, 'up')]));
}

/** The allocations as the status records them, namespaces sorted. */
export function recordOf(allocations: Allocations): NonNullable<TenantQuotaStatus['allocations']> {
  return Object.fromEntries([...allocations.keys()].sort().map((ns) => [ns, quantitiesOf(allocations.get(ns)!)]));
}

/**
 * The allocations after the shares in `written` were lowered (or set for a resource they lacked) to
 * the amounts given: each written resource's allocation becomes the share written. Only the controller
 * that read the ledger before writing those shares may record this (invariant B).
 */
export function afterLowering(allocations: Allocations, written: ReadonlyMap<string, Amounts>): Allocations {
  const out: Allocations = new Map([...allocations].map(([ns, a]) => [ns, new Map(a)]));
  for (const [ns, shares] of written) {
    const a = out.get(ns) ?? new Map<string, bigint>();
    for (const [resource, units] of shares) a.set(resource, units);
    out.set(ns, a);
  }
  return out;
}

/** The allocations without the namespaces in `gone` (their ResourceQuota was seen absent after the ledger was read). */
export function withoutNamespaces(allocations: Allocations, gone: readonly string[]): Allocations {
  return new Map([...allocations].filter(([ns]) => !gone.includes(ns)));
}

/**
 * Grants what `wants` asks (per namespace, per resource, the share it should reach) as far as the budget
 * allows (invariant A): a namespace's allocation rises to its want, or by what is left of the budget
 * once every other allocation is counted. `seen` (shares as last seen, which may be stale) only makes
 * the count more cautious — an allocation is counted as at least the share seen, so a ledger that lost
 * track frees nothing — and is never recorded: recording a stale share would raise an allocation
 * without the budget's check. Returns the new allocations and, per namespace, the share it may now be
 * raised to (never above its allocation). Namespaces are served in the order of `wants`.
 */
export function grantRaises(
  budget: Amounts,
  allocations: Allocations,
  wants: ReadonlyMap<string, Amounts>,
  seen: Allocations = new Map(),
): { allocations: Allocations; granted: Map<string, Amounts> } {
  const out: Allocations = new Map([...allocations].map(([ns, a]) => [ns, new Map(a)]));
  const granted = new Map<string, Amounts>();
  for (const [resource, hard] of budget) {
    let counted = 0n;
    for (const ns of new Set([...out.keys(), ...seen.keys()])) counted += maxOf(out.get(ns)?.get(resource) ?? 0n, seen.get(ns)?.get(resource) ?? 0n);
    let left = hard - counted;
    for (const [ns, want] of wants) {
      const target = want.get(resource);
      if (target === undefined) continue;
      const a = out.get(ns) ?? new Map<string, bigint>();
      const current = a.get(resource) ?? 0n;
      let allowed = current;
      if (target > current && left > 0n) {
        allowed = minOf(target, current + left);
        left -= allowed - current;
        a.set(resource, allowed);
        out.set(ns, a);
      }
      const g = granted.get(ns) ?? new Map<string, bigint>();
      g.set(resource, minOf(target, allowed));
      granted.set(ns, g);
    }
  }
  return { allocations: out, granted };
}
