/**
 * The run's tails: every timed request and watch delivery of the list and watch scenarios is a sample,
 * and one slower than 10× the median of its target is a tail. A tail's cause is the first of these that
 * accounts for at least half of the time the sample took beyond its median:
 *
 * 1. Paddock's main thread waited for a CPU over the sample (its run-queue wait, sched.ts);
 * 2. the benchmark client's main thread waited for a CPU;
 * 3. kube-apiserver's threads waited for a CPU, summed (a request through it), then a proxy's in front of
 *    it (capsule-proxy's, a request to it); then Paddock's main thread's and the client's together, neither
 *    enough alone (each is one thread the request crosses in turn; an overestimate when both waited at
 *    the same moments, so kube-apiserver's, summed over threads off the request's path, are not added);
 * 4. a consistent list through kube-apiserver waited for its watch cache to catch up with etcd
 *    (cache-wait.ts: every process idle, for up to the 100 ms between the cache's progress requests);
 * 5. Paddock waited for kube-apiserver to answer a review it asked for the request (a SubjectAccessReview
 *    or TokenReview in kube-apiserver's audit log, received and answered within the sample; not a renewal
 *    of an answer in use, which Paddock asks with a User-Agent of its own and no request waits for);
 * 6. kube-apiserver's own watch delivered the change late too (a watch delivery's reference);
 * 7. a GC pause or an event-loop stall of Paddock (recorded inside it by probe/stall-probe.cjs);
 * 8. a GC pause or an event-loop stall of the benchmark's own process, the measuring client (recorded
 *    here, the same way);
 * 9. kube-apiserver was busy with other work: its threads ran longer over the sample than over its
 *    target's median sample (a request through it; its garbage collector, other clients); then the
 *    proxy in front of it, then the benchmark client's main thread, the same way. A watch delivery's are
 *    read off each process's CPU timeline (cpu-timeline.ts, in 10 ms ticks), and compared with what it
 *    would have run at its target's median rate over as long (a fan-out loads kube-apiserver, a proxy
 *    and the client all through a phase: a long delivery is not their business for being long).
 *
 * An unexplained tail shows what was read over it: the threads above, and the machine's stall time
 * (pressure.ts: some task of the machine waiting for I/O or for memory). The stall time is not a cause:
 * it is the whole machine's, and names no task that served the sample.
 *
 * Paddock's waits and stalls explain only samples Paddock served; the client's, any; kube-apiserver's and
 * a proxy's, only those of requests through them (the benchmark reads their threads around those alone). A wait comes
 * before a stall: a thread that waits for a CPU shows the wait as a late timer, or a longer GC pause, too.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sleep } from '../test/controlplane/processes';
import type { CacheWait } from './cache-wait';
import type { PaddockReview } from './cluster';
import type { Pressure } from './pressure';
import type { SampleSched, Sched } from './sched';
import { median as medianOf, round } from './stats';

/** A sample slower than this many times its target's median is a tail. */
export const TAIL_FACTOR = 10;

/** The slowest tails with a named cause kept in the result, per target (every unexplained one is kept). */
export const NAMED_KEPT_PER_TARGET = 5;

/** Paddock's stall probe appends a stall at most a second after it happened (probe/stall-probe.cjs); with a margin. */
const PADDOCK_STALLS_LAG_MS = 1500;

export interface SampleOf {
  scenario: string;
  target: string;
  role: 'paddock' | 'baseline';
}

/** What else was seen over a sample, beside its time. */
export interface SampleSeen {
  /** A watch delivery's: when kube-apiserver's own watch delivered the change, ms after the write was sent. */
  upstreamMs?: number;
  /** The run-queue accounting of the client's and Paddock's main threads over the sample. */
  sched?: SampleSched;
  /** A request through kube-apiserver: the longest watch-cache wait of its window, when one was read (cache-wait.ts). */
  cacheWait?: CacheWait;
  /**
   * A watch delivery: the CPU time (ms, every thread) kube-apiserver, the proxy it went through and this
   * process spent over it, from their CPU timelines (cpu-timeline.ts), where `sched` is not read.
   */
  cpu?: SampleCpu;
}

