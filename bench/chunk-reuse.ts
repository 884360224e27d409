/**
 * Scenario 2's chunks: what borrowing a list's chunks (src/api/encoding/chunk-pool.ts) saves against
 * allocating each afresh, measured in one process (chunk-reuse-server.ts) holding a heap as large as
 * Paddock's, serving the rows Paddock serves with Paddock's encoding and streaming code — and beside it
 * the same bytes sent from memory, the floor of that process. Requests come one at a time, the three
 * forms in a new random order each round; each full GC is counted against the form whose request it
 * started in.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { killGroup, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster } from './cluster';
import { TNS } from './cluster';
import { ACCEPT_JSON } from './http';
import { shuffled } from './list';
import { round, summarize } from './stats';

const SERVER = resolve(__dirname, 'chunk-reuse-server.ts');
const FORMS = ['borrowed', 'fresh', 'static'] as const;

export interface ChunkReuse {
  rows: number;
  bytes: number;
  /** The server's heap: Paddock's after a full GC at the time of the measurement. */
  heapMiB: number;
  rounds: number;
  /** Each form's latency (ms) and the full GCs that started during its requests. */
  forms: Record<(typeof FORMS)[number], { p50: number; p99: number; fullGcs: number }>;
}

export async function chunkReuse(cluster: BenchCluster, rounds = 40): Promise<ChunkReuse> {
  const { dir, pki } = cluster.state;
  const list = await cluster.paddockAdmin!.getJson<{ items: unknown[] }>(TNS, ACCEPT_JSON);
  const rowsFile = join(dir, 'chunk-reuse-rows.json');
  writeFileSync(rowsFile, JSON.stringify(list.items));
  const heapMiB = Math.round((await cluster.heap()).heapUsed / 2 ** 20);
  const portFile = join(dir, 'chunk-reuse.port');
  rmSync(portFile, { force: true });
  const pid = startDetached(process.execPath, ['--import', 'tsx', SERVER, pki.paddockServing.cert, pki.paddockServing.key, rowsFile, String(heapMiB), portFile],
    join(dir, 'logs', 'chunk-reuse-server.log'));
  try {
    await waitFor('the chunk reuse server', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 120_000, 100);
    const client = cluster.client(`https://127.0.0.1:${readFileSync(portFile, 'utf8')}`, pki.users.admin);
    const ms: Record<string, number[]> = { borrowed: [], fresh: [], static: [] };
    const gcs = async () => JSON.parse((await client.get('/gcs')).body.toString('utf8')) as Record<string, number>;
    let bytes = 0;
    let before: Record<string, number> = {};
    for (let i = -2; i < rounds; i++) {
      if (i === 0) before = await gcs();
      for (const form of shuffled(FORMS)) {
        const res = await client.get(`/${form}`);
        if (res.status !== 200) throw new Error(`chunk reuse server, ${form}: ${res.status}`);
        // Every form sends the whole Table: the same length (AGE cells aside, which a second can change).
        if (i === -2) {
          const got = (JSON.parse(res.body.toString('utf8')) as { rows: unknown[] }).rows.length;
          if (got !== list.items.length) throw new Error(`chunk reuse server, ${form}: ${got} rows, not ${list.items.length}`);
          bytes = res.body.length;
        }
        if (i >= 0) ms[form].push(res.ms);
      }
    }
    const after = await gcs();
    client.close();
    const form = (f: string) => {
      const s = summarize(ms[f]);
      return { p50: round(s.p50), p99: round(s.p99), fullGcs: (after[f] ?? 0) - (before[f] ?? 0) };
    };
    return { rows: list.items.length, bytes, heapMiB, rounds, forms: { borrowed: form('borrowed'), fresh: form('fresh'), static: form('static') } };
  } finally {
    await killGroup(pid);
    rmSync(rowsFile, { force: true });
  }
}
