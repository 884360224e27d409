/**
 * The rebalancing policy of a tenant-wide quota: given the budget and, per namespace, its share and its
 * use, the share each namespace should have. Pure; the controller (controller/tenant-quota/) carries a
 * plan out under the ledger's rules, which alone keep the sum of the shares within the budget — a plan
 * only decides where headroom should be.
 *
 * Policy, per resource:
 * - A namespace keeps at least what it uses. The tenant's headroom (budget minus all use) is split
 *   equally between its namespaces, the remainder one unit each to the first namespaces by name.
 * - Shares move only when a namespace is short: its headroom is below a quarter of an equal part of the
 *   tenant's headroom (at least one unit), or it has no share of the resource yet. Until then nothing is
 *   written, whatever the usage does: a rebalance costs one write per namespace whose share changes, and
 *   a namespace gets a quarter of its part used before it asks again (the anti-thrash margin).
 * - When the budget is below the use (it was lowered), every share is brought down to its use.
 * The targets are a function of budget and usage alone, so a plan carried out is a fixed point: at rest,
 * however often it is asked, it wants no change.
 */
import { maxOf, type Amounts } from './amounts';

/** A namespace as the plan sees it: its share (absent entry: no limit on that resource yet) and its use. */
export interface NamespaceQuota {
  readonly name: string;
  readonly share: Amounts;
  readonly used: Amounts;
}

/** Per namespace, the share it should have of each budgeted resource. */
export type SharePlan = Map<string, Amounts>;

/** Headroom below this part of an equal split makes a namespace short. */
const SHORT_DIVISOR = 4n;

/** The share each namespace should have of `budget`; namespaces sorted by name. Empty when nothing should move. */
export function planShares(budget: Amounts, namespaces: readonly NamespaceQuota[]): SharePlan {
  const sorted = [...namespaces].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const plan: SharePlan = new Map(sorted.map((ns) => [ns.name, new Map(ns.share)]));
  let moved = false;
  for (const [resource, hard] of budget) {
    const targets = targetsFor(resource, hard, sorted);
    if (!targets) continue;
    moved = true;
    sorted.forEach((ns, i) => plan.get(ns.name)!.set(resource, targets[i]!));
  }
  // Resources no longer budgeted leave the shares.
  for (const shares of plan.values()) for (const resource of [...shares.keys()]) if (!budget.has(resource)) (shares.delete(resource), (moved = true));
  return moved ? plan : new Map();
}

/** The shares of one resource, in the order of `namespaces`, or undefined when nobody is short. */
function targetsFor(resource: string, hard: bigint, namespaces: readonly NamespaceQuota[]): bigint[] | undefined {
  const n = BigInt(namespaces.length);
  if (n === 0n) return undefined;
  const used = namespaces.map((ns) => ns.used.get(resource) ?? 0n);
  const totalUsed = used.reduce((a, b) => a + b, 0n);
  const headroom = hard - totalUsed;
  const totalShares = namespaces.reduce((a, ns) => a + (ns.share.get(resource) ?? 0n), 0n);
  const part = headroom > 0n ? headroom / n : 0n;
  const threshold = maxOf(1n, part / SHORT_DIVISOR);
  const short = namespaces.some((ns, i) => {
    const share = ns.share.get(resource);
    return share === undefined || share - used[i]! < threshold;
  });
  if (!short && totalShares <= hard) return undefined;
  if (headroom <= 0n) return used;
  const remainder = headroom - part * n;
  return used.map((u, i) => u + part + (BigInt(i) < remainder ? 1n : 0n));
}
