import { join } from 'node:path';
import type { BenchCluster } from './cluster';
import { TNS } from './cluster';
import { breakdownText, heapBreakdown, takeHeapSnapshot, type HeapBreakdown } from './heap-breakdown';
import { ACCEPT_JSON, ACCEPT_TABLE } from './http';
import { memoryOf, metricSum } from './proc';
import { round } from './stats';
import { RETENTION_MS } from '../src/api/encoding/encodings';
import { DEFAULT_WATCH_WINDOW } from '../src/cache/history';
import { sleep } from '../test/controlplane/processes';

/** When this scenario last listed every row (its encodings are then kept for up to 2 × RETENTION_MS). */
let lastServedAt = 0;

/** Paddock's memory at one cluster size, after a full GC (least of a few samples). */
export interface MemoryPoint {
  namespaces: number;
  /** Objects in Paddock's informer caches (tenants, namespaces, guardrails), from /metrics. */
  cachedObjects: number;
  /**
   * At rest: no row's encodings kept — none made by this scenario's lists, nor by other clients' (the
   * first list of kube-controller-manager's metadata informers, for the garbage collector and quotas,
   * encodes every row's metadata), unless they did not go within the wait (see `rowEncodings`).
   */
  heapUsedBytes: number;
  /**
   * Of heapUsedBytes, compiled JavaScript: bytecode and machine code V8 makes as functions first run and
   * grow hot (its code and trusted spaces). It grows with the code paths run, not with namespaces: most
   * of the reconciler's code has never run at 0 namespaces.
   */
  codeHeapBytes?: number;
  /** Row states whose encodings Paddock kept when the heap at rest was measured (paddock_row_encodings). */
  rowEncodings?: number;
  /** Changes the source histories retained when the heap at rest was measured (paddock_cache_history_changes). */
  historyChanges?: number;
  /**
   * Just settled, before the wait for rest: the histories still hold the last watch window of the build's
   * changes (`settledHistoryChanges` of them), and other clients' lists their rows' encodings.
   */
  settledHeapUsedBytes?: number;
  settledHistoryChanges?: number;
  heapUsedMiB: number;
  rssMiB: number;
  /**
   * While serving: just after an admin list as a Table and as JSON, with every row's encodings alive
   * (they are kept while lists keep using them; see src/api/encoding/encodings.ts).
   */
  servingHeapUsedBytes?: number;
  /** Where the heap at rest goes (with --heap-breakdown). */
  breakdown?: HeapBreakdown;
}

export interface MemoryResult {
  scenario: 'memory';
  points: MemoryPoint[];
  /** (heap at the largest size − heap at 0) / namespaces. */
  heapBytesPerNamespace: number;
  /** The same per cached object. */
  heapBytesPerObject: number;
  /** Slope between the two largest sizes: heap bytes per added namespace. */
  marginalBytesPerNamespace: number;
  /**
   * heapBytesPerNamespace without compiled code: (heap − code at the largest size − (heap − code at 0)) /
   * namespaces — the code compiled since 0 is a cost paid once (what V8 keeps of code in the old space,
   * and fixed costs, are still in it).
   */
  dataHeapBytesPerNamespace?: number;
  /** Compiled code added to the heap between 0 and the largest size (bytes), when the probe told it. */
  codeHeapBytesAdded?: number;
  /** (heap while serving at the largest size − heap at 0) / namespaces. */
  servingHeapBytesPerNamespace?: number;
  /** (heap just settled at the largest size, the watch window full of the build's changes − heap at 0) / namespaces. */
  settledHeapBytesPerNamespace?: number;
}

export interface MemoryOptions {
  /** Write a heap snapshot at each point into this directory and attribute it (see heap-breakdown.ts). */
  breakdownDir?: string;
  log?: (line: string) => void;
}

/**
 * The memory point at `namespaces`: the heap at rest first (with its breakdown when asked), then while
 * serving — after an admin list as a Table (kubectl's) and as JSON — at every size but 0.
 */
