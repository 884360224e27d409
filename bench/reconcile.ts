import { sleep } from '../test/controlplane/processes';
import { benchTenant, type AuditWrites, type BenchCluster, type PaddockFlags } from './cluster';
import { memoryOf, metricSum } from './proc';
import { ownerName, reconcileTenantName, type BenchConfig } from './scenarios';
import { round } from './stats';

export interface WritesReport {
  total: number;
  byResource: Record<string, number>;
  /** Writes per second between the first and the last counted write. */
  perSecond: number;
}

export interface ReconcileResult {
  scenario: 'reconcile';
  how: string;
  tenants: number;
  namespacesPerTenant: number;
  /** Tenants already in the cluster and in sync when Paddock starts (reconciled too, with no writes). */
  inSyncTenants: number;
  flags: PaddockFlags;
  /** Paddock process start → /readyz (caches synced, with the whole cluster listed). */
  readyzMs: number;
  /** Paddock process start → every new Tenant Ready=True at its generation. */
  allReadyMs: number;
  writes: WritesReport;
  /** Requests the token bucket must pace, and the least time the rate limit allows for them. */
  rateLimitFloorMs: number;
  /** allReadyMs / rateLimitFloorMs: 1.0 means the rate limit alone set the pace. */
  paceVsLimit: number;
  peakRssMiB: number;
  resync: {
    restart: { reconciles: number; writes: WritesReport; ms: number };
    periodic: { periodSeconds: number; reconciles: number; writes: WritesReport };
  };
}

function report(w: AuditWrites): WritesReport {
  const spanS = (w.lastMs - w.firstMs) / 1000;
  return { total: w.total, byResource: w.byResource, perSecond: w.total > 1 && spanS > 0 ? round(w.total / spanS) : 0 };
}

async function reconcileCount(cluster: BenchCluster): Promise<{ reconciles: number; depth: number }> {
  const text = await cluster.paddockMetrics();
  return { reconciles: metricSum(text, 'paddock_reconcile_total', ['controller', 'tenants']), depth: metricSum(text, 'paddock_workqueue_depth') };
}

/** Waits until Paddock has run at least `reconciles` reconciles and its queue is empty. */
async function waitReconciles(cluster: BenchCluster, reconciles: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await reconcileCount(cluster);
    if (c.reconciles >= reconciles && c.depth === 0) return c.reconciles;
    if (Date.now() > deadline) throw new Error(`waited for ${reconciles} reconciles, saw ${c.reconciles} (queue depth ${c.depth})`);
    await sleep(500);
  }
}

/**
 * Scenario 4: cold reconcile. Paddock is stopped, `tenants` new Tenants (`namespacesPerTenant` each) are
 * created, then Paddock starts with the client rate limit under test, in a cluster that also holds the
 * size steps' tenants (in sync). Measured: time to all Ready, writes (audit log) and their rate against
 * --qps/--burst, peak RSS (VmHWM). Then two full resyncs that must write nothing: a restart (every
 * Tenant reconciled from a fresh cache) and the periodic resync of that process.
 */
export async function coldReconcile(cluster: BenchCluster, config: BenchConfig, inSyncTenants: number): Promise<ReconcileResult> {
  const r = config.reconcile;
  const flags: PaddockFlags = { qps: r.qps, burst: r.burst, workers: r.workers, resyncPeriod: '10m' };
  await cluster.stopPaddock();
  const names = Array.from({ length: r.tenants }, (_, i) => reconcileTenantName(i));
  await cluster.createTenants(names.map((n, i) => benchTenant(n, [ownerName(i % config.owners)], r.namespacesPerTenant)));
  cluster.log(`  ${r.tenants} Tenants created with Paddock stopped; starting Paddock (--qps=${r.qps} --burst=${r.burst} --workers=${r.workers})`);

  const offset = cluster.auditOffset();
  const t0 = Date.now();
  await cluster.startPaddock(flags, 'paddock-reconcile');
  const readyzMs = Date.now() - t0;
  await cluster.waitTenantsReady(new Set(names), 20 * 60_000, (n) => cluster.log(`  ${n}/${r.tenants} Ready`));
  const allReadyMs = Date.now() - t0;
  await waitReconciles(cluster, 0, 60_000);
  await sleep(2000); // events are sent fire-and-forget: let the last ones land
  const peakRssMiB = round(memoryOf(cluster.paddock!.pid).hwmMiB);
  const writes = report(cluster.paddockWrites(offset));
  // Every write and every read Paddock sends takes a token; the reads of a cold start are the informers'
  // lists (six resources, paginated) and the shipped ClusterRoles' GETs: a few dozen, small next to writes.
  const paced = writes.total;
  const rateLimitFloorMs = Math.max(0, (paced - r.burst) / r.qps) * 1000;

  // Full resync 1: a restart reconciles every Tenant from a fresh cache.
  await cluster.stopPaddock();
  const total = inSyncTenants + r.tenants;
  const periodSeconds = r.resyncPeriodSeconds;
  const offsetRestart = cluster.auditOffset();
  const t1 = Date.now();
  await cluster.startPaddock({ ...flags, resyncPeriod: `${periodSeconds}s` }, 'paddock-resync');
  const afterRestart = await waitReconciles(cluster, total, 5 * 60_000);
  const restartMs = Date.now() - t1;
  await sleep(1000);
  const restartWrites = report(cluster.paddockWrites(offsetRestart));
  // Full resync 2: the periodic resync of the same process (period jittered by up to +10%).
  const offsetPeriodic = cluster.auditOffset();
  const afterPeriodic = await waitReconciles(cluster, afterRestart + total, periodSeconds * 1100 + 120_000);
  await sleep(1000);
  const periodicWrites = report(cluster.paddockWrites(offsetPeriodic));

  return {
    scenario: 'reconcile',
    how: 'Tenants created while Paddock was stopped, then Paddock started (cold cache)',
    tenants: r.tenants,
    namespacesPerTenant: r.namespacesPerTenant,
    inSyncTenants,
    flags,
    readyzMs,
    allReadyMs,
    writes,
    rateLimitFloorMs: round(rateLimitFloorMs),
    paceVsLimit: rateLimitFloorMs > 0 ? round(allReadyMs / rateLimitFloorMs) : NaN,
    peakRssMiB,
    resync: {
      restart: { reconciles: afterRestart, writes: restartWrites, ms: restartMs },
      periodic: { periodSeconds, reconciles: afterPeriodic - afterRestart, writes: periodicWrites },
    },
  };
}
