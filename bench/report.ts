import { admissionMarkdown, admissionOverheads, type AdmissionResult } from './admission';
import { type CapsuleProxyResult } from './capsule-proxy';
import { CAPSULE_WATCH_TARGET, capsuleProxyMarkdown } from './capsule-proxy-scenarios';
import type { ListResult, TargetResult } from './list';
import type { ChunkReuse } from './chunk-reuse';
import type { TableAssembly } from './table-assembly';
import type { EncodingMemory } from './encodings';
import { floorsOf, type Floors } from './floors';
import type { MemoryPoint, MemoryResult } from './memory';
import type { ReconcileResult } from './reconcile';
import { scaleMarkdown, type ScaleResult } from './scale';
import { tenantQuotaGoal, tenantQuotaMarkdown, type TenantQuotaResult } from './tenant-quota';
import { GOALS, type BenchConfig } from './scenarios';
import { ratio, round } from './stats';
import { LABEL_SELECTED_TARGET, watchRatios, type WatchResult } from './watch';
import { WATCH_RELAY_FLOOR_TARGET } from './watch-relay-floor';
import { describeCause, TAIL_FACTOR, type TailsResult } from './tails';
import type { HaResult } from './ha';
import type { ViewResult, ViewWatchResult } from './views';

/** One size step of data setup: Tenants created while Paddock runs, until all Ready and settled. */
export interface SetupStep {
  namespaces: number;
  tenantsCreated: number;
  allReadyMs: number;
  settledMs: number;
  paddockWrites: number;
  writesPerSecond: number;
}

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  config: BenchConfig;
  /** schedAutogroup: whether each process (a session of its own) was a CPU scheduling group of its own; absent in older runs. */
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string; kubernetes: string; schedAutogroup?: boolean };
  setup: SetupStep[];
  ownerList: ListResult[];
  adminList: ListResult[];
  /** What the row encodings cache takes per row, at the largest size. */
  encodings?: EncodingMemory;
  /** The admin Table's chunks borrowed, fresh and from memory, in one process with Paddock's heap, at the largest size. */
  chunkReuse?: ChunkReuse;
  /** How long the admin Table's bytes take to make, by the age of its rows, at the largest size. */
  tableAssembly?: TableAssembly;
  /** An owner's `kubectl get tsc` beside kube-apiserver's label-selected StorageClass list. */
  allowedClasses?: ListResult;
  /** The other views (`tdc`, `otn`) beside kube-apiserver's list of their source kind. */
  views?: ViewResult[];
  /** alice's `tdc` watch beside kube-apiserver's label-selected DeviceClass watch: delivery of the same changes. */
  viewWatch?: ViewWatchResult;
  watch?: WatchResult;
  reconcile?: ReconcileResult;
  /** Scenario 8: informers through two replicas. */
  ha?: HaResult;
  memory?: MemoryResult;
  /** The scale scenario, on a control plane of its own (`--only=scale`, `--scale=N`). */
  scale?: ScaleResult;
  /** Pod-create admission cost by number of restricted Tenants, on a control plane of its own (`--only=admission`). */
  admission?: AdmissionResult;
  /** Rebalance latency and writes of the tenant-wide quota, on a control plane of its own (`--only=tenant-quota`). */
  tenantQuota?: TenantQuotaResult;
  /** Scenario 7: capsule-proxy beside Paddock (or why it was skipped). */
  capsuleProxy?: CapsuleProxyResult;
  /** The run's list requests and watch deliveries slower than 10× their target's median, and their causes. */
  tails?: TailsResult;
  /** Paddock against its floors at the largest size (derived from `ownerList` and `adminList`). */
  floors?: Floors;
  goals: Goal[];
}

/** The fields derived from the others (floors, goals), computed afresh whenever results are put together. */
export function withDerived(r: Omit<BenchResults, 'goals' | 'floors'> & { goals?: Goal[]; floors?: Floors }): BenchResults {
  const { goals: _goals, floors: _floors, ...rest } = r;
  const withFloors = { ...rest, floors: floorsOf(rest.ownerList, rest.adminList) };
  return { ...withFloors, goals: evaluateGoals(withFloors) };
}

export interface Goal {
  goal: string;
  measured: string;
  met: boolean;
}

const f = (x: number) => (Number.isFinite(x) ? String(round(x)) : '–');
const k = (n: number) => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));
const bytes = (n: number) => (n >= 2 ** 20 ? `${round(n / 2 ** 20)} MiB` : n >= 1024 ? `${round(n / 1024)} KiB` : `${n} B`);

function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The baseline a target is compared with: same encoding (Table/JSON) when there is a choice. */
function baselineFor(t: TargetResult, all: TargetResult[]): TargetResult | undefined {
  const baselines = all.filter((b) => b.role === 'baseline');
  const enc = t.target.includes('JSON') ? 'JSON' : 'Table';
  return baselines.find((b) => b.target.includes(enc)) ?? baselines[0];
}

function listTable(results: ListResult[]): string {
  const rows: (string | number)[][] = [];
  for (const r of results) {
    for (const t of r.targets) {
      const b = baselineFor(t, r.targets);
      const vs = t.role === 'baseline' || !b ? 'baseline' : `${f(ratio(b.latency.p50, t.latency.p50))}× / ${f(ratio(b.latency.p99, t.latency.p99))}× / ${f(ratio(t.rps, b.rps))}×`;
      // Requests that timed out are the slowest samples, each a lower bound: a quantile whose rank falls among them is one (≥).
      const q = (at: number, ms: number) => `${t.timedOut && Math.ceil(at * t.latency.n) > t.latency.n - t.timedOut ? '≥ ' : ''}${f(ms)}`;
      const name = t.timedOut ? `${t.target} (${t.timedOut} with no answer in 60 s${t.gaveUp ? ', then given up' : ''})` : t.target;
      rows.push([k(r.size), name, t.rows, bytes(t.bytes), q(0.5, t.latency.p50), q(0.99, t.latency.p99), f(t.rps), vs]);
    }
  }
  return table(['namespaces', 'target', 'rows', 'response', 'p50 ms', 'p99 ms', 'req/s (8 in flight)', 'vs baseline: p50 / p99 / req/s'], rows);
}

