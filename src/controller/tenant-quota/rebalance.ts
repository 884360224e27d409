/**
 * One pass of the tenant-wide quota of one Tenant: carries out the rebalancing plan
 * (tenancy/quota/plan.ts) under the ledger's rules (tenancy/quota/ledger.ts), then reports status.
 *
 * The protocol, which keeps every share ≤ its allocation (invariant B) whatever the interleaving of two
 * leaders, stale caches or a crash between any two writes:
 * - Lowering: read the Tenant (its ledger, at resourceVersion t); write the shares, each read live and
 *   written with the resourceVersion it was read at (so a quota admission that raced — it moves the
 *   share's resourceVersion when it counts a new object — makes the write fail rather than undercut
 *   its use), never below the use read, and always moving the share's resourceVersion (the ledger
 *   annotation); then record the shares written as the allocations, with t as the precondition.
 * - Raising: read the share live (at resourceVersion r); record the raised allocation with the Tenant's
 *   resourceVersion as the precondition, granting no more than the budget leaves (invariant A), in a
 *   write that always changes the Tenant (ledgerWrites); then write the share at r, never above the
 *   allocation granted.
 * A share's amount, wherever it is counted, is the larger of its `spec.hard` and its `status.hard`
 * (enforceable): quota admission enforces `status.hard`, which kube-controller-manager copies from
 * `spec.hard` later, in no order Paddock controls — a lowered spec is not yet a lowered limit. So a
 * lowering is recorded at what the share may still admit, and given to another namespace only once a
 * later pass sees `status.hard` follow (the allocation is then above the share, and reclaimed).
 * Why B holds: a raise's share write succeeds only if no share write happened since its read r, which
 * came before its ledger write; a lowering's ledger write succeeds only if no ledger write happened
 * since its read t, which came before its share writes. So a lowering recorded after a raise's ledger
 * write wrote its share after the raise read it, and that raise fails; one recorded before it is seen
 * by the raise's grant. Failing midway leaves an allocation above its share — safe, and given back by a
 * later lowering (which rewrites the share to move its resourceVersion).
 */
import { sleep } from '../../cache/backoff';
import type { PaddockCache } from '../../cache/paddock-cache';
import { isConflict, isNotFound } from '../../kube/errors';
import { PADDOCK, type Namespace, type ResourceQuota, type Tenant } from '../../kube/types';
import { claimHolds, claimsOf } from '../../tenancy/claims';
import { amountsOf, enforceable, maxOf, minOf, quantitiesOf, sumOf, type Amounts } from '../../tenancy/quota/amounts';
import { afterLowering, allocationsOf, budgetOf, grantRaises, recordOf, withoutNamespaces, type Allocations } from '../../tenancy/quota/ledger';
import { planShares, type NamespaceQuota, type SharePlan } from '../../tenancy/quota/plan';
import { hasTenantQuota, LEDGER_ANNOTATION, SHARE_NAME } from '../../tenancy/quota/share';
import { QUOTA_CONDITION, quotaCondition, quotaSummary, withCondition } from '../../tenancy/quota/status';
import { validateTenantQuota } from '../../tenancy/quota/validate';
import type { EventRecorder } from '../events';
import type { Writer } from '../writer';
import { AdmissionActivity } from './admission-activity';

/** What one pass did, for metrics and tests. */
export interface RebalanceResult {
  lowered: number;
  raised: number;
  /** A share write or a ledger write lost a race: the tenant is tried again. */
  retry: boolean;
  /** A share whose `spec.hard` should change was busy (admission-activity.ts): come back after this long; 0 when none was. */
  deferMs: number;
}

/** How long a lowering waits for kube-controller-manager to put the lowered share in force. */
const IN_FORCE_WAIT_MS = 2_000;

const shareRef = (namespace: string): ResourceQuota => ({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: SHARE_NAME, namespace } });
const tenantRef = (name: string): Tenant => ({ apiVersion: `${PADDOCK.tenantGroup}/${PADDOCK.tenantVersion}`, kind: 'Tenant', metadata: { name }, spec: { owners: [] } });