export async function memoryPoint(cluster: BenchCluster, namespaces: number, options: MemoryOptions = {}): Promise<MemoryPoint> {
  // At rest: the encodings made by this scenario's previous lists have been dropped.
  const rest = lastServedAt + 2 * RETENTION_MS + 5000 - Date.now();
  if (rest > 0) {
    options.log?.(`  waiting ${Math.ceil(rest / 1000)} s for the row encodings of the previous lists to be dropped`);
    await sleep(rest);
  }
  // Other clients' lists (kube-controller-manager's metadata informers list every served resource at their
  // start) leave encodings too: wait for them to be dropped, at most as long as they may be kept.
  const held = async () => metricSum(await cluster.paddockMetrics(), 'paddock_row_encodings');
  // The histories keep the changes of the watch window's age, and at least the last few of each source:
  // at rest, once the window has passed since the last change, each holds no more than those few.
  const histories = async () => historyCounts(await cluster.paddockMetrics());
  const settledHistoryChanges = (await histories()).reduce((a, b) => a + b, 0);
  const settledHeapUsedBytes = namespaces > 0 ? (await cluster.heap()).heapUsed : undefined;
  const windowPassed = async () => (await histories()).every((n) => n <= DEFAULT_WATCH_WINDOW.minKept);
  const until = Date.now() + Math.max(2 * RETENTION_MS, DEFAULT_WATCH_WINDOW.maxAgeMs) + 5000;
  let rowEncodings = await held();
  if (rowEncodings > 0) options.log?.(`  waiting for the encodings of ${rowEncodings} row states (other clients' lists) to be dropped`);
  if (!(await windowPassed())) options.log?.(`  waiting for the watch window to pass (${settledHistoryChanges} changes retained)`);
  while ((rowEncodings > 0 || !(await windowPassed())) && Date.now() < until) {
    await sleep(2000);
    rowEncodings = await held();
  }
  const heap = await cluster.heap();
  const metrics = await cluster.paddockMetrics();
  const cachedObjects = metricSum(metrics, 'paddock_cache_objects');
  const historyChanges = historyCounts(metrics).reduce((a, b) => a + b, 0);
  const point: MemoryPoint = {
    namespaces, cachedObjects, heapUsedBytes: heap.heapUsed, ...(heap.codeBytes !== undefined ? { codeHeapBytes: heap.codeBytes } : {}), heapUsedMiB: round(heap.heapUsed / 2 ** 20), rssMiB: round(memoryOf(cluster.paddock!.pid).rssMiB), rowEncodings, historyChanges,
    settledHeapUsedBytes, settledHistoryChanges,
  };
  if (options.breakdownDir) {
    const path = join(options.breakdownDir, `paddock-${namespaces}.heapsnapshot`);
    await takeHeapSnapshot(cluster.paddock!.pid, cluster.heapFile, path);
    point.breakdown = heapBreakdown(path);
    options.log?.(breakdownText(point.breakdown, namespaces));
  }
  if (namespaces > 0) {
    for (const accept of [ACCEPT_TABLE, ACCEPT_JSON]) {
      const res = await cluster.paddockAdmin!.get(TNS, accept);
      if (res.status !== 200) throw new Error(`GET ${TNS}: ${res.status}`);
    }
    lastServedAt = Date.now();
    point.servingHeapUsedBytes = (await cluster.heap()).heapUsed;
  }
  return point;
}

/** The changes each source history retains (paddock_cache_history_changes), one number per cache. */
function historyCounts(metrics: string): number[] {
  return metrics.split('\n').filter((l) => l.startsWith('paddock_cache_history_changes{')).map((l) => Number(l.split(/\s+/).pop()));
}

/** Scenario 5: heap per cached namespace (with its quota and guardrails), from the points measured. */
export function memoryResult(points: MemoryPoint[]): MemoryResult {
  const zero = points[0];
  const last = points[points.length - 1];
  const prev = points.length > 2 ? points[points.length - 2] : zero;
  const bytes = (p: MemoryPoint) => p.heapUsedBytes;
  const result: MemoryResult = {
    scenario: 'memory',
    points,
    heapBytesPerNamespace: round((bytes(last) - bytes(zero)) / last.namespaces),
    heapBytesPerObject: round((bytes(last) - bytes(zero)) / Math.max(1, last.cachedObjects - zero.cachedObjects)),
    marginalBytesPerNamespace: round((bytes(last) - bytes(prev)) / Math.max(1, last.namespaces - prev.namespaces)),
  };
  if (last.codeHeapBytes !== undefined && zero.codeHeapBytes !== undefined) {
    result.codeHeapBytesAdded = last.codeHeapBytes - zero.codeHeapBytes;
    result.dataHeapBytesPerNamespace = round((bytes(last) - bytes(zero) - result.codeHeapBytesAdded) / last.namespaces);
  }
  if (last.servingHeapUsedBytes !== undefined) result.servingHeapBytesPerNamespace = round((last.servingHeapUsedBytes - bytes(zero)) / last.namespaces);
  if (last.settledHeapUsedBytes !== undefined) result.settledHeapBytesPerNamespace = round((last.settledHeapUsedBytes - bytes(zero)) / last.namespaces);
  return result;
}
