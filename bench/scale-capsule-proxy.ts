/**
 * capsule-proxy in the scale scenario: started on the cluster built in bulk, with a Capsule Tenant written
 * for every bench Tenant built (in bulk too, as the Capsule controller would write them), then measured
 * beside Paddock at that size: the owner list, the admin list and the watch fan-out. capsule-proxy's
 * namespace list grows with the cluster (it lists namespaces through kube-apiserver with a selector of the
 * owner's namespaces); Paddock's view answers from its index.
 */
import { performance } from 'node:perf_hooks';
import type { BenchCluster } from './cluster';
import { CapsuleProxy, type CapsuleProxyBuild } from './capsule-proxy';
import { CAPSULE_WATCH_TARGET, capsuleAdminList, capsuleOwnerList, capsuleWatch, ceilingsText, ownerListRatios, type OwnerListRatios } from './capsule-proxy-scenarios';
import { pool } from './http';
import { MACHINE_AVAILABLE, memAvailableMiB, RssSampler } from './proc';
import type { ListResult } from './list';
import { ownerOfTenant, tenantName, type BenchConfig } from './scenarios';
import { ratio, round } from './stats';
import type { WatchResult, WatchWorld } from './watch';

type Log = (line: string) => void;

/** capsule-proxy ÷ Paddock (higher is better for Paddock), p50 and p99. */
export interface Ratios {
  ratioP50: number;
  ratioP99: number;
  /**
   * capsule-proxy's requests that got no answer within 60 s (none: absent): each is a sample of the time it
   * was given up after, so capsule-proxy's latencies, and these ratios, are at least what they say.
   */
  baselineTimedOut?: number;
}

/** `ratios`, with the timeouts of capsule-proxy's targets in `r` when there were any. */
function withTimeouts<R extends Ratios>(ratios: R, r: ListResult): R {
  const timedOut = r.targets.filter((t) => t.role === 'baseline').reduce((n, t) => n + (t.timedOut ?? 0), 0);
  return timedOut > 0 ? { ...ratios, baselineTimedOut: timedOut } : ratios;
}

export interface ScaleCapsuleProxyResult {
  version: string;
  /** Set when capsule-proxy did not run: why, in one line. */
  skipped?: string;
  /** Tenant namespaces in the cluster when measured. */
  size?: number;
  /** The Capsule Tenants written (one per bench Tenant) and how long that took. */
  build?: { tenants: number; seconds: number; requestsPerSecond: number };
  /** alice's list: capsule-proxy's namespaces ÷ Paddock's tenantnamespaces through kube-apiserver, as Tables. */
  ownerList?: Ratios & OwnerListRatios & { result: ListResult };
  /** The admin's list of everything: capsule-proxy ÷ Paddock through kube-apiserver, as Tables. */
  adminList?: Ratios & { result: ListResult };
  /** The watch fan-out: capsule-proxy's delivery latency ÷ Paddock's. */
  watch?: Ratios & { result: WatchResult };
  /** The parts that failed (`ownerList`, `adminList`, `watch`), each with why in one line; the others were still measured. */
  failed?: Record<string, string>;
  /**
   * Memory over capsule-proxy's part (MiB): the machine's least available, and the peak RSS of
   * kube-apiserver, etcd and capsule-proxy — the machine is shared, and a server short of it is slow.
   */
  memory?: { leastAvailableMiB: number; kubeApiserverPeakMiB: number; etcdPeakMiB: number; capsuleProxyPeakMiB: number };
}

/** Capsule-proxy ÷ Paddock through kube-apiserver as Tables, from a list scenario's targets. */
function tableRatios(r: ListResult): Ratios {
  const t = (name: string) => r.targets.find((x) => x.target === name)!.latency;
  const [cp, p] = [t('capsule-proxy namespaces, Table'), t('Paddock via kube-apiserver, Table')];
  return { ratioP50: ratio(cp.p50, p.p50), ratioP99: ratio(cp.p99, p.p99) };
}

function watchRatios(w: WatchResult): Ratios {
  const p = w.phases.find((x) => x.role === 'paddock')!.delivery;
  const cp = w.phases.find((x) => x.target === CAPSULE_WATCH_TARGET)!.delivery;
  return { ratioP50: ratio(cp.p50, p.p50), ratioP99: ratio(cp.p99, p.p99) };
}

/**
 * Starts capsule-proxy on the scale cluster (Paddock running), writes a Capsule Tenant for each of the
 * bench Tenants `built`, and measures; stops capsule-proxy before returning (or failing).
 */