export class QuotaRebalancer {
  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
    readonly events: EventRecorder,
    readonly activity = new AdmissionActivity(),
  ) {}

  async reconcile(name: string): Promise<RebalanceResult> {
    const result: RebalanceResult = { lowered: 0, raised: 0, retry: false, deferMs: 0 };
    const tenant = this.cache.tenants.store.get(name);
    if (!tenant || tenant.metadata.deletionTimestamp) return result;
    if (!hasTenantQuota(tenant)) {
      await this.#forget(tenant);
      return result;
    }
    let invalid = false;
    validateTenantQuota(tenant.spec.quota, () => (invalid = true));
    if (invalid) return result; // reported by the reconciler (Ready=False, InvalidSpec)
    const budget = budgetOf(tenant);
    const namespaces = this.#namespaces(tenant);
    const plan = planShares(budget, namespaces);
    const { lowers, raises } = changesOf(budget, namespaces, plan);
    // A busy share keeps its spec.hard for now: rewriting it would have kube-controller-manager recount
    // it while creates are in flight (admission-activity.ts). Held back, a lowering or raise only leaves
    // the budget's headroom where it is; the others go ahead.
    result.deferMs = holdBusy(this.activity, lowers, raises);
    const allocations = allocationsOf(tenant);
    const gone = [...allocations.keys()].filter((ns) => !namespaces.some((n) => n.name === ns));
    // Before raising, allocations left above their shares (a write that lost a race) are given back.
    const reclaim = new Set(raises.size === 0 ? [] : namespaces.filter((ns) => [...(allocations.get(ns.name) ?? [])].some(([r, a]) => a > (ns.share.get(r) ?? 0n))).map((ns) => ns.name));
    for (const ns of reclaim) if (!lowers.has(ns)) lowers.set(ns, namespaces.find((n) => n.name === ns)!.share);

    let current = tenant;
    if (lowers.size > 0 || gone.length > 0) current = await this.#lower(name, budget, lowers, reclaim, gone, result);
    if (raises.size > 0) current = await this.#raise(current, budget, raises, result);
    await this.#report(current, budget);
    return result;
  }

  /** The tenant's namespaces that are proven its, live, and hold a share (in the cache). */
  #namespaces(tenant: Tenant): NamespaceQuota[] {
    const out: NamespaceQuota[] = [];
    for (const claim of claimsOf(tenant)) {
      const ns: Namespace | undefined = this.cache.namespaces.store.get(claim.name);
      if (!ns || !claimHolds(claim, ns) || ns.status?.phase === 'Terminating') continue;
      const share = this.#cachedShare(tenant.metadata.name, claim.name);
      if (!share) continue;
      out.push({ name: claim.name, share: enforceable(amountsOf(share.spec?.hard, 'down'), amountsOf(share.status?.hard, 'up')), used: amountsOf(share.status?.used, 'up') });
    }
    return out;
  }

  #cachedShare(tenant: string, namespace: string): ResourceQuota | undefined {
    const share = this.cache.resourceQuotas.store.get(`${namespace}/${SHARE_NAME}`);
    return share && share.metadata.labels?.[PADDOCK.tenantLabel] === tenant ? share : undefined;
  }

  /** Lowers the shares in `lowers` and forgets the allocations of namespaces `gone`, then records both. */
  async #lower(name: string, budget: Amounts, lowers: SharePlan, reclaim: ReadonlySet<string>, gone: readonly string[], result: RebalanceResult): Promise<Tenant> {
    const ledger = await this.#readTenant(name); // read before any share is written (see above)
    const written = new Map<string, Amounts>();
    for (const [namespace, targets] of lowers) {
      const live = await this.writer.get<ResourceQuota>(shareRef(namespace));
      if (!live || live.metadata.labels?.[PADDOCK.tenantLabel] !== name) continue;
      const share = amountsOf(live.spec?.hard, 'down');
      const used = amountsOf(live.status?.used, 'up');
      const next: Amounts = new Map();
      for (const resource of budget.keys()) {
        const current = share.get(resource);
        const use = used.get(resource) ?? 0n;
        const target = targets.get(resource) ?? 0n;
        // A resource the share lacks (unlimited until now) starts at its use; one lowered, never below it.
        next.set(resource, current === undefined ? use : minOf(current, maxOf(target, use)));
      }
      // A reclaim writes the share unchanged: the write moves its resourceVersion, which is what lets
      // the ledger record it (a raise that read the share before cannot be written over it any more).
      if (sameAmounts(next, share) && !reclaim.has(namespace)) continue;
      try {
        await this.writer.update(withHard(live, next, ledger.metadata.resourceVersion));
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) throw err;
        result.retry = true;
        continue;
      }
      // Recorded at what the share may still admit: the new spec once kube-controller-manager has copied
      // it into status.hard (a moment, usually), the old limit until then (reclaimed by a later pass).
      written.set(namespace, enforceable(next, await this.#inForce(namespace, next)));
      result.lowered++;
    }
    const forgotten: string[] = [];
    for (const namespace of gone) {
      const live = await this.writer.get<ResourceQuota>(shareRef(namespace));
      if (!live || live.metadata.labels?.[PADDOCK.tenantLabel] !== name) forgotten.push(namespace);
    }
    if (written.size === 0 && forgotten.length === 0) return ledger;
    const allocations = withoutNamespaces(afterLowering(allocationsOf(ledger), written), forgotten);
    return this.#writeLedger(ledger, allocations, result);
  }

  /**
   * The share's `status.hard` once it is at most `limit` in every resource (kube-controller-manager has
   * copied a lowered spec), or as it still is after a short wait.
   */
  async #inForce(namespace: string, limit: Amounts): Promise<Amounts> {
    const deadline = Date.now() + IN_FORCE_WAIT_MS;
    for (;;) {
      const hard = amountsOf((await this.writer.get<ResourceQuota>(shareRef(namespace)))?.status?.hard, 'up');
      if ([...hard].every(([r, units]) => units <= (limit.get(r) ?? units)) || Date.now() >= deadline) return hard;
      await sleep(50);
    }
  }

  /** Raises the shares in `raises` as far as the budget allows: the allocation first, then the share. */
  async #raise(tenant: Tenant, budget: Amounts, raises: SharePlan, result: RebalanceResult): Promise<Tenant> {
    const name = tenant.metadata.name;
    const live = new Map<string, ResourceQuota>();
    for (const namespace of raises.keys()) {
      const share = await this.writer.get<ResourceQuota>(shareRef(namespace)); // read before the ledger write
      if (share && share.metadata.labels?.[PADDOCK.tenantLabel] === name) live.set(namespace, share);
    }
    if (live.size === 0) return tenant;
    const ledger = await this.#readTenant(name);
    // The shares as cached only make the budget's count more cautious (see grantRaises); never recorded.
    const seen: Allocations = new Map(this.#namespaces(ledger).map((ns) => [ns.name, ns.share]));
    const wants = new Map([...raises].filter(([ns]) => live.has(ns)));
    const { allocations: granted, granted: shares } = grantRaises(budget, allocationsOf(ledger), wants, seen);
    const raisesAny = [...live].some(([ns, share]) => {
      const current = amountsOf(share.spec?.hard, 'down');
      return [...(shares.get(ns) ?? [])].some(([r, units]) => units > (current.get(r) ?? 0n));
    });
    if (!raisesAny) return ledger; // nothing the budget leaves room for: no write
    const recorded = await this.#writeLedger(ledger, granted, result);
    if (recorded === ledger) return ledger; // the ledger write lost: no share may be raised
    for (const [namespace, share] of live) {
      const current = amountsOf(share.spec?.hard, 'down');
      const next = new Map(current);
      for (const [resource, units] of shares.get(namespace) ?? []) if (units > (current.get(resource) ?? 0n)) next.set(resource, units);
      if (sameAmounts(next, current)) continue;
      try {
        await this.writer.update(withHard(share, next, recorded.metadata.resourceVersion));
        result.raised++;
      } catch (err) {
        if (!isConflict(err) && !isNotFound(err)) throw err;
        result.retry = true; // the allocation stays above the share: safe, and given back later
      }
    }
    return recorded;
  }

  async #readTenant(name: string): Promise<Tenant> {
    const tenant = await this.writer.get<Tenant>(tenantRef(name));
    if (!tenant) throw new Error(`tenant ${name} is gone`);
    return tenant;
  }

  /** Writes the ledger over `tenant` (its resourceVersion the precondition); a lost race leaves `tenant`. */
  async #writeLedger(tenant: Tenant, allocations: Allocations, result: RebalanceResult): Promise<Tenant> {
    const quota = { ...tenant.status?.quota, allocations: recordOf(allocations), ledgerWrites: (tenant.status?.quota?.ledgerWrites ?? 0) + 1 };
    try {
      return await this.writer.updateStatus({ ...tenant, status: { ...tenant.status, quota } });
    } catch (err) {
      if (!isConflict(err)) throw err;
      result.retry = true;
      return tenant;
    }
  }

  /** A Tenant that no longer has spec.quota: its status.quota and condition go (the reconciler removes the shares). */
  async #forget(tenant: Tenant): Promise<void> {
    const conditions = tenant.status?.conditions ?? [];
    if (tenant.status?.quota === undefined && !conditions.some((c) => c.type === QUOTA_CONDITION)) return;
    try {
      await this.writer.updateStatus({ ...tenant, status: { ...tenant.status, quota: undefined, conditions: conditions.filter((c) => c.type !== QUOTA_CONDITION) } });
    } catch (err) {
      if (!isConflict(err)) throw err; // the Tenant moved on: its event brings it back
    }
  }

  /** Writes status.quota (hard, used) and the QuotaAvailable condition when they changed; an Event when it turns False. */
  async #report(tenant: Tenant, budget: Amounts): Promise<void> {
    const used: Amounts = new Map();
    const shares = this.#namespaces(tenant);
    for (const resource of budget.keys()) used.set(resource, sumOf(shares.map((s) => s.used), resource));
    const quota = quotaSummary(tenant.status?.quota, budget, used);
    const previous = tenant.status?.conditions?.find((c) => c.type === QUOTA_CONDITION);
    const condition = quotaCondition(budget, used, previous, new Date());
    const sameCondition = previous && previous.status === condition.status && previous.reason === condition.reason && previous.message === condition.message;
    const sameQuota = JSON.stringify(quota.hard) === JSON.stringify(tenant.status?.quota?.hard) && JSON.stringify(quota.used) === JSON.stringify(tenant.status?.quota?.used);
    if (sameCondition && sameQuota) return;
    try {
      await this.writer.updateStatus({ ...tenant, status: { ...tenant.status, quota, conditions: withCondition(tenant, sameCondition ? previous : condition) } });
    } catch (err) {
      if (isConflict(err)) return; // the Tenant moved on: its event brings it back
      throw err;
    }
    if (!sameCondition && condition.status === 'False') this.events.record(tenant, 'Warning', condition.reason!, condition.message!);
  }
}