export interface Sample extends SampleOf, SampleSeen {
  /** Wall-clock ms when the request was sent (or the change written). */
  start: number;
  ms: number;
}

/** CPU time over a sample (ms, every thread of each process). */
export interface SampleCpu {
  kubeApiserver?: number;
  proxy?: { name: string; cpuMs: number };
  client?: number;
}

/** One stall of a process (stall-monitor.cjs): wall-clock start and length in ms. */
export interface Stall {
  kind: string;
  start: number;
  ms: number;
}

export interface Tail {
  scenario: string;
  target: string;
  ms: number;
  median: number;
  /** What held it up, e.g. "Paddock: major GC"; absent when nothing recorded explains it. */
  cause?: string;
  /** A Paddock sample with no cause: what Paddock's main thread did over it, when that was read. */
  paddockLoop?: Sched;
  /** A sample through kube-apiserver with no cause: what its threads did over it, summed, when that was read. */
  kubeApiserverThreads?: Sched;
  /** A sample to a proxy with no cause: what its threads did over it, summed, when that was read. */
  proxyThreads?: Sched & { name: string };
  /** A sample with no cause: what the benchmark client's main thread did over it, when that was read. */
  clientLoop?: Sched;
  /** A watch delivery with no cause: the CPU time each process read spent over it. */
  cpuOver?: SampleCpu;
  /** A sample with no cause: the machine's stall time over it, when that was read. */
  pressure?: Pressure;
}

export interface TailsResult {
  factor: number;
  samples: number;
  /** Samples slower than `factor` × the median of their target. */
  count: number;
  /** Those with a named cause. */
  explained: number;
  /** Tails by cause, without its times ("unexplained" for the rest). */
  byCause: Record<string, number>;
  /** The targets with tails: how many, and how many explained. */
  byTarget: { scenario: string; target: string; median: number; samples: number; count: number; explained: number }[];
  /**
   * The tails kept, slowest first: every unexplained one, and the slowest named ones of each target (at
   * most {@link NAMED_KEPT_PER_TARGET}), so that one target's many do not hide another's few.
   */
  tails: Tail[];
}

/** A tail's cause: `text` as reported, `kind` the same without its times (what tails are counted by). */
interface Cause {
  kind: string;
  text: string;
}

type MonitorStalls = (onStall: (s: Stall) => void, opts?: { intervalMs?: number; minLoopMs?: number; minGcMs?: number }) => () => void;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { monitorStalls } = require('./probe/stall-monitor.cjs') as { monitorStalls: MonitorStalls };

/** A thread that waited for a CPU for at least half of `excess` (the sample's time beyond its median). */
function waitCause(thread: string, sched: Sched | undefined, excess: number): Cause | undefined {
  if (!sched || sched.waitMs < 0.5 * excess) return undefined;
  const ran = '(the machine\'s other processes ran)';
  return { kind: `${thread} waited for a CPU ${ran}`, text: `${thread} waited ${round(sched.waitMs)} ms for a CPU ${ran}` };
}

/**
 * The waits of the main threads a sample crossed (Paddock's event loop, the client's), together at least
 * half of `excess` (neither was alone, or its own cause would have been named first).
 */
function waitsTogetherCause(threads: [string, Sched | undefined][], excess: number): Cause | undefined {
  const waited = threads.filter(([, sched]) => sched && sched.waitMs > 0) as [string, Sched][];
  if (waited.length < 2 || waited.reduce((sum, [, sched]) => sum + sched.waitMs, 0) < 0.5 * excess) return undefined;
  const ran = '(the machine\'s other processes ran)';
  return {
    kind: `the threads it crossed waited for a CPU, together ${ran}`,
    text: `the threads it crossed waited for a CPU, together: ${waited.map(([name, sched]) => `${name} ${round(sched.waitMs)} ms`).join(', ')} ${ran}`,
  };
}

/**
 * A list that waited for kube-apiserver's watch cache to catch up with etcd: the longest wait of its
 * window was at least half of `excess` (cache-wait.ts says why that wait is the request's own).
 */