export async function scaleCapsuleProxy(
  c: BenchCluster, build: CapsuleProxyBuild, config: BenchConfig, built: readonly number[], namespaces: number, world: WatchWorld,
  adminList: BenchConfig['adminList'], concurrency: number, log: Log,
): Promise<ScaleCapsuleProxyResult> {
  if ('skipped' in build) return { version: 'none', skipped: build.skipped };
  log('starting capsule-proxy (Capsule CRDs, CapsuleConfiguration users, ServiceAccount)');
  const cp = await CapsuleProxy.start(c, build, config);
  // From capsule-proxy's start, its Tenants' writes included, to its last measurement.
  const memory = new RssSampler({ kubeApiserver: c.state.pids.apiserver, etcd: c.state.pids.etcd, capsuleProxy: cp.pid }, 1000, true);
  try {
    log(`writing ${built.length} Capsule Tenants (spec and status) in bulk, ${concurrency} at once`);
    const started = performance.now();
    await pool(built, concurrency, async (i) => {
      const name = tenantName(i);
      await cp.setTenant(name, ownerOfTenant(config, i), Array.from({ length: config.namespacesPerTenant }, (_, n) => `${name}-n${n}`));
    });
    const seconds = (performance.now() - started) / 1000;
    // capsule-proxy's cache of Tenants has caught up when the last Tenant's owner lists all of theirs.
    const last = ownerOfTenant(config, built[built.length - 1]);
    await cp.waitRows(last, built.filter((i) => ownerOfTenant(config, i) === last).length * config.namespacesPerTenant, 10 * 60_000);
    log(`  ${built.length} Capsule Tenants in ${round(seconds)} s; capsule-proxy ${cp.version} serving on :${cp.port}`);

    const failed: Record<string, string> = {};
    /** One part: its result, or undefined with why it failed in `failed` (a part that fails leaves the others' results). */
    const part = async <R>(name: string, measure: () => Promise<R>): Promise<R | undefined> => {
      try {
        return await measure();
      } catch (err) {
        failed[name] = (err as Error).message.slice(0, 300);
        log(`  capsule-proxy's ${name} failed: ${failed[name]} (machine memory available now ${round(memAvailableMiB())} MiB)`);
        return undefined;
      }
    };
    log(`capsule-proxy owner list at ${namespaces}`);
    const owner = await part('ownerList', () => capsuleOwnerList(c, cp, config, namespaces));
    const ownerRatios = owner && withTimeouts(ownerListRatios(owner), owner);
    if (ownerRatios) log(`  capsule-proxy ÷ Paddock through kube-apiserver: p50 ${ownerRatios.ratioP50}×, p99 ${ownerRatios.ratioP99}× (${ceilingsText(ownerRatios)})`);
    log(`capsule-proxy admin list at ${namespaces}`);
    const admin = await part('adminList', () => capsuleAdminList(c, cp, { ...config, adminList }, namespaces));
    log(`capsule-proxy watch fan-out at ${namespaces}: ${config.owners * config.watch.watchersPerOwner} watchers`);
    const watch = await part('watch', () => capsuleWatch(c, cp, config, namespaces, world, [config.watch.watchersPerOwner]));
    const m = memory.stop();
    return {
      version: cp.version,
      size: namespaces,
      build: { tenants: built.length, seconds: round(seconds), requestsPerSecond: round((2 * built.length) / seconds) },
      ...(owner && ownerRatios ? { ownerList: { ...ownerRatios, result: owner } } : {}),
      ...(admin ? { adminList: { ...withTimeouts(tableRatios(admin), admin), result: admin } } : {}),
      ...(watch ? { watch: { ...watchRatios(watch), result: watch } } : {}),
      ...(Object.keys(failed).length > 0 ? { failed } : {}),
      memory: {
        leastAvailableMiB: round(m[MACHINE_AVAILABLE].leastMiB), kubeApiserverPeakMiB: round(m.kubeApiserver.peakMiB),
        etcdPeakMiB: round(m.etcd.peakMiB), capsuleProxyPeakMiB: round(m.capsuleProxy.peakMiB),
      },
    };
  } finally {
    memory.stop();
    await cp.stop();
  }
}

/** The scale report's capsule-proxy section. */
export function scaleCapsuleProxyMarkdown(r: ScaleCapsuleProxyResult, listTable: (results: ListResult[]) => string, watchTable: (w: WatchResult) => string): string {
  if (r.skipped) return `### capsule-proxy at scale\n\nSkipped: ${r.skipped}\n`;
  const x = (q?: Ratios) => {
    if (!q) return '–';
    const atLeast = q.baselineTimedOut ? '≥ ' : '';
    return `p50 **${atLeast}${q.ratioP50}×**, p99 ${atLeast}${q.ratioP99}×${q.baselineTimedOut ? ` (${q.baselineTimedOut} of capsule-proxy's requests got no answer in 60 s)` : ''}`;
  };
  const out = ['### capsule-proxy at scale', '',
    `capsule-proxy ${r.version} on the same cluster, a Capsule Tenant written for each of the ${r.build?.tenants} bench Tenants (spec and the status the Capsule controller would write; ` +
    `${r.build?.seconds} s, ${r.build?.requestsPerSecond} requests/s). capsule-proxy ÷ Paddock through kube-apiserver (higher is better for Paddock) at ${r.size} namespaces: ` +
    `owner list (Table) ${x(r.ownerList)}${r.ownerList ? ` (in the same rounds, ${ceilingsText(r.ownerList)})` : ''}; admin list (Table) ${x(r.adminList)}; watch delivery at ${r.watch ? r.watch.result.owners * r.watch.result.watchersPerOwner : 0} watchers ${x(r.watch)}.`, ''];
  for (const [part, why] of Object.entries(r.failed ?? {})) out.push(`- ${part} failed: ${why}`);
  if (r.memory) {
    out.push(`- Memory over capsule-proxy's part: the machine's least available ${r.memory.leastAvailableMiB} MiB; peak RSS kube-apiserver ${r.memory.kubeApiserverPeakMiB}, ` +
      `etcd ${r.memory.etcdPeakMiB}, capsule-proxy ${r.memory.capsuleProxyPeakMiB} MiB.`);
  }
  if (r.failed || r.memory) out.push('');
  const lists = [r.ownerList?.result, r.adminList?.result].filter((l): l is ListResult => !!l);
  if (lists.length) out.push(listTable(lists), '');
  if (r.watch) out.push(watchTable(r.watch.result), '');
  return out.join('\n');
}