/** Each list's tails (its `stalls`): requests slower than 10× their target's median, with their causes, and Paddock's window. */
function stallsLine(results: ListResult[]): string {
  const parts = results.map((r) => {
    const w = r.paddockWindow;
    const paddock = w ? `; Paddock in that window: event-loop delay p99 ${f(w.eventLoopDelayMs.p99)}, max ${f(w.eventLoopDelayMs.max)} ms, GC pauses over 20 ms: ${w.gcPausesOver20ms.join(', ') || 'none'}` : '';
    const t = r.stalls;
    const listed = (t?.tails ?? []).map((x) => `${x.target} ${f(x.ms)} ms (median ${f(x.median)}): ${describeCause(x)}`);
    const more = t && t.count > listed.length ? `; ${t.count - listed.length} more` : '';
    return `${k(r.size)}: ${t?.count ? `${t.count} of ${t.samples}, ${t.explained} explained — ${listed.join('; ')}${more}` : 'none'}${paddock}`;
  });
  return `Sequential requests slower than ${TAIL_FACTOR}× their target's median, and what overlapped them — ${parts.join('. ')}.`;
}

function watchTable(w: WatchResult): string {
  return table(
    ['target', 'watchers', 'changes', 'delivered / expected', 'wrong owner', 'p50 ms', 'p99 ms', 'max ms', 'hop beyond kube-apiserver\'s watch p50 / p99 ms', 'Paddock per change: on a CPU / waiting for one ms / wake-ups', 'Paddock idle per second: on a CPU ms / wake-ups', 'PATCH p50 ms', 'Paddock RSS peak MiB', 'kube-apiserver RSS peak MiB', 'Paddock writes', 'vs baseline: p50 / p99'],
    w.phases.map((p) => {
      // Each Paddock phase beside the baseline phase with as many watchers.
      const base = w.phases.find((b) => b.role === 'baseline' && b.watchers === p.watchers);
      return [
        p.target, p.watchers, p.changes, `${p.delivered} / ${p.expected}${p.endedEarly ? ` (${p.endedEarly} watches ended early)` : ''}`, p.unexpected, f(p.delivery.p50), f(p.delivery.p99), f(p.delivery.max),
        p.hop ? `${f(p.hop.p50)} / ${f(p.hop.p99)}` : '–', p.paddockPerChange ? `${f(p.paddockPerChange.cpuMs)} / ${f(p.paddockPerChange.waitMs)} / ${f(p.paddockPerChange.runs ?? NaN)}` : '–',
        p.paddockIdlePerSecond ? `${f(p.paddockIdlePerSecond.cpuMs)} / ${f(p.paddockIdlePerSecond.runs ?? NaN)}` : '–', f(p.write.p50), f(p.rssPeakMiB.paddock), f(p.rssPeakMiB.kubeApiserver), p.paddockWrites,
        p.role === 'baseline' || !base ? 'baseline' : `${f(ratio(base.delivery.p50, p.delivery.p50))}× / ${f(ratio(base.delivery.p99, p.delivery.p99))}×`,
      ];
    }),
  );
}

/**
 * The goal that Paddock delivers no slower than `baseline` (the phases of `target`) at each fan-out,
 * every event delivered. Where the relay floor (a Node.js process that only passes kube-apiserver's bytes
 * on) ran in the same scenario, the cell says how it fared against the same baseline: a Node.js hop that
 * does no work at all.
 */
function watchRatioGoals(w: WatchResult, target: string, baseline: string): Goal[] {
  const phase = (t: string, watchers: number) => w.phases.find((x) => x.target === t && x.watchers === watchers);
  return watchRatios(w, target).map((r) => {
    const p = w.phases.find((x) => x.role === 'paddock' && x.watchers === r.watchers);
    const all = !!p && p.delivered === p.expected && p.unexpected === 0 && !p.endedEarly;
    const [base, relay] = [phase(target, r.watchers), phase(WATCH_RELAY_FLOOR_TARGET, r.watchers)];
    const floor = relay && base
      ? `; the Node.js relay floor in the same run: p50 ${f(ratio(base.delivery.p50, relay.delivery.p50))}×, p99 ${f(ratio(base.delivery.p99, relay.delivery.p99))}× (${baseline} ÷ relay)`
      : '';
    return {
      goal: `watch delivery no slower than ${baseline} at ${r.watchers} watchers (${baseline} ÷ Paddock ≥ ${GOALS.watchVsBaseline}, p50 and p99), every event delivered`,
      measured: `p50 ${f(r.ratioP50)}×, p99 ${f(r.ratioP99)}× (Paddock p50 ${f(p?.delivery.p50 ?? NaN)} / p99 ${f(p?.delivery.p99 ?? NaN)} ms; ${p?.delivered}/${p?.expected} delivered)${floor}`,
      met: all && r.ratioP50 >= GOALS.watchVsBaseline && r.ratioP99 >= GOALS.watchVsBaseline,
    };
  });
}

