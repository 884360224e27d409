/**
 * The benchmark's scenario table: one row per knob, for the full run and for `--quick` (development).
 * Every measured Paddock number is compared with a baseline measured in the same run on the same cluster.
 */
export interface BenchConfig {
  name: 'full' | 'quick';
  /** Cluster sizes in tenant namespaces, grown in this order on the same cluster (scenarios 1, 2, 5). */
  sizes: number[];
  /** Namespaces per tenant for the size steps (10k namespaces = 2k tenants at 5). */
  namespacesPerTenant: number;
  /** Owners u00..: tenant t00000 is owned by alice alone, every other by one of these users in turn. */
  owners: number;
  /** Paddock's flags while the data is created (fast), and for scenarios 1–3 and 5. */
  setup: { qps: number; burst: number; workers: number };
  ownerList: { sequential: number; burst: number; concurrency: number };
  adminList: { sequential: number; burst: number; concurrency: number };
  /**
   * Scenario 3 (and 7's watch): `watchersPerOwner` watches per owner, and before them each fan-out of
   * `smallerWatchersPerOwner` (the watch goals hold at every one of them); the scale scenario uses the first only.
   */
  watch: { watchersPerOwner: number; smallerWatchersPerOwner: number[]; changesPerSecond: number; seconds: number };
  reconcile: { tenants: number; namespacesPerTenant: number; qps: number; burst: number; workers: number; resyncPeriodSeconds: number };
  /** Scenario 8: informers of `owners` owners through two replicas, one of which restarts every `restartEverySeconds`. */
  ha: { owners: number; seconds: number; restartEverySeconds: number };
  /**
   * The admission scenario, on a control plane of its own: pod-create latency through kube-apiserver with
   * `sizes` restricted Tenants (grown in this order), `rounds` alternations of with and without Paddock's
   * admission objects at each, `requestsPerRound` dry-run creates per namespace and state in each round;
   * then `propagation` changes of one Tenant's registries with Paddock running, timed until enforced.
   */
  admission: { sizes: number[]; rounds: number; requestsPerRound: number; propagation: number; buildConcurrency: number; buildBudgetMinutes: number };
  /**
   * The tenant-wide quota scenario, on a control plane of its own: `tenants` Tenants with `spec.quota`
   * (`podsPerTenant` pods over `namespacesPerTenant` namespaces, `owners` owners in turn), reconciled by
   * Paddock with its resync every `resyncPeriodSeconds`; `rounds` rebalances, each on another Tenant.
   */
  tenantQuota: { tenants: number; namespacesPerTenant: number; podsPerTenant: number; owners: number; rounds: number; resyncPeriodSeconds: number };
}

export const FULL: BenchConfig = {
  name: 'full',
  sizes: [1000, 5000, 10000],
  namespacesPerTenant: 5,
  owners: 100,
  setup: { qps: 1000, burst: 2000, workers: 16 },
  ownerList: { sequential: 400, burst: 800, concurrency: 8 },
  // 200 rounds: a p99 of 40 samples is their slowest one, which no goal on a p99 can be read from.
  adminList: { sequential: 200, burst: 24, concurrency: 8 },
  watch: { watchersPerOwner: 10, smallerWatchersPerOwner: [1], changesPerSecond: 50, seconds: 20 },
  reconcile: { tenants: 1000, namespacesPerTenant: 3, qps: 200, burst: 400, workers: 16, resyncPeriodSeconds: 20 },
  ha: { owners: 4, seconds: 120, restartEverySeconds: 15 },
  admission: { sizes: [0, 2000, 20000], rounds: 3, requestsPerRound: 120, propagation: 15, buildConcurrency: 24, buildBudgetMinutes: 30 },
  tenantQuota: { tenants: 1000, namespacesPerTenant: 3, podsPerTenant: 12, owners: 100, rounds: 100, resyncPeriodSeconds: 30 },
};

export const QUICK: BenchConfig = {
  name: 'quick',
  sizes: [1000],
  namespacesPerTenant: 5,
  owners: 20,
  setup: { qps: 1000, burst: 2000, workers: 16 },
  ownerList: { sequential: 200, burst: 400, concurrency: 8 },
  adminList: { sequential: 10, burst: 16, concurrency: 8 },
  watch: { watchersPerOwner: 5, smallerWatchersPerOwner: [1], changesPerSecond: 25, seconds: 8 },
  reconcile: { tenants: 100, namespacesPerTenant: 3, qps: 200, burst: 400, workers: 16, resyncPeriodSeconds: 15 },
  ha: { owners: 2, seconds: 40, restartEverySeconds: 10 },
  admission: { sizes: [0, 200, 2000], rounds: 2, requestsPerRound: 75, propagation: 6, buildConcurrency: 24, buildBudgetMinutes: 10 },
  tenantQuota: { tenants: 100, namespacesPerTenant: 3, podsPerTenant: 12, owners: 20, rounds: 20, resyncPeriodSeconds: 20 },
};

/** The tenant of the owner-list scenario: owned by alice alone. */
export const ALICE_TENANT = 't00000';

export const ownerName = (i: number) => `u${String(i).padStart(3, '0')}`;
export const tenantName = (i: number) => `t${String(i).padStart(5, '0')}`;
export const reconcileTenantName = (i: number) => `r${String(i).padStart(5, '0')}`;

/** Owner of size-step tenant `i`: alice for tenant 0, else u000.. in turn. */
export function ownerOfTenant(config: BenchConfig, i: number): string {
  return i === 0 ? 'alice' : ownerName((i - 1) % config.owners);
}

/** Goals to report against (not assertions). */
export const GOALS = {
  ownerListP99Ms: 5,
  ownerListSpeedup: 5,
  /** Owner list through kube-apiserver ÷ the aggregated floor (the same bytes from memory, same path), p50 and p99, at the largest size. */
  ownerListFloorRatio: 1.5,
  /** Admin's full list as a Table, directly, ÷ the transfer floor (the same bytes streamed alone), p50 and p99, at the largest size. */
  adminTableFloorRatio: 1.3,
  watchP99Ms: 100,
  /** Watch delivery: a baseline's latency ÷ Paddock's (kube-apiserver's label-selected watch, capsule-proxy), p50 and p99, at every fan-out. */
  watchVsBaseline: 1,
  heapBytesPerNamespace: 2048,
  /** Owner list through kube-apiserver in the scale scenario: capsule-proxy ÷ Paddock, p50 and p99. */
  capsuleProxyScaleSpeedup: 20,
  /** Pod create (dry run) through kube-apiserver at the largest admission size: p50 with Paddock's admission objects − p50 without. */
  admissionPlainOverheadMs: 0.2,
  admissionRestrictedOverheadMs: 1,
  /** Headroom freed in one namespace of a tenant → a create refused in another admitted, p99 (tenant-wide quota). */
  tenantQuotaRebalanceP99Ms: 3000,
};
