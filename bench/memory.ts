import type { BenchCluster } from './cluster';
import { memoryOf, metricSum } from './proc';
import { round } from './stats';

/** Paddock's memory at one cluster size, after a full GC (least of a few samples). */
export interface MemoryPoint {
  namespaces: number;
  /** Objects in Paddock's informer caches (tenants, namespaces, guardrails), from /metrics. */
  cachedObjects: number;
  heapUsedBytes: number;
  heapUsedMiB: number;
  rssMiB: number;
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
}

export async function memoryPoint(cluster: BenchCluster, namespaces: number): Promise<MemoryPoint> {
  const heap = await cluster.heap();
  const cachedObjects = metricSum(await cluster.paddockMetrics(), 'paddock_cache_objects');
  return { namespaces, cachedObjects, heapUsedBytes: heap.heapUsed, heapUsedMiB: round(heap.heapUsed / 2 ** 20), rssMiB: round(memoryOf(cluster.paddock!.pid).rssMiB) };
}

/** Scenario 5: heap per cached namespace (with its quota and guardrails), from the points measured. */
export function memoryResult(points: MemoryPoint[]): MemoryResult {
  const zero = points[0];
  const last = points[points.length - 1];
  const prev = points.length > 2 ? points[points.length - 2] : zero;
  const bytes = (p: MemoryPoint) => p.heapUsedBytes;
  return {
    scenario: 'memory',
    points,
    heapBytesPerNamespace: round((bytes(last) - bytes(zero)) / last.namespaces),
    heapBytesPerObject: round((bytes(last) - bytes(zero)) / Math.max(1, last.cachedObjects - zero.cachedObjects)),
    marginalBytesPerNamespace: round((bytes(last) - bytes(prev)) / Math.max(1, last.namespaces - prev.namespaces)),
  };
}