function cacheWaitCause(wait: CacheWait | undefined, excess: number): Cause | undefined {
  if (!wait || wait.atLeastMs < 0.5 * excess) return undefined;
  const why = '(a consistent list: the cache asks etcd for progress at most every 100 ms)';
  return {
    kind: `kube-apiserver: the list waited for its watch cache to catch up with etcd ${why}`,
    text: `kube-apiserver: the list waited ${round(wait.atLeastMs)}–${round(wait.atMostMs)} ms for its watch cache of ${wait.resource} to catch up with etcd ${why}`,
  };
}

/**
 * Slack on each side of a sample when a review is placed inside it: the sample's times are this process's
 * (its start from performance.timeOrigin + performance.now(), which runs up to a ms from the wall clock),
 * the review's kube-apiserver's audit timestamps (the wall clock), in whole ms.
 */
const REVIEW_SLACK_MS = 3;

/**
 * A Paddock request that waited for a review: kube-apiserver received and answered one within the sample,
 * taking at least half of `excess`. Renewals of answers in use, which no request waits for, are not among
 * `reviews` (the audit log tells them by their User-Agent).
 */
function reviewCause(reviews: readonly PaddockReview[], sample: Sample, excess: number): Cause | undefined {
  const [from, to] = [sample.start - REVIEW_SLACK_MS, sample.start + sample.ms + REVIEW_SLACK_MS];
  let longest: PaddockReview | undefined;
  for (const r of reviews) {
    if (r.start >= from && r.end <= to && (!longest || r.end - r.start > longest.end - longest.start)) longest = r;
  }
  if (!longest || longest.end - longest.start < 0.5 * excess) return undefined;
  const kind = longest.resource === 'tokenreviews' ? 'a TokenReview' : 'a SubjectAccessReview';
  const why = '(its answer for the caller had expired, or was never asked)';
  return { kind: `Paddock waited for kube-apiserver to answer ${kind} ${why}`, text: `Paddock waited for kube-apiserver to answer ${kind}, ${round(longest.end - longest.start)} ms ${why}` };
}

/**
 * A watch delivery that was late because kube-apiserver's own watch delivered the change late: it reached
 * the direct watch at least half of the delivery's time beyond its target's median after the write.
 */
function upstreamCause(sample: Sample, median: number): Cause | undefined {
  if (sample.upstreamMs === undefined || sample.upstreamMs - median < 0.5 * (sample.ms - median)) return undefined;
  const text = 'kube-apiserver: its own watch delivered the change late too';
  return { kind: text, text };
}

/** Where a process's stalls overlap [start, end], and which stall overlaps most. */
function overlapOf(stalls: readonly Stall[], start: number, end: number): { ms: number; gcMs: number; largest?: Stall; largestGc?: Stall } {
  let ms = 0;
  let gcMs = 0;
  let largest: Stall | undefined;
  let largestGc: Stall | undefined;
  for (const s of stalls) {
    const o = Math.min(end, s.start + s.ms) - Math.max(start, s.start);
    if (o <= 0) continue;
    if (s.kind.endsWith('GC')) {
      gcMs += o;
      if (!largestGc || s.ms > largestGc.ms) largestGc = s;
    } else {
      ms += o;
      if (!largest || s.ms > largest.ms) largest = s;
    }
  }
  return { ms, gcMs, largest, largestGc };
}

/**
 * A process's stalls during the sample that account for at least half of `excess`. A GC pause is named
 * when GC was at least half of the stalled time.
 */
function stallCause(name: string, stalls: readonly Stall[], sample: Sample, excess: number): Cause | undefined {
  const o = overlapOf(stalls, sample.start, sample.start + sample.ms);
  const stalled = Math.max(o.ms, o.gcMs);
  if (stalled < 0.5 * excess) return undefined;
  const text = o.largestGc && o.gcMs >= 0.5 * stalled ? `${name}: ${o.largestGc.kind}` : `${name}: event loop blocked (not GC)`;
  return { kind: text, text };
}

/**
 * A server's threads (`name`'s) ran at least half of `excess` longer over the sample than over its
 * target's median sample (`usualCpuMs`): work of its own beside the request, on a machine of two CPUs.
 */
