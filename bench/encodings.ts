import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { clearEncodings, objectListJson, tableJson } from '../src/api/encoding/encodings';
import { TENANT_NAMESPACE_TABLE } from '../src/api/resources/tenantnamespaces/tenant-namespace-table';
import type { TenantNamespace } from '../src/kube/types';
import type { BenchCluster } from './cluster';
import { TNS } from './cluster';
import { ACCEPT_JSON } from './http';
import { round } from './stats';

/** What Paddock's row encodings cache holds per row (scenario 2's memory side). */
export interface EncodingMemory {
  rows: number;
  /** Table encodings (cells around AGE, metadata): what `kubectl get` lists keep. */
  tableBytesPerRow: number;
  /** The object JSON added to them (JSON lists, includeObject=Object, watches); the metadata becomes a slice of it. */
  jsonBytesPerRow: number;
  totalBytesPerRow: number;
}

let gc: (() => void) | undefined;

function memoryAfterGc(): number {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
  gc();
  // The Table encodings are bytes outside the heap: they count with it.
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

const drain = (pieces: Iterable<string | Buffer>) => {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
};

/**
 * The memory (heap and the bytes outside it) the encodings cache takes per row, measured in this process with Paddock's own encoding code
 * on the rows Paddock serves (its admin JSON list, parsed and frozen as the view's rows are): heap after
 * a full GC with every row's Table encodings made, then with its JSON too, minus the heap with none.
 */
export async function encodingMemory(cluster: BenchCluster): Promise<EncodingMemory> {
  const list = await cluster.paddockAdmin!.getJson<{ items: TenantNamespace[] }>(TNS, ACCEPT_JSON);
  const rows = list.items.map((r) => Object.freeze({ ...r, metadata: Object.freeze(r.metadata) }));
  clearEncodings();
  const none = memoryAfterGc();
  drain(tableJson(TENANT_NAMESPACE_TABLE, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now: new Date() }));
  const table = memoryAfterGc();
  drain(objectListJson(rows, { apiVersion: 'tenancy.paddock.dev/v1alpha1', kind: 'TenantNamespaceList', metadata: {} }));
  const both = memoryAfterGc();
  clearEncodings();
  const n = rows.length;
  return { rows: n, tableBytesPerRow: round((table - none) / n), jsonBytesPerRow: round((both - table) / n), totalBytesPerRow: round((both - none) / n) };
}
