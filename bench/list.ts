import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { killGroup, sleep, startDetached, waitFor } from '../test/controlplane/processes';
import type { BenchCluster, PaddockReview } from './cluster';
import { TENANT_LABEL, TNS } from './cluster';
import { AGGREGATED_FLOOR_PATH, startAggregatedFloor } from './aggregated-floor';
import { ACCEPT_JSON, ACCEPT_TABLE, pool, type Client } from './http';
import { ALICE_TENANT, type BenchConfig } from './scenarios';
import { round, summarize, type LatencySummary } from './stats';
import { openProfileWindow, type PaddockWindow } from './profile-window';
import { schedFrom, type ServingProcess } from './sched';
import { CacheWaitProbe, parseCacheWaits, type CacheWaits } from './cache-wait';
import { tails, type TailsResult } from './tails';

const FLOOR_SERVER = resolve(__dirname, 'floor-server.mjs');

/** One thing measured: a request a client makes, against Paddock or against the baseline. */
export interface Target {
  name: string;
  role: 'paddock' | 'baseline';
  client: Client;
  path: string;
  accept: string;
  /** Rows (Table) or items (JSON) the answer must hold. */
  expectRows: (n: number) => boolean;
  /** The resource of kube-apiserver's watch cache the request reads (a consistent list through kube-apiserver, directly or through a proxy), if any (cache-wait.ts). */
  watchCache?: string;
}

export interface TargetResult {
  target: string;
  role: 'paddock' | 'baseline';
  rows: number;
  bytes: number;
  latency: LatencySummary;
  /** Requests per second with `concurrency` clients in flight. */
  rps: number;
  /** Requests answered 429 or 503 with Retry-After and retried (none: absent). */
  retried?: number;
  /**
   * Requests that got no byte of an answer for the client's timeout (60 s; none: absent). Each is a sample
   * of the time until it was given up, which its real latency exceeds: the summary, and a ratio built on
   * it, is then a lower bound.
   */
  timedOut?: number;
  /** Set once the target timed out {@link GIVE_UP_AFTER} times: it was asked nothing more (not even the burst; rps 0). */
  gaveUp?: boolean;
}

/** Timeouts after which a target is asked nothing more: a server that does not answer is not waited on for a whole run. */
export const GIVE_UP_AFTER = 3;

/** A request that got no byte of an answer for the client's timeout (http.ts `Client.send`). */
function isTimeout(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith('timeout:');
}

export interface ListResult {
  scenario: 'owner-list' | 'admin-list';
  size: number;
  sequential: number;
  burst: number;
  concurrency: number;
  targets: TargetResult[];
  /** The tails of the sequential requests (slower than 10× their target's median) and their causes, as the run's (tails.ts). */
  stalls?: TailsResult;
  /** The cpu probe's summary of Paddock over the sequential requests, when profiled (profile-window.ts). */
  paddockWindow?: PaddockWindow;
}

function rowsOf(body: Buffer): number {
  const obj = JSON.parse(body.toString('utf8')) as { rows?: unknown[]; items?: unknown[] };
  return (obj.rows ?? obj.items ?? []).length;
}

/** A copy of `items` in random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** Requests of each target answered 429 or 503 with Retry-After, and retried (the run's, by target name). */
const retried = new Map<string, number>();

/**
 * One request of `t`, timed as its client sees it: a 429 or 503 with Retry-After is retried after the
 * wait it asks for, as client-go does (up to 5 times), and the time includes the waits.
 */
async function once(t: Target): Promise<{ ms: number; bytes: number; rows: number }> {
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const sent = performance.now();
    const res = await t.client.get(t.path, t.accept).catch((err: unknown) => {
      if (isTimeout(err)) throw new TimedOut(waited + performance.now() - sent);
      throw err;
    });
    if ((res.status === 429 || res.status === 503) && res.retryAfter !== undefined && attempt < 5) {
      retried.set(t.name, (retried.get(t.name) ?? 0) + 1);
      const ms = Math.max(1, res.retryAfter) * 1000;
      await sleep(ms);
      waited += res.ms + ms;
      continue;
    }
    if (res.status !== 200) throw new Error(`${t.name}: GET ${t.path} answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`);
    return { ms: waited + res.ms, bytes: res.body.length, rows: rowsOf(res.body) };
  }
}