function busyCause(name: string, cpu: { ms?: number; usual?: string; usualMs?: number }, excess: number,
  other = '(other work of its own: its garbage collector, other clients)', threads = 'its threads'): Cause | undefined {
  if (cpu.ms === undefined || cpu.usualMs === undefined || cpu.ms - cpu.usualMs < 0.5 * excess) return undefined;
  return { kind: `${name} was busy ${other}`, text: `${name} was busy: ${threads} ran ${round(cpu.ms)} ms over the sample, ${round(cpu.usualMs)} ms ${cpu.usual} ${other}` };
}

/** What a process usually spends over a sample of a target: the CPU time (ms) or rate (ms per ms) of its median sample. */
interface Usual {
  cpuMs?: number;
  rate?: number;
}

/**
 * A process's CPU time over `s` beside its usual: a reading around the request (schedstat) beside the
 * target's median one; a CPU timeline's (a watch delivery) beside the target's median rate over as long.
 */
function cpuBeside(s: Sample, read: (s: Sample) => number | undefined, usual: Usual): { ms?: number; usual?: string; usualMs?: number } {
  const ms = read(s);
  if (ms === undefined) return {};
  if (s.sched) return { ms, usual: 'over its target\'s median one', usualMs: usual.cpuMs };
  return { ms, usual: 'at its target\'s median rate over as long', usualMs: usual.rate === undefined ? undefined : usual.rate * s.ms };
}

/** The usual of `read` over a target's samples: the median CPU time of those read around them, the median rate of the others. */
function usualOf(group: readonly Sample[], read: (s: Sample) => number | undefined): Usual {
  const around: number[] = [];
  const rates: number[] = [];
  for (const s of group) {
    const ms = read(s);
    if (ms === undefined) continue;
    if (s.sched) around.push(ms);
    else if (s.ms > 0) rates.push(ms / s.ms);
  }
  return { ...(around.length ? { cpuMs: medianOf(around) } : {}), ...(rates.length ? { rate: medianOf(rates) } : {}) };
}

/** kube-apiserver's CPU time over a sample: its threads' schedstat read around it, else its CPU timeline's. */
const apiserverCpuOf = (s: Sample) => s.sched?.kubeApiserver?.cpuMs ?? s.cpu?.kubeApiserver;
/** The proxy's, the same way. */
const proxyCpuOf = (s: Sample) => (s.sched?.proxy ? { name: s.sched.proxy.name, cpuMs: s.sched.proxy.threads.cpuMs } : s.cpu?.proxy);
const proxyMsOf = (s: Sample) => proxyCpuOf(s)?.cpuMs;
/** The benchmark client's main thread's. */
const clientCpuOf = (s: Sample) => s.sched?.client?.cpuMs ?? s.cpu?.client;

/** The first cause, in the order of this module's comment, of a tail of a target with `median`. */
function causeOf(s: Sample, median: number, usual: { apiserver: Usual; proxy: Usual; client: Usual }, paddock: PaddockSeen, clientStalls: readonly Stall[]): Cause | undefined {
  const excess = s.ms - median;
  const served = s.role === 'paddock';
  const proxy = s.sched?.proxy;
  const proxyCpu = proxyCpuOf(s);
  return (served ? waitCause('Paddock\'s event loop', s.sched?.paddock, excess) : undefined)
    ?? waitCause('the benchmark client', s.sched?.client, excess)
    ?? waitCause('kube-apiserver\'s threads (summed)', s.sched?.kubeApiserver, excess)
    ?? (proxy ? waitCause(`${proxy.name}'s threads (summed)`, proxy.threads, excess) : undefined)
    ?? waitsTogetherCause([['Paddock\'s event loop', served ? s.sched?.paddock : undefined], ['the benchmark client', s.sched?.client]], excess)
    ?? cacheWaitCause(s.cacheWait, excess)
    ?? (served ? reviewCause(paddock.reviews, s, excess) : undefined)
    ?? upstreamCause(s, median)
    ?? (served ? stallCause('Paddock', paddock.stalls, s, excess) : undefined)
    ?? stallCause('benchmark client', clientStalls, s, excess)
    ?? busyCause('kube-apiserver', cpuBeside(s, apiserverCpuOf, usual.apiserver), excess)
    ?? (proxyCpu ? busyCause(proxyCpu.name, cpuBeside(s, proxyMsOf, usual.proxy), excess) : undefined)
    ?? busyCause('the benchmark client', cpuBeside(s, clientCpuOf, usual.client), excess, '(work of its own between its stall monitor\'s ticks: a timer, a short GC)', 'its main thread');
}

