/**
 * Scenario 2's assembly: how long Paddock's encoding code takes to make kubectl's form of the admin Table
 * (its bytes, not sending them), by the age of the rows: the rows Paddock serves, in this process, their
 * creation times set to each range of ages. Days old, every block reads the same for hours and is copied
 * whole; under 10 minutes, AGE moves on every second and is spliced into the blocks; 10 minutes to 8
 * hours, AGE moves on every minute, each row at a second of its own, and is spliced in too (a block made
 * again whenever it read differently was made again on every list). The lists come 2 s apart on the
 * clock the encoding reads.
 */
import { performance } from 'node:perf_hooks';
import { listChunks } from '../src/api/encoding/chunk-pool';
import { clearEncodings, tableJson } from '../src/api/encoding/encodings';
import { TENANT_NAMESPACE_TABLE } from '../src/api/resources/tenantnamespaces/tenant-namespace-table';
import type { TenantNamespace } from '../src/kube/types';
import type { BenchCluster } from './cluster';
import { TNS } from './cluster';
import { ACCEPT_JSON } from './http';
import { summarize } from './stats';

/** Each range's age of row `i` (ms): spread so that the rows' AGE moves on at seconds of their own. */
const AGES = {
  days: (i: number) => 3 * 86_400_000 + i * 1000,
  underTenMinutes: (i: number) => (i * 47_000) % 600_000,
  tenMinutesToEightHours: (i: number) => 600_000 + ((i * 7_919_000) % (8 * 3_600_000 - 600_000)),
};
type AgeRange = keyof typeof AGES;

export interface TableAssembly {
  rows: number;
  /** Lists timed per range, after one that makes the encodings. */
  lists: number;
  ranges: Record<AgeRange, { p50: number; p99: number }>;
}

export async function tableAssembly(cluster: BenchCluster, lists = 40): Promise<TableAssembly> {
  const { items } = await cluster.paddockAdmin!.getJson<{ items: TenantNamespace[] }>(TNS, ACCEPT_JSON);
  const start = Date.now();
  const ranges = {} as TableAssembly['ranges'];
  for (const range of Object.keys(AGES) as AgeRange[]) {
    const rows = items.map((r, i) => Object.freeze({ ...r, metadata: Object.freeze({ ...r.metadata, creationTimestamp: new Date(start - AGES[range](i)).toISOString().replace(/\.\d+Z$/, 'Z') }) }));
    clearEncodings();
    const list = (now: number) => {
      for (const piece of tableJson(TENANT_NAMESPACE_TABLE, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now: new Date(now) })) listChunks.give(piece);
    };
    list(start);
    const ms: number[] = [];
    for (let k = 1; k <= lists; k++) {
      const t = performance.now();
      list(start + k * 2000);
      ms.push(performance.now() - t);
    }
    const { p50, p99 } = summarize(ms);
    ranges[range] = { p50, p99 };
  }
  clearEncodings();
  return { rows: items.length, lists, ranges };
}