/** A request of a target that got no answer within the client's timeout, after `ms` in all (the retries' waits too). */
class TimedOut extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${ms} ms`);
  }
}

/**
 * Measures targets side by side: a warm-up, then `sequential` rounds in which each target is asked once,
 * in a new random order each round (latency, interleaved so that drift hits all alike), then per target
 * a burst of `burst` requests with `concurrency` in flight (throughput).
 *
 * The order is shuffled because where a request falls in a round shows in its latency: the first request
 * to a server after it sat idle through the others' requests (a few ms through kube-apiserver) is slower
 * by 0.05–0.4 ms on this kind of machine than one right after another. In a fixed order that cost always
 * fell on the same target — Paddock's Table, listed first, looked 0.4 ms slower than its JSON.
 */
export async function measure(targets: Target[], opts: MeasureOptions): Promise<TargetResult[]> {
  return (await measured(targets, opts)).targets;
}

interface MeasureOptions {
  sequential: number;
  burst: number;
  concurrency: number;
  warmup?: number;
  /** The scenario its samples are recorded under in the run's tails. */
  scenario?: string;
  /** kube-apiserver's process: its threads' run-queue accounting is read around each sequential request through it. */
  kubeApiserver?: KubeApiserverProcess;
  /** A proxy in front of kube-apiserver (capsule-proxy) at `url`: its threads are read around each sequential request to it. */
  proxy?: ServingProcess & { url: string };
  /** Paddock's process: its main thread is read around each sequential request (and the cpu probe's window opened). */
  paddock?: PaddockProcess;
}

/** kube-apiserver as a list measurement sees it. */
export interface KubeApiserverProcess {
  pid: number;
  /** The servers whose requests it serves: itself, and a proxy in front of it (capsule-proxy). */
  servesFor: readonly string[];
  /** Reads its watch caches' read-wait histogram (cache-wait.ts), after each suspiciously slow sequential request that reads one. */
  cacheWaits?: () => Promise<CacheWaits>;
}

/** The cluster's kube-apiserver, serving its own requests and those of `proxies`. */
export function kubeApiserverOf(cluster: BenchCluster, ...proxies: string[]): KubeApiserverProcess {
  return {
    pid: cluster.state.pids.apiserver, servesFor: [cluster.state.server, ...proxies],
    cacheWaits: async () => parseCacheWaits((await cluster.admin.get('/metrics', 'text/plain')).body.toString('utf8')),
  };
}

/** Paddock's process as a list measurement sees it. */
interface PaddockProcess {
  /** Its main thread's run-queue accounting is read around each sequential request. */
  pid?: number;
  /** Its stalls, which name the causes of its tails (BenchCluster.stallsFile). */
  stallsFile: string;
  /** The reviews it asked of kube-apiserver, which name others (BenchCluster.paddockReviews). */
  reviews?: () => readonly PaddockReview[];
  /** Starts and stops the cpu probe's window around the sequential requests (BenchCluster.toggleProfile). */
  toggleProfile?: () => void;
}

/** {@link measure}, and the tails among the sequential requests with their causes. */
export async function measureExplained(targets: Target[], opts: MeasureOptions & { paddock: PaddockProcess }):
  Promise<{ targets: TargetResult[]; stalls: TailsResult; paddockWindow?: PaddockWindow }> {
  const mark = tails.mark();
  const { targets: results, paddockWindow } = await measured(targets, opts);
  return { targets: results, stalls: await tails.summarize(opts.paddock, mark), ...(paddockWindow ? { paddockWindow } : {}) };
}

/**
 * What {@link measure} describes; given `paddock`, with its run-queue accounting and the cpu probe's window.
 * A request that gets no answer within the client's timeout is a sample of the time it was given (a
 * lower bound) rather than the end of the run, and a target that timed out {@link GIVE_UP_AFTER} times is
 * asked nothing more: its summary holds the samples it gave (its timeouts, when it gave nothing else).
 */
async function measured(targets: Target[], opts: MeasureOptions): Promise<{ targets: TargetResult[]; paddockWindow?: PaddockWindow }> {
  const first = new Map<string, { bytes: number; rows: number }>();
  const timeouts = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  const answering = (t: Target) => timeouts.get(t.name)!.length < GIVE_UP_AFTER;
  /** One request of `t`: its answer (the first one's rows checked and kept), or the time it was given up after. */
  const ask = async (t: Target): Promise<number> => {
    try {
      const r = await once(t);
      if (!first.has(t.name)) {
        if (!t.expectRows(r.rows)) throw new Error(`${t.name}: unexpected row count ${r.rows}`);
        first.set(t.name, r);
      }
      return r.ms;
    } catch (err) {
      if (!(err instanceof TimedOut)) throw err;
      timeouts.get(t.name)!.push(err.ms);
      return err.ms;
    }
  };
  for (const t of targets) await ask(t);
  const cacheWaits = opts.kubeApiserver?.cacheWaits ? new CacheWaitProbe(opts.kubeApiserver.cacheWaits) : undefined;
  for (let i = 0; i < (opts.warmup ?? 5); i++) {
    for (const t of targets.filter(answering)) {
      const ms = await ask(t);
      cacheWaits?.timed(t.name, ms);
    }
  }
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  await cacheWaits?.start();
  const window = openProfileWindow(opts.paddock?.toggleProfile);
  for (let i = 0; i < opts.sequential; i++) {
    for (const t of shuffled(targets.filter(answering))) {
      const through = opts.kubeApiserver?.servesFor.includes(t.client.base) ? opts.kubeApiserver.pid : undefined;
      const schedSince = schedFrom(opts.paddock?.pid, through, opts.proxy?.url === t.client.base ? opts.proxy : undefined);
      const sentAt = performance.now();
      const ms = await ask(t);
      const sched = schedSince();
      const cacheWait = await cacheWaits?.after(t, ms);
      samples.get(t.name)!.push(ms);
      // The sequential samples are the run's tail samples too (the burst's measure throughput, not latency).
      tails.record({ scenario: opts.scenario ?? 'list', target: t.name, role: t.role }, sentAt, ms, { ...(sched ? { sched } : {}), ...(cacheWait ? { cacheWait } : {}) });
    }
  }
  const paddockWindow = await window.close();
  const results: TargetResult[] = [];
  for (const t of targets) {
    const started = performance.now();
    await pool(Array.from({ length: opts.burst }), opts.concurrency, async () => void (answering(t) && (await ask(t))));
    const rps = answering(t) ? opts.burst / ((performance.now() - started) / 1000) : 0;
    const f = first.get(t.name) ?? { rows: 0, bytes: 0 };
    const retries = retried.get(t.name);
    retried.delete(t.name);
    const timedOut = timeouts.get(t.name)!;
    const sampled = samples.get(t.name)!;
    results.push({
      target: t.name, role: t.role, rows: f.rows, bytes: f.bytes, latency: summarize(sampled.length > 0 ? sampled : timedOut), rps: round(rps),
      ...(retries ? { retried: retries } : {}), ...(timedOut.length > 0 ? { timedOut: timedOut.length } : {}), ...(answering(t) ? {} : { gaveUp: true }),
    });
  }
  return { targets: results, ...(paddockWindow ? { paddockWindow } : {}) };
}

/**
 * The cluster's Paddock for a list measurement, with no cpu probe window (to profile a list, add
 * `toggleProfile: () => cluster.toggleProfile()`): with one around the admin list's sequential requests,
 * a request of the burst that follows was once answered by a closed connection.
 */
export function paddockOf(cluster: BenchCluster): PaddockProcess {
  return { pid: cluster.paddock?.pid, stallsFile: cluster.stallsFile, reviews: () => cluster.paddockReviews() };
}

/**
 * Scenario 1: one owner's `kubectl get tns` (a Table) — Paddock directly, Paddock through kube-apiserver's
 * aggregator (kubectl's path), and the baseline a label-injecting proxy would send: kube-apiserver's
 * namespace list with `labelSelector=paddock.dev/tenant=<tenant>`, as a Table.
 */
export async function ownerList(cluster: BenchCluster, config: BenchConfig, size: number): Promise<ListResult> {
  const alice = cluster.userCert('alice');
  const five = (n: number) => n === config.namespacesPerTenant;
  const targets: Target[] = [
    { name: 'Paddock direct', role: 'paddock', client: cluster.client(cluster.paddockUrl, alice), path: TNS, accept: ACCEPT_TABLE, expectRows: five },
    { name: 'Paddock via kube-apiserver', role: 'paddock', client: cluster.client(cluster.state.server, alice), path: TNS, accept: ACCEPT_TABLE, expectRows: five },
    {
      name: 'kube-apiserver namespaces, label selector', role: 'baseline', client: cluster.admin, watchCache: 'namespaces',
      path: `/api/v1/namespaces?labelSelector=${encodeURIComponent(`${TENANT_LABEL}=${ALICE_TENANT}`)}`, accept: ACCEPT_TABLE, expectRows: five,
    },
  ];
  return withAggregatedFloor(cluster, targets[1].client, five, async (floor) => {
    const o = config.ownerList;
    return { scenario: 'owner-list', size, ...o, ...(await measureExplained([...targets, floor], { ...o, scenario: `owner list at ${size}`, paddock: paddockOf(cluster), kubeApiserver: kubeApiserverOf(cluster) })) };
  });
}

/** The owner list's floor target: Paddock's answer for alice, from memory, through kube-apiserver's aggregator. */
export const AGGREGATED_FLOOR_TARGET = 'aggregated floor: Paddock\'s bytes from memory, via kube-apiserver';

/**
 * Runs `measure` with the floor of an aggregated request as a target: the Table `viaApiserver` (a client of
 * kube-apiserver) gets from Paddock now, answered from memory by a server of its own through the same
 * APIService path (aggregated-floor.ts), which is stopped when `measure` ends.
 */
export async function withAggregatedFloor<R>(cluster: BenchCluster, viaApiserver: Client, expectRows: (n: number) => boolean, measure: (floor: Target) => Promise<R>): Promise<R> {
  const floor = await startAggregatedFloor(cluster, (await viaApiserver.get(TNS, ACCEPT_TABLE)).body, viaApiserver);
  try {
    return await measure({ name: AGGREGATED_FLOOR_TARGET, role: 'baseline', client: viaApiserver, path: AGGREGATED_FLOOR_PATH, accept: ACCEPT_TABLE, expectRows });
  } finally {
    await floor.stop();
  }
}

/**
 * Scenario 2: an admin lists everything, as a Table and as JSON — Paddock directly (and the Table
 * through the aggregator) against kube-apiserver's own namespace list.
 */
export async function adminList(cluster: BenchCluster, config: BenchConfig, size: number): Promise<ListResult> {
  const admin = cluster.admin;
  const direct = cluster.paddockAdmin!;
  const all = (n: number) => n === size;
  const allAndSystem = (n: number) => n >= size;
  const targets: Target[] = [
    { name: 'Paddock direct, Table', role: 'paddock', client: direct, path: TNS, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'Paddock via kube-apiserver, Table', role: 'paddock', client: admin, path: TNS, accept: ACCEPT_TABLE, expectRows: all },
    { name: 'Paddock direct, JSON', role: 'paddock', client: direct, path: TNS, accept: ACCEPT_JSON, expectRows: all },
    { name: 'kube-apiserver namespaces, Table', role: 'baseline', client: admin, path: '/api/v1/namespaces', accept: ACCEPT_TABLE, expectRows: allAndSystem, watchCache: 'namespaces' },
    { name: 'kube-apiserver namespaces, JSON', role: 'baseline', client: admin, path: '/api/v1/namespaces', accept: ACCEPT_JSON, expectRows: allAndSystem, watchCache: 'namespaces' },
  ];
  const floor = await startFloorServer(cluster);
  try {
    // The same number of bytes as Paddock's Table, from a server that only moves them.
    const bytes = (await direct.get(TNS, ACCEPT_TABLE)).body.length;
    targets.push({ name: TRANSFER_FLOOR_TARGET, role: 'baseline', client: floor.client, path: `/?bytes=${bytes}`, accept: ACCEPT_JSON, expectRows: () => true });
    const o = config.adminList;
    return { scenario: 'admin-list', size, ...o, ...(await measureExplained(targets, { ...o, warmup: 2, scenario: `admin list at ${size}`, paddock: paddockOf(cluster), kubeApiserver: kubeApiserverOf(cluster) })) };
  } finally {
    await floor.stop();
  }
}

/** The admin list's floor target: as many bytes as Paddock's Table, streamed by a server that only moves them. */
export const TRANSFER_FLOOR_TARGET = 'transfer floor: the Table\'s bytes from a static server';

/** Starts bench/floor-server.mjs with Paddock's serving certificate; its client is the admin's. */
async function startFloorServer(cluster: BenchCluster): Promise<{ client: Client; stop(): Promise<void> }> {
  const { dir, pki } = cluster.state;
  const portFile = join(dir, 'floor-server.port');
  rmSync(portFile, { force: true });
  const pid = startDetached(process.execPath, [FLOOR_SERVER, pki.paddockServing.cert, pki.paddockServing.key, portFile], join(dir, 'logs', 'floor-server.log'));
  await waitFor('the floor server', async () => existsSync(portFile) && readFileSync(portFile, 'utf8') !== '', 10_000, 50);
  const client = cluster.client(`https://127.0.0.1:${readFileSync(portFile, 'utf8')}`, pki.users.admin);
  return {
    client,
    async stop() {
      client.close();
      await killGroup(pid);
    },
  };
}
