// The admin list's chunks, fresh or borrowed (src/api/encoding/chunk-pool.ts), side by side in one
// process: an HTTPS server (Paddock's serving certificate) that answers the 10k-row Table of the rows
// Paddock serves with Paddock's own encoding and streaming code, its chunks either borrowed from the pool
// (as Paddock serves it) or each a fresh allocation (as before the pool), and the same bytes from memory.
// The process holds a heap as large as Paddock's, so that a full GC costs here what it costs there.
//
//   node --import tsx chunk-reuse-server.ts <cert> <key> <rows file> <heap MiB> <port file>
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { PerformanceObserver, constants, performance, type PerformanceEntry } from 'node:perf_hooks';
import { ByteChunks } from '../src/api/encoding/byte-chunks';
import { PIECE_BYTES, tableJson } from '../src/api/encoding/encodings';
import { sendStream } from '../src/api/request/respond';
import { TENANT_NAMESPACE_TABLE } from '../src/api/resources/tenantnamespaces/tenant-namespace-table';
import type { TenantNamespace } from '../src/kube/types';

const [cert, key, rowsFile, heapMiB, portFile] = process.argv.slice(2);
const rows = (JSON.parse(readFileSync(rowsFile, 'utf8')) as TenantNamespace[]).map((r) => Object.freeze({ ...r, metadata: Object.freeze(r.metadata) }));
const table = (chunks?: ByteChunks) =>
  tableJson(TENANT_NAMESPACE_TABLE, rows, {}, { groupVersion: 'meta.k8s.io/v1', includeObject: 'Metadata', now: new Date() }, chunks);
// The static body: the same bytes, made once, sent as views of one buffer.
const bytes = Buffer.concat([...table(new ByteChunks(PIECE_BYTES))]);
const staticBody = () => Array.from({ length: Math.ceil(bytes.length / PIECE_BYTES) }, (_, i) => bytes.subarray(i * PIECE_BYTES, (i + 1) * PIECE_BYTES));

// Live objects up to Paddock's heap: small records, as a cache's are.
const ballast: { name: string; n: number; list: number[] }[] = [];
(globalThis as { ballast?: unknown }).ballast = ballast;
while (process.memoryUsage().heapUsed < Number(heapMiB) * 2 ** 20) {
  for (let i = 0; i < 10_000; i++) ballast.push({ name: `object-${ballast.length}`, n: i, list: [i] });
}

// Full GCs, each counted against the mode of the request it started in (requests come one at a time).
const fullGcs: Record<string, number> = {};
const windows: { mode: string; from: number; to: number }[] = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if ((e as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    const w = windows.find((x) => x.from <= e.startTime && e.startTime <= x.to);
    if (w) fullGcs[w.mode] = (fullGcs[w.mode] ?? 0) + 1;
  }
}).observe({ entryTypes: ['gc'] });

const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
  const mode = new URL(req.url ?? '/', 'https://x').pathname.slice(1);
  if (mode === 'gcs') {
    res.end(JSON.stringify(fullGcs));
    return;
  }
  const w = { mode, from: performance.now(), to: Infinity };
  windows.push(w);
  res.once('close', () => (w.to = performance.now()));
  const body = mode === 'static' ? staticBody() : mode === 'fresh' ? table(new ByteChunks(PIECE_BYTES)) : table();
  void sendStream(res, 200, 'application/json', body);
});
server.listen(0, '127.0.0.1', () => writeFileSync(portFile, String((server.address() as { port: number }).port)));
process.on('SIGTERM', () => process.exit(0));