/** The share with `hard` as given (budgeted resources only) and the ledger annotation set to `ledgerVersion`. */
function withHard(share: ResourceQuota, hard: Amounts, ledgerVersion: string | undefined): ResourceQuota {
  const annotations = { ...share.metadata.annotations, [LEDGER_ANNOTATION]: `${ledgerVersion ?? ''}/${Date.now()}` };
  return { ...share, kind: 'ResourceQuota', apiVersion: 'v1', metadata: { ...share.metadata, annotations }, spec: { ...share.spec, hard: quantitiesOf(hard) } };
}

function sameAmounts(a: Amounts, b: Amounts): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/** Removes from `plans` the namespaces whose share is busy; returns how long until the last is quiet (0: none held). */
function holdBusy(activity: AdmissionActivity, ...plans: SharePlan[]): number {
  let wait = 0;
  for (const plan of plans) {
    for (const namespace of [...plan.keys()]) {
      const busy = activity.busyFor(namespace);
      if (busy === 0) continue;
      plan.delete(namespace);
      wait = Math.max(wait, busy);
    }
  }
  return wait;
}

/** Splits a plan into the shares to lower (or to give a resource they lack) and those to raise. */
export function changesOf(budget: Amounts, namespaces: readonly NamespaceQuota[], plan: SharePlan): { lowers: SharePlan; raises: SharePlan } {
  const lowers: SharePlan = new Map();
  const raises: SharePlan = new Map();
  for (const ns of namespaces) {
    const targets = plan.get(ns.name);
    if (!targets) continue;
    const extra = [...ns.share.keys()].some((r) => !budget.has(r));
    let lower = extra;
    let raise = false;
    for (const [resource, target] of targets) {
      const share = ns.share.get(resource);
      if (share === undefined || target < share) lower = true;
      else if (target > share) raise = true;
    }
    if (lower) lowers.set(ns.name, targets);
    if (raise) raises.set(ns.name, targets);
  }
  return { lowers, raises };
}