/** CPU times as a tail reports them. */
function roundedCpu(c: SampleCpu): SampleCpu {
  return {
    ...(c.kubeApiserver !== undefined ? { kubeApiserver: round(c.kubeApiserver) } : {}),
    ...(c.proxy ? { proxy: { name: c.proxy.name, cpuMs: round(c.proxy.cpuMs) } } : {}),
    ...(c.client !== undefined ? { client: round(c.client) } : {}),
  };
}

/** A thread's accounting as a tail reports it. */
function rounded(s: Sched): Sched {
  return { cpuMs: round(s.cpuMs), waitMs: round(s.waitMs) };
}

/** A tail's cause as reported: its cause, or "unexplained" with what Paddock's main thread did, when known. */
export function describeCause(t: Tail): string {
  if (t.cause) return t.cause;
  const seen = [
    ...(t.paddockLoop ? [`Paddock's event loop on a CPU ${t.paddockLoop.cpuMs} ms, waiting ${t.paddockLoop.waitMs} ms`] : []),
    ...(t.kubeApiserverThreads ? [`kube-apiserver's threads on a CPU ${t.kubeApiserverThreads.cpuMs} ms, waiting ${t.kubeApiserverThreads.waitMs} ms`] : []),
    ...(t.proxyThreads ? [`${t.proxyThreads.name}'s threads on a CPU ${t.proxyThreads.cpuMs} ms, waiting ${t.proxyThreads.waitMs} ms`] : []),
    ...(t.clientLoop ? [`the client's main thread on a CPU ${t.clientLoop.cpuMs} ms, waiting ${t.clientLoop.waitMs} ms`] : []),
    ...(t.pressure ? [`the machine stalled on I/O ${t.pressure.ioMs} ms, on memory ${t.pressure.memoryMs} ms`] : []),
    ...(t.cpuOver ? [`CPU over it: ${[
      ...(t.cpuOver.kubeApiserver !== undefined ? [`kube-apiserver ${t.cpuOver.kubeApiserver} ms`] : []),
      ...(t.cpuOver.proxy ? [`${t.cpuOver.proxy.name} ${t.cpuOver.proxy.cpuMs} ms`] : []),
      ...(t.cpuOver.client !== undefined ? [`the client ${t.cpuOver.client} ms`] : []),
    ].join(', ')}`] : []),
  ];
  return `unexplained${seen.length > 0 ? ` (${seen.join('; ')})` : ''}`;
}

/** One key per target of a scenario. */
const targetKey = ({ scenario, target }: { scenario: string; target: string }) => `${scenario}\u0000${target}`;

/** What was recorded of Paddock over the samples: its stalls, and the reviews it asked of kube-apiserver. */
export interface PaddockSeen {
  stalls: readonly Stall[];
  reviews: readonly PaddockReview[];
}