function writesCell(w: { total: number; byResource: Record<string, number> }): string {
  const parts = Object.entries(w.byResource).sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`);
  return parts.length ? `${w.total} (${parts.join(', ')})` : '0';
}

function reconcileTable(r: ReconcileResult): string {
  return table(['measure', 'value'], [
    ['how', r.how],
    ['new Tenants × namespaces', `${r.tenants} × ${r.namespacesPerTenant} (+ ${r.inSyncTenants} Tenants already in sync)`],
    ['flags', `--qps=${r.flags.qps} --burst=${r.flags.burst} --workers=${r.flags.workers}`],
    ['start → /readyz (caches synced)', `${f(r.readyzMs / 1000)} s`],
    ['start → all new Tenants Ready', `${f(r.allReadyMs / 1000)} s`],
    ['writes issued (audit log)', writesCell(r.writes)],
    ['writes/s (first → last write)', `${f(r.writes.perSecond)} (limit ${r.flags.qps})`],
    ['least time the rate limit allows ((writes − burst) / qps)', `${f(r.rateLimitFloorMs / 1000)} s`],
    ['time to Ready / rate-limit floor', `${f(r.paceVsLimit)}`],
    ['peak RSS (VmHWM)', `${f(r.peakRssMiB)} MiB`],
    ['full resync by restart: reconciles / writes', `${r.resync.restart.reconciles} / ${writesCell(r.resync.restart.writes)} (${f(r.resync.restart.ms / 1000)} s to drain)`],
    [`periodic resync (--resync-period=${r.resync.periodic.periodSeconds}s): reconciles / writes`, `${r.resync.periodic.reconciles} / ${writesCell(r.resync.periodic.writes)}`],
  ]);
}

function memoryTable(m: MemoryResult): string {
  const zero = m.points[0];
  const perNamespace = (heap: number | undefined, p: MemoryPoint) => (p.namespaces && heap !== undefined ? bytes(Math.round((heap - zero.heapUsedBytes) / p.namespaces)) : '–');
  return table(['namespaces', 'cached objects', 'heap used MiB (after GC)', 'of it compiled code MiB', 'RSS MiB', 'heap per namespace since 0', 'while serving: heap MiB', 'per namespace', 'just settled: per namespace (changes in the watch window)'],
    m.points.map((p) => [k(p.namespaces), p.cachedObjects, f(p.heapUsedMiB), p.codeHeapBytes === undefined ? '–' : f(p.codeHeapBytes / 2 ** 20), f(p.rssMiB), perNamespace(p.heapUsedBytes, p),
      p.servingHeapUsedBytes === undefined ? '–' : f(p.servingHeapUsedBytes / 2 ** 20), perNamespace(p.servingHeapUsedBytes, p),
      p.settledHeapUsedBytes === undefined ? '–' : `${perNamespace(p.settledHeapUsedBytes, p)} (${p.settledHistoryChanges ?? '?'})`]));
}

/** The row encodings cache: bytes per row, and against the heap budget per namespace. */
function encodingsLine(e: EncodingMemory): string {
  return `Row encodings cache (each row's JSON and Table encodings, made once per row state and shared by every list and watch; ` +
    `measured in the benchmark process with Paddock's encoding code on the ${k(e.rows)} rows Paddock serves, heap after a full GC): ` +
    `${bytes(e.tableBytesPerRow)} per row for the Table encodings, ${bytes(e.jsonBytesPerRow)} more with the object JSON, ${bytes(e.totalBytesPerRow)} in all ` +
    `(${bytes(Math.round(e.totalBytesPerRow * e.rows))} at ${k(e.rows)} rows; the heap budget is ${bytes(GOALS.heapBytesPerNamespace)} per namespace). ` +
    'Encodings unused for 1–2 minutes are dropped, so an idle server holds none.';
}

/** The admin Table's chunks: borrowed from the pool, each a fresh allocation, and the same bytes from memory. */
function chunkReuseSection(c: ChunkReuse): string[] {
  return [
    `The admin Table's chunks, in one process holding a heap of ${c.heapMiB} MiB (Paddock's), serving the ${k(c.rows)} rows Paddock serves (${bytes(c.bytes)}) with Paddock's encoding and streaming code: ` +
      `its 64 KiB chunks borrowed from a pool and given back once written (as Paddock serves it), each a fresh allocation (as before the pool), and the same bytes sent from memory. ` +
      `${c.rounds} requests of each, one at a time, in a new random order each round; a full GC is counted against the request it started in.`,
    '',
    table(['chunks', 'p50 ms', 'p99 ms', 'full GCs'], (['borrowed', 'fresh', 'static'] as const).map((form) => [
      { borrowed: 'borrowed (Paddock)', fresh: 'fresh', static: 'the same bytes from memory' }[form], f(c.forms[form].p50), f(c.forms[form].p99), String(c.forms[form].fullGcs)])),
  ];
}

/** The admin Table's bytes, made by Paddock's encoding code, by the age of the rows. */
function tableAssemblySection(a: TableAssembly): string[] {
  return [
    `Making the admin Table's bytes (kubectl's form, not sending them), in the benchmark process with Paddock's encoding code on the ${k(a.rows)} rows Paddock serves, their creation times set to each range of ages; ` +
      `${a.lists} lists 2 s apart on the clock the encoding reads, after one that makes the encodings.`,
    '',
    table(['rows', 'AGE', 'p50 ms', 'p99 ms'], [
      ['days old', 'reads the same for hours: blocks copied whole', f(a.ranges.days.p50), f(a.ranges.days.p99)],
      ['under 10 minutes', 'moves on every second: spliced into the blocks', f(a.ranges.underTenMinutes.p50), f(a.ranges.underTenMinutes.p99)],
      ['10 minutes to 8 hours', 'moves on every minute, each row at a second of its own: spliced in', f(a.ranges.tenMinutesToEightHours.p50), f(a.ranges.tenMinutesToEightHours.p99)],
    ]),
  ];
}

function setupTable(steps: SetupStep[]): string {
  return table(['namespaces', 'Tenants created', 'create → all Ready s', '→ settled s', 'Paddock writes', 'writes/s'],
    steps.map((s) => [k(s.namespaces), s.tenantsCreated, f(s.allReadyMs / 1000), f(s.settledMs / 1000), s.paddockWrites, f(s.writesPerSecond)]));
}

/** Checks the results against the goals (reported, never asserted). */
export function evaluateGoals(r: Omit<BenchResults, 'goals'>): Goal[] {
  const goals: Goal[] = [];
  const largest = r.ownerList[r.ownerList.length - 1];
  if (largest) {
    const direct = largest.targets.find((t) => t.target === 'Paddock direct')!;
    const base = largest.targets.find((t) => t.role === 'baseline')!;
    goals.push({ goal: `owner list p99 ≤ ${GOALS.ownerListP99Ms} ms direct at ${k(largest.size)}`, measured: `${f(direct.latency.p99)} ms`, met: direct.latency.p99 <= GOALS.ownerListP99Ms });
    const speedup = base.latency.p50 / direct.latency.p50;
    goals.push({ goal: `owner list ≥ ${GOALS.ownerListSpeedup}× faster than baseline (p50)`, measured: `${f(speedup)}× (p99 ${f(base.latency.p99 / direct.latency.p99)}×)`, met: speedup >= GOALS.ownerListSpeedup });
  }
  const fl = r.floors;
  const vsFloor = (ratio: { p50: number; p99: number }, floor: { p50: number; p99: number }) =>
    `p50 ${f(ratio.p50)}×, p99 ${f(ratio.p99)}× (floor p50 ${f(floor.p50)}, p99 ${f(floor.p99)} ms)`;
  if (fl?.ownerListRatio && fl.aggregated) {
    const { ownerListRatio: q, aggregated: a } = fl;
    goals.push({
      goal: `owner list through kube-apiserver within ${GOALS.ownerListFloorRatio}× of the aggregated floor (the same bytes from memory through the APIService), p50 and p99, at ${k(a.size)}`,
      measured: vsFloor(q, a), met: q.p50 <= GOALS.ownerListFloorRatio && q.p99 <= GOALS.ownerListFloorRatio,
    });
  }
  if (fl?.adminTableRatio && fl.transfer) {
    const { adminTableRatio: q, transfer: t } = fl;
    goals.push({
      goal: `admin ${k(t.size)}-row Table within ${GOALS.adminTableFloorRatio}× of the transfer floor (the same bytes streamed alone), p50 and p99`,
      measured: vsFloor(q, t), met: q.p50 <= GOALS.adminTableFloorRatio && q.p99 <= GOALS.adminTableFloorRatio,
    });
  }
  const paddockWatch = r.watch?.phases.filter((p) => p.role === 'paddock').sort((a, b) => b.watchers - a.watchers)[0];
  if (r.watch) goals.push(...watchRatioGoals(r.watch, LABEL_SELECTED_TARGET, 'kube-apiserver\'s label-selected watch'));
  // Beside the Paddock phases of the same fan-out as capsule-proxy's (scenario 7; `watch.vsCapsuleProxy` holds the same ratios).
  const cpWatch = r.capsuleProxy?.watch;
  if (cpWatch) goals.push(...watchRatioGoals(cpWatch, CAPSULE_WATCH_TARGET, 'capsule-proxy'));
  if (r.tails) {
    const t = r.tails;
    goals.push({ goal: `every request and watch event slower than ${t.factor}× its target's median explained`, measured: `${t.explained} of ${t.count} (of ${t.samples} samples)`, met: t.explained === t.count });
  }
  if (paddockWatch) {
    goals.push({ goal: `watch delivery p99 ≤ ${GOALS.watchP99Ms} ms at ${paddockWatch.watchers} watchers`, measured: `${f(paddockWatch.delivery.p99)} ms (${paddockWatch.delivered}/${paddockWatch.expected} delivered)`, met: paddockWatch.delivery.p99 <= GOALS.watchP99Ms && paddockWatch.delivered === paddockWatch.expected });
  }
  if (r.memory) {
    const m = r.memory;
    const code = m.dataHeapBytesPerNamespace !== undefined ? `; without the ${bytes(m.codeHeapBytesAdded!)} of code compiled since 0, ${bytes(m.dataHeapBytesPerNamespace)}` : '';
    goals.push({ goal: `≤ ${GOALS.heapBytesPerNamespace / 1024} KiB heap per cached namespace`, measured: `${bytes(m.heapBytesPerNamespace)} (marginal ${bytes(m.marginalBytesPerNamespace)}${code})`, met: m.heapBytesPerNamespace <= GOALS.heapBytesPerNamespace });
  }
  if (r.reconcile) {
    const rc = r.reconcile;
    goals.push({ goal: 'cold reconcile limited by the rate limit alone', measured: `${f(rc.writes.perSecond)} writes/s at --qps=${rc.flags.qps}; time to Ready ${f(rc.paceVsLimit)}× the rate-limit floor`, met: rc.writes.perSecond >= 0.9 * rc.flags.qps });
    const resyncWrites = rc.resync.restart.writes.total + rc.resync.periodic.writes.total;
    goals.push({ goal: 'zero writes on a full resync', measured: `${resyncWrites}`, met: resyncWrites === 0 });
  }
  if (r.ha) {
    const h = r.ha;
    goals.push({
      goal: 'two replicas: no relist caused by a replica switch, no lost or duplicated event',
      measured: `${h.replicaSwitchRelists} relists, ${h.lostEvents} lost, ${h.duplicateEvents} duplicated; ${h.informers} informers, ${h.reconnects} reconnects over ${h.restarts} restarts`,
      met: h.replicaSwitchRelists === 0 && h.lostEvents === 0 && h.duplicateEvents === 0,
    });
  }
  if (r.scale) {
    const sc = r.scale;
    const direct = sc.ownerList.targets.find((t) => t.target === 'Paddock direct')!;
    goals.push({ goal: `owner list p99 ≤ ${GOALS.ownerListP99Ms} ms direct at ${k(sc.namespaces)}`, measured: `${f(direct.latency.p99)} ms`, met: direct.latency.p99 <= GOALS.ownerListP99Ms });
    goals.push({ goal: `≤ ${GOALS.heapBytesPerNamespace / 1024} KiB heap per cached namespace at ${k(sc.namespaces)}`, measured: bytes(sc.heapBytesPerNamespace), met: sc.heapBytesPerNamespace <= GOALS.heapBytesPerNamespace });
    goals.push({ goal: `zero writes starting on a converged ${k(sc.namespaces)}-namespace cluster`, measured: `${sc.startWrites.total}`, met: sc.startWrites.total === 0 });
    const cp = sc.capsuleProxy;
    const both = (q: { ratioP50: number; ratioP99: number; baselineTimedOut?: number }) => {
      const atLeast = q.baselineTimedOut ? '≥ ' : '';
      return `p50 ${atLeast}${f(q.ratioP50)}×, p99 ${atLeast}${f(q.ratioP99)}×${q.baselineTimedOut ? ` (${q.baselineTimedOut} capsule-proxy requests with no answer in 60 s)` : ''}`;
    };
    if (cp?.ownerList) {
      goals.push({
        goal: `owner list through kube-apiserver ≥ ${GOALS.capsuleProxyScaleSpeedup}× faster than capsule-proxy at ${k(cp.size ?? sc.namespaces)} (p50 and p99)`,
        measured: both(cp.ownerList), met: cp.ownerList.ratioP50 >= GOALS.capsuleProxyScaleSpeedup && cp.ownerList.ratioP99 >= GOALS.capsuleProxyScaleSpeedup,
      });
    }
    if (cp?.adminList) goals.push({ goal: `admin list (Table) through kube-apiserver no slower than capsule-proxy at ${k(cp.size ?? sc.namespaces)} (p50 and p99)`, measured: both(cp.adminList), met: cp.adminList.ratioP50 >= 1 && cp.adminList.ratioP99 >= 1 });
    if (cp?.watch) {
      const p = cp.watch.result.phases.find((x) => x.role === 'paddock')!;
      goals.push({
        goal: `watch delivery at ${p.watchers} watchers no slower than capsule-proxy at ${k(cp.size ?? sc.namespaces)} (p50 and p99), every event delivered`,
        measured: `${both(cp.watch)} (${p.delivered}/${p.expected} delivered)`, met: cp.watch.ratioP50 >= 1 && cp.watch.ratioP99 >= 1 && p.delivered === p.expected,
      });
    }
  }
  const overheads = r.admission ? admissionOverheads(r.admission) : undefined;
  if (r.admission && overheads) {
    const largest = r.admission.byTenants.find((s) => s.tenants === overheads.tenants)!;
    const cell = (c: { withPolicies: { p50: number }; withoutPolicies: { p50: number } }) => `${f(c.withPolicies.p50)} ms with Paddock's policies, ${f(c.withoutPolicies.p50)} without`;
    goals.push({
      goal: `pod create in a plain namespace within ${GOALS.admissionPlainOverheadMs} ms (p50) of no policies at ${k(overheads.tenants)} restricted Tenants`,
      measured: `+${f(overheads.plain)} ms (${cell(largest.plain)}; ${largest.bindings} bindings)`, met: overheads.plain <= GOALS.admissionPlainOverheadMs,
    });
    if (overheads.restricted !== undefined && largest.restricted) {
      goals.push({
        goal: `pod create in a restricted namespace within ${GOALS.admissionRestrictedOverheadMs} ms (p50) of no policies at ${k(overheads.tenants)} restricted Tenants`,
        measured: `+${f(overheads.restricted)} ms (${cell(largest.restricted)})`, met: overheads.restricted <= GOALS.admissionRestrictedOverheadMs,
      });
    }
  }
  if (r.tenantQuota) goals.push(tenantQuotaGoal(r.tenantQuota));
  return goals;
}

/** `1 and 10`: the fan-outs of a watch result, watchers per owner. */
function fanoutsOf(w: WatchResult): string {
  const perOwner = [...new Set(w.phases.map((p) => p.watchers / w.owners))];
  return perOwner.length > 1 ? `${perOwner.slice(0, -1).join(', ')} and ${perOwner[perOwner.length - 1]}` : String(perOwner[0] ?? w.watchersPerOwner);
}

function tailsMarkdown(t: TailsResult): string {
  const out = ['## Tails', '',
    `Every sequential list request and every watch delivery of the run is a sample; one slower than ${t.factor}× the median of its target is a tail. ` +
    'Its cause is the first of these to take at least half of the time the sample took beyond the median while it was under way: ' +
    'Paddock\'s main thread (for a sample it served), then the benchmark client\'s, then kube-apiserver\'s threads summed (for a request through it), then capsule-proxy\'s (for a request to it), waiting for a CPU (the run-queue wait of `/proc/<pid>/schedstat`, for list requests), then Paddock\'s and the client\'s main threads\' waits together, when neither is enough alone; ' +
    'for a list through kube-apiserver, a wait of its watch cache to catch up with etcd before a consistent read, read from kube-apiserver\'s `apiserver_watch_cache_read_wait_seconds` after each slow request (`cache-wait.ts`); ' +
    'for a sample Paddock served, a review it waited for: a SubjectAccessReview or TokenReview of Paddock\'s that kube-apiserver received and answered within the sample (its audit log; not a renewal of an answer in use, which carries a User-Agent of its own); ' +
    'for a watch delivery, kube-apiserver\'s own watch (a direct watch open in every phase) delivering the same change late by at least as much; ' +
    'a GC pause or the event loop blocked in Paddock (for a sample it served), then in the benchmark client, as each process records it (`probe/stall-probe.cjs`); ' +
    'last, kube-apiserver, then capsule-proxy, then the benchmark client\'s main thread, busy with other work: it ran longer over the sample than over its target\'s median sample (for a watch delivery, each process\'s CPU time read every 20 ms from `/proc/<pid>/stat` during the phase, `cpu-timeline.ts`, beside its target\'s median rate over as long). ' +
    'An unexplained tail shows what those threads did over it and, for a list request, how long some task of the machine waited for I/O or for memory (the kernel\'s pressure stall information, `/proc/pressure`: the whole machine\'s, so never a cause). ' +
    `${t.count} tails of ${t.samples} samples, ${t.explained} explained.`, ''];
  if (t.count) out.push(tailsTables(t));
  return out.join('\n');
}

/** A run's tails by cause, by target, and the slowest ten with every unexplained one. */
function tailsTables(t: TailsResult): string {
  return [
    table(['cause', 'tails'], Object.entries(t.byCause).sort((a, b) => b[1] - a[1]).map(([c, n]) => [c, n])), '',
    table(['scenario', 'target', 'median ms', 'samples', 'tails', 'explained'], (t.byTarget ?? []).map((x) => [x.scenario, x.target, f(x.median), x.samples, x.count, x.explained])), '',
    // The slowest ten, and every unexplained one.
    table(['scenario', 'target', 'ms', 'median ms', 'cause'], t.tails.filter((x, i) => i < 10 || !x.cause).map((x) => [x.scenario, x.target, f(x.ms), f(x.median), describeCause(x)])),
  ].join('\n');
}

/** The results as Markdown: one table per scenario, the goals first. */
export function toMarkdown(r: BenchResults): string {
  const m = r.machine;
  const out: string[] = [];
  out.push(`# Paddock benchmark (${r.config.name})`, '');
  out.push(`Run ${r.startedAt}, ${f(r.durationSeconds / 60)} min. Machine: ${m.cpus} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB; Node ${m.node}; Kubernetes ${m.kubernetes}. ` +
    'Everything (etcd, kube-apiserver, kube-controller-manager, Paddock and the benchmark client) shares the machine' +
    (m.schedAutogroup === undefined ? '. ' : m.schedAutogroup ? ', each process a CPU scheduling group of its own (the kernel\'s autogroup; bench/README.md). ' : ', the kernel\'s autogroup off: every thread of every process is scheduled alike. ') +
    'Latencies are client-side, from sending the request to the last byte; p50 is the median. Each Paddock number is compared with a baseline measured in the same run.', '');
  out.push('## Goals', '', table(['goal', 'measured', 'met'], r.goals.map((g) => [g.goal, g.measured, g.met ? 'yes' : '**no**'])), '');
  if (r.ownerList.length) out.push('## 1. Owner list', '',
    `\`kubectl get tns\` by alice, owner of one tenant (${r.config.namespacesPerTenant} namespaces), as a Table. Baseline: kube-apiserver's namespace list with ` +
    `\`labelSelector=paddock.dev/tenant=<tenant>\` as a Table (what a label-injecting proxy sends). ${r.ownerList[0]?.sequential ?? 0} sequential requests per target, interleaved in a random order each round, ` +
    `then ${r.ownerList[0]?.burst ?? 0} requests with ${r.ownerList[0]?.concurrency ?? 0} in flight. "vs baseline" is how many times faster (higher is better).`, '',
    listTable(r.ownerList), '', stallsLine(r.ownerList), '', '![latency vs size](latency-vs-size.svg)', '');
  if (r.adminList.length) out.push('## 2. Admin list', '',
    `Every row, as admin (system:masters). Baseline: kube-apiserver's own namespace list (all namespaces, a few system ones more). ${r.adminList[0]?.sequential ?? 0} sequential requests per target, ` +
    `then ${r.adminList[0]?.burst ?? 0} with ${r.adminList[0]?.concurrency ?? 0} in flight.`, '', listTable(r.adminList), '', stallsLine(r.adminList), '');
  if (r.encodings) out.push(encodingsLine(r.encodings), '');
  if (r.chunkReuse) out.push(...chunkReuseSection(r.chunkReuse), '');
  if (r.tableAssembly) out.push(...tableAssemblySection(r.tableAssembly), '');
  if (r.watch) {
    const w = r.watch;
    out.push('## 3. Watch fan-out', '',
      `${w.owners} owners × ${fanoutsOf(w)} watches each, open at once, at ${k(w.size)} namespaces; an admin patches a label on a random tenant namespace ${w.changesPerSecond} times/s for ${w.seconds} s ` +
      `(the same sequence in both phases of each fan-out, run one after the other). Delivery latency: from just before the PATCH is sent to the event's arrival at each watcher that must see it. ` +
      'Paddock learns of the change from its own watch of kube-apiserver, so its latency holds one hop more than kube-apiserver\'s own watch (as capsule-proxy\'s does, scenario 7); ' +
      'the hop column is that hop alone: from the change\'s arrival at a direct watch of kube-apiserver, open in every phase, to its arrival at the watcher. ' +
      'Paddock: watches of tenantnamespaces with the owner\'s client certificate, directly. Baseline: watches of namespaces on kube-apiserver with `labelSelector=paddock.dev/tenant in (<the owner\'s tenants>)`. ' +
      'The floor of a Node.js hop, when measured: the same watches through a Node.js relay that writes kube-apiserver\'s bytes on as they arrive (its hop is what passing an event on costs Paddock\'s runtime). ' +
      'Each phase\'s watches start at its server\'s resourceVersion of just before they open; a watch the server ends, or whose connection fails, before the phase closes it is counted beside the deliveries (`endedEarly`). ' +
      'RSS sampled every 0.5 s during the changes.', '', watchTable(w), '');
  }
  if (r.reconcile) out.push('## 4. Reconcile', '', reconcileTable(r.reconcile), '');
  if (r.tails) out.push(tailsMarkdown(r.tails), '');
  if (r.ha) {
    const h = r.ha;
    out.push('## 8. Two replicas', '',
      `${h.informers} client-go informers (${h.kinds.join(', ')}) of ${h.owners} owners follow tenantnamespaces through kube-apiserver, which reaches the two replicas ` +
      `through one TCP balancer. Every ${h.restartEverySeconds} s one replica restarts (the two in turn, as in back-to-back rollouts): its watches end and their ` +
      'clients watch again on the other replica, with the resourceVersion the first gave them. An admin changes a label on one namespace of each owner every second. ' +
      'Before this design a resourceVersion was numbered per process: unknown to the other replica, so every such reconnect relisted.', '',
      table(['informers', 'seconds', 'restarts', 'reconnects', 'relists', 'relists/hour/informer', 'changes', 'lost', 'duplicated'],
        [[h.informers, f(h.seconds), h.restarts, h.reconnects, h.replicaSwitchRelists, f(h.relistsPerHourPerInformer), h.changes, h.lostEvents, h.duplicateEvents]]), '');
  }
  if (r.allowedClasses) {
    out.push('## 6. Allowed storage classes', '',
      `\`kubectl get tsc\` by alice, whose tenant may use the StorageClasses labelled \`tier=gold\` (a tenth of 200), with every bench Tenant in place. ` +
      'Baseline: what a label-injecting proxy sends — kube-apiserver\'s StorageClass list with `labelSelector=tier=gold`, as a Table.', '', listTable([r.allowedClasses]), '');
  }
  if (r.views?.length) {
    out.push('### The other views', '',
      'An owner\'s `kubectl get tdc` (alice\'s tenant allowed the DeviceClasses labelled `tier=gold`, a tenth of 200) beside kube-apiserver\'s label-selected DeviceClass list; ' +
      '`kubectl get otn` by alice (her one Tenant) beside kube-apiserver\'s Tenant list with `fieldSelector=metadata.name=<her tenant>`, and by the admin (every Tenant) beside kube-apiserver\'s Tenant list. Tables.', '',
      ...r.views.flatMap((v) => [`\`${v.view}\` by the ${v.caller}:`, '', listTable([v.list]), '']));
  }
  if (r.viewWatch) {
    const w = r.viewWatch;
    out.push(`\`${w.view}\` watch: ${w.changes} label changes on allowed DeviceClasses, one at a time, timed from just before the PATCH to the event on alice's watch (directly) and on kube-apiserver's label-selected DeviceClass watch.`, '',
      table(['target', 'delivered', 'p50 ms', 'p99 ms', 'max ms'], [
        ['Paddock direct', `${w.paddock.delivered} / ${w.changes}`, f(w.paddock.latency.p50), f(w.paddock.latency.p99), f(w.paddock.latency.max)],
        [w.baseline.target, `${w.baseline.delivered} / ${w.changes}`, f(w.baseline.latency.p50), f(w.baseline.latency.p99), f(w.baseline.latency.max)],
      ]), '');
  }
  if (r.capsuleProxy) out.push(capsuleProxyMarkdown(r.capsuleProxy, listTable, watchTable));
  if (r.memory) {
    out.push('## 5. Memory', '',
      'Paddock\'s heap after a full GC (least of 3 samples; a preloaded probe runs `gc()` on SIGUSR2), with all caches synced and the cluster settled, ' +
      'at rest (no row\'s encodings kept: none made by this run\'s lists or by other clients\', such as kube-controller-manager\'s metadata informers listing every row at their start; see `paddock_row_encodings`; and the watch window passed, each source history holding its last 100 changes), then while serving: just after an admin list as a Table and as JSON, every row\'s encodings alive; and, before the wait for rest, just settled: the histories still holding the watch window (2 minutes) of the build\'s changes. ' +
      `Each namespace comes with a ResourceQuota, a LimitRange, a NetworkPolicy and a RoleBinding (5 cached objects, plus 1 Tenant per ${r.config.namespacesPerTenant} namespaces), and a TenantNamespace row. ` +
      `Heap per namespace at the largest size: ${bytes(r.memory.heapBytesPerNamespace)} (${bytes(r.memory.heapBytesPerObject)} per cached object); marginal, between the two largest sizes: ${bytes(r.memory.marginalBytesPerNamespace)}.` +
      (r.memory.dataHeapBytesPerNamespace !== undefined
        ? ` Of the heap added since 0, ${bytes(r.memory.codeHeapBytesAdded!)} is compiled JavaScript (V8's code and trusted spaces: bytecode and machine code made as the reconciler's and the server's functions first run and grow hot; a cost paid once, not per namespace): without it, ${bytes(r.memory.dataHeapBytesPerNamespace)} per namespace.`
        : ''), '',
      memoryTable(r.memory), '');
  }
  if (r.scale) out.push(scaleMarkdown(r.scale, listTable, watchTable, tailsTables), '');
  if (r.admission) out.push(admissionMarkdown(r.admission), '');
  if (r.tenantQuota) out.push(tenantQuotaMarkdown(r.tenantQuota), '');
  out.push('## Data setup', '', 'Tenants created through kube-apiserver while Paddock runs with ' +
    `--qps=${r.config.setup.qps} --burst=${r.config.setup.burst} --workers=${r.config.setup.workers}; Paddock's reconciler creates every namespace and guardrail.`, '', setupTable(r.setup), '');
  return out.join('\n');
}

/**
 * A line chart of scenario 1's latency against cluster size: x = namespaces, y = milliseconds (log
 * scale), one colour per target, p50 solid and p99 dashed.
 */
export function latencyChart(ownerList: ListResult[], capsule?: CapsuleProxyResult): string {
  // capsule-proxy's Table, where it was measured at the same sizes, as one more line.
  const capsuleAt = new Map((capsule?.ownerList?.sizes ?? []).map((r) => [r.size, r.targets.find((t) => t.target === 'capsule-proxy namespaces, Table')]));
  const results = ownerList.every((r) => capsuleAt.get(r.size)) && capsuleAt.size
    ? ownerList.map((r) => ({ ...r, targets: [...r.targets, { ...capsuleAt.get(r.size)!, target: `capsule-proxy namespaces (${capsule!.version})` }] }))
    : ownerList;
  const W = 820;
  const H = 420;
  const pad = { left: 70, right: 330, top: 40, bottom: 55 };
  const pw = W - pad.left - pad.right;
  const ph = H - pad.top - pad.bottom;
  const sizes = results.map((r) => r.size);
  const names = results[0]?.targets.map((t) => t.target) ?? [];
  const colours = ['#1f77b4', '#ff7f0e', '#7f7f7f', '#2ca02c'];
  const values = results.flatMap((r) => r.targets.flatMap((t) => [t.latency.p50, t.latency.p99])).filter((v) => v > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...values, 1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values, 10))));
  const minX = Math.min(...sizes, 0);
  const maxX = Math.max(...sizes, 1);
  const x = (s: number) => pad.left + (sizes.length === 1 ? pw / 2 : ((s - minX) / (maxX - minX)) * pw);
  const y = (v: number) => pad.top + ph - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * ph;
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${W}" height="${H}" fill="white"/>`);
  parts.push(`<text x="${pad.left}" y="22" font-size="14" font-weight="bold">Owner list (kubectl get tns, Table): latency vs cluster size</text>`);
  for (let d = lo; d <= hi; d *= 10) {
    for (const m of [1, 2, 5]) {
      const v = d * m;
      if (v > hi) break;
      const yy = y(v).toFixed(1);
      parts.push(`<line x1="${pad.left}" x2="${pad.left + pw}" y1="${yy}" y2="${yy}" stroke="${m === 1 ? '#ccc' : '#eee'}"/>`);
      parts.push(`<text x="${pad.left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${round(v)}</text>`);
    }
  }
  for (const s of sizes) {
    parts.push(`<line x1="${x(s)}" x2="${x(s)}" y1="${pad.top}" y2="${pad.top + ph}" stroke="#eee"/>`);
    parts.push(`<text x="${x(s)}" y="${pad.top + ph + 18}" text-anchor="middle">${k(s)}</text>`);
  }
  parts.push(`<line x1="${pad.left}" x2="${pad.left}" y1="${pad.top}" y2="${pad.top + ph}" stroke="#333"/>`);
  parts.push(`<line x1="${pad.left}" x2="${pad.left + pw}" y1="${pad.top + ph}" y2="${pad.top + ph}" stroke="#333"/>`);
  parts.push(`<text x="${pad.left + pw / 2}" y="${H - 12}" text-anchor="middle">tenant namespaces in the cluster</text>`);
  parts.push(`<text transform="translate(18 ${pad.top + ph / 2}) rotate(-90)" text-anchor="middle">latency, ms (log scale)</text>`);
  names.forEach((name, i) => {
    const colour = colours[i % colours.length];
    for (const [q, dash] of [['p50', ''], ['p99', ' stroke-dasharray="6 4"']] as const) {
      const pts = results.map((r) => {
        const t = r.targets.find((tt) => tt.target === name)!;
        return [x(r.size), y(Math.max(t.latency[q], lo))] as const;
      });
      parts.push(`<polyline fill="none" stroke="${colour}" stroke-width="2"${dash} points="${pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(' ')}"/>`);
      for (const [a, b] of pts) parts.push(`<circle cx="${a.toFixed(1)}" cy="${b.toFixed(1)}" r="3" fill="${colour}"/>`);
    }
    const ly = pad.top + 10 + i * 36;
    const lx = pad.left + pw + 20;
    parts.push(`<line x1="${lx}" x2="${lx + 24}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="2"/>`);
    parts.push(`<text x="${lx + 30}" y="${ly}" dominant-baseline="middle">${esc(name)}</text>`);
    parts.push(`<text x="${lx + 30}" y="${ly + 15}" dominant-baseline="middle" fill="#555">p50 solid, p99 dashed</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