/** Groups samples by target, finds each target's tails and names their causes. */
export function summarizeTails(samples: readonly Sample[], paddock: PaddockSeen, clientStalls: readonly Stall[]): TailsResult {
  const byTarget = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = targetKey(s);
    let group = byTarget.get(key);
    if (!group) byTarget.set(key, (group = []));
    group.push(s);
  }
  const found: { tail: Tail; kind: string }[] = [];
  const targets: TailsResult['byTarget'] = [];
  for (const group of byTarget.values()) {
    const median = medianOf(group.map((s) => s.ms));
    const usual = { apiserver: usualOf(group, apiserverCpuOf), proxy: usualOf(group, proxyMsOf), client: usualOf(group, clientCpuOf) };
    let count = 0;
    let explained = 0;
    for (const s of group) {
      if (s.ms <= TAIL_FACTOR * median) continue;
      const cause = causeOf(s, median, usual, paddock, clientStalls);
      const loop = !cause && s.role === 'paddock' ? s.sched?.paddock : undefined;
      const apiserver = !cause ? s.sched?.kubeApiserver : undefined;
      const proxy = !cause ? s.sched?.proxy : undefined;
      const client = !cause ? s.sched?.client : undefined;
      const pressure = !cause ? s.sched?.pressure : undefined;
      const cpu = !cause ? s.cpu : undefined;
      const tail: Tail = {
        scenario: s.scenario, target: s.target, ms: round(s.ms), median: round(median),
        ...(cause ? { cause: cause.text } : {}), ...(loop ? { paddockLoop: rounded(loop) } : {}),
        ...(apiserver ? { kubeApiserverThreads: rounded(apiserver) } : {}),
        ...(proxy ? { proxyThreads: { name: proxy.name, ...rounded(proxy.threads) } } : {}),
        ...(client ? { clientLoop: rounded(client) } : {}),
        ...(pressure ? { pressure: { ioMs: round(pressure.ioMs), memoryMs: round(pressure.memoryMs) } } : {}),
        ...(cpu ? { cpuOver: roundedCpu(cpu) } : {}),
      };
      found.push({ tail, kind: cause?.kind ?? 'unexplained' });
      count++;
      if (cause) explained++;
    }
    if (count) targets.push({ scenario: group[0].scenario, target: group[0].target, median: round(median), samples: group.length, count, explained });
  }
  found.sort((a, b) => b.tail.ms - a.tail.ms);
  const byCause: Record<string, number> = {};
  for (const { kind } of found) byCause[kind] = (byCause[kind] ?? 0) + 1;
  const namedOf = new Map<string, number>();
  const kept = found.filter(({ tail }) => {
    if (!tail.cause) return true;
    const key = targetKey(tail);
    const n = namedOf.get(key) ?? 0;
    namedOf.set(key, n + 1);
    return n < NAMED_KEPT_PER_TARGET;
  });
  return {
    factor: TAIL_FACTOR, samples: samples.length, count: found.length, explained: found.filter((f) => f.tail.cause).length, byCause, byTarget: targets,
    tails: kept.map((f) => f.tail),
  };
}

/** The samples of one run and the client's stalls; `tails` is the run's one recorder. */
export class TailRecorder {
  readonly #samples: Sample[] = [];
  readonly #clientStalls: Stall[] = [];
  #stop: (() => void) | undefined;

  /** Starts recording the benchmark process's own stalls. */
  start(): void {
    this.#stop ??= monitorStalls((s) => this.#clientStalls.push(s));
  }

  stop(): void {
    this.#stop?.();
    this.#stop = undefined;
  }

  /**
   * One sample: sent at `sentAt` (performance.now() of this process), taking `ms`, with what else was seen
   * over it (for a watch delivery, when a direct watch of kube-apiserver got the change).
   */
  record(of: SampleOf, sentAt: number, ms: number, seen: SampleSeen = {}): void {
    const { upstreamMs, sched, cacheWait, cpu } = seen;
    this.#samples.push({
      ...of, start: performance.timeOrigin + sentAt, ms, ...(upstreamMs === undefined ? {} : { upstreamMs }), ...(sched ? { sched } : {}), ...(cacheWait ? { cacheWait } : {}),
      ...(cpu ? { cpu } : {}),
    });
  }

  /** Where the samples recorded from now on begin: {@link summarize} from it takes only those. */
  mark(): number {
    return this.#samples.length;
  }

  /**
   * The tails of the samples recorded since `since` (a {@link mark}; every sample when 0), with Paddock's
   * stalls read from `paddock.stallsFile` once its probe has written those up to the last sample's end,
   * and the reviews it asked of kube-apiserver (`paddock.reviews`, when they can be read).
   */
  async summarize(paddock: { stallsFile: string; reviews?: () => readonly PaddockReview[] }, since = 0): Promise<TailsResult> {
    const samples = this.#samples.slice(since);
    const lastEnd = samples.reduce((end, s) => Math.max(end, s.start + s.ms), 0);
    const wait = lastEnd + PADDOCK_STALLS_LAG_MS - (performance.timeOrigin + performance.now());
    if (wait > 0) await sleep(wait);
    return summarizeTails(samples, { stalls: readStalls(paddock.stallsFile), reviews: paddock.reviews?.() ?? [] }, this.#clientStalls);
  }
}

export const tails = new TailRecorder();

function readStalls(file: string): Stall[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Stall);
}
