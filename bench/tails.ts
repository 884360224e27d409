/**
 * The run's tails: every timed request and watch delivery of the list and watch scenarios is a sample,
 * and one slower than 10× the median of its target is a tail. Each tail gets a named cause when one was
 * recorded while it was under way: a GC pause or an event-loop stall of Paddock (recorded inside it by
 * probe/stall-probe.cjs) or of the benchmark's own process, which is the measuring client (recorded
 * here, the same way). Paddock's stalls can only explain samples Paddock served; the client's, any.
 */
import { existsSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { round } from './stats';

/** A sample slower than this many times its target's median is a tail. */
export const TAIL_FACTOR = 10;

export interface SampleOf {
  scenario: string;
  target: string;
  role: 'paddock' | 'baseline';
}

interface Sample extends SampleOf {
  /** Wall-clock ms when the request was sent (or the change written). */
  start: number;
  ms: number;
  /** A watch delivery's: when kube-apiserver's own watch delivered the change, ms after the write was sent. */
  upstreamMs?: number;
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
  /** What stalled meanwhile, e.g. "Paddock: major GC 41 ms"; absent when nothing recorded explains it. */
  cause?: string;
}

export interface TailsResult {
  factor: number;
  samples: number;
  /** Samples slower than `factor` × the median of their target. */
  count: number;
  /** Those with a named cause. */
  explained: number;
  /** Tails by cause ("unexplained" for the rest). */
  byCause: Record<string, number>;
  /** The targets with tails: how many, and how many explained. */
  byTarget: { scenario: string; target: string; median: number; samples: number; count: number; explained: number }[];
  /** Every tail, slowest first (at most 50). */
  tails: Tail[];
}

type MonitorStalls = (onStall: (s: Stall) => void, opts?: { intervalMs?: number; minLoopMs?: number; minGcMs?: number }) => () => void;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { monitorStalls } = require('./probe/stall-monitor.cjs') as { monitorStalls: MonitorStalls };

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
 * The cause of a tail in one process: its stalls during the sample account for at least half of the time
 * the sample took beyond its median. A GC pause is named when GC was at least half of the stalled time.
 */
function causeIn(name: string, stalls: readonly Stall[], sample: Sample, median: number): string | undefined {
  const o = overlapOf(stalls, sample.start, sample.start + sample.ms);
  const stalled = Math.max(o.ms, o.gcMs);
  if (stalled < 0.5 * (sample.ms - median)) return undefined;
  if (o.largestGc && o.gcMs >= 0.5 * stalled) return `${name}: ${o.largestGc.kind}`;
  return `${name}: event loop blocked (not GC)`;
}

/**
 * A watch delivery that was late because kube-apiserver's own watch delivered the change late: it reached
 * the direct watch at least half of the delivery's time beyond its target's median after the write.
 */
function upstreamCause(sample: Sample, median: number): string | undefined {
  if (sample.upstreamMs === undefined || sample.upstreamMs - median < 0.5 * (sample.ms - median)) return undefined;
  return 'kube-apiserver: its own watch delivered the change late too';
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
   * One sample: sent at `sentAt` (performance.now() of this process), taking `ms`; for a watch delivery,
   * `upstreamMs` after the write it reached a direct watch of kube-apiserver.
   */
  record(of: SampleOf, sentAt: number, ms: number, upstreamMs?: number): void {
    this.#samples.push({ ...of, start: performance.timeOrigin + sentAt, ms, ...(upstreamMs === undefined ? {} : { upstreamMs }) });
  }

  /** The tails of every sample so far, with Paddock's stalls read from `paddockStallsFile`. */
  summarize(paddockStallsFile: string): TailsResult {
    const paddock = readStalls(paddockStallsFile);
    return summarizeTails(this.#samples, paddock, this.#clientStalls);
  }
}

export const tails = new TailRecorder();

function readStalls(file: string): Stall[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Stall);
}

/** Groups samples by target, finds each target's tails and names their causes. */
export function summarizeTails(samples: readonly Sample[], paddockStalls: readonly Stall[], clientStalls: readonly Stall[]): TailsResult {
  const byTarget = new Map<string, Sample[]>();
  for (const s of samples) {
    const key = `${s.scenario}\u0000${s.target}`;
    let group = byTarget.get(key);
    if (!group) byTarget.set(key, (group = []));
    group.push(s);
  }
  const found: Tail[] = [];
  const targets: TailsResult['byTarget'] = [];
  for (const group of byTarget.values()) {
    const sorted = group.map((s) => s.ms).sort((a, b) => a - b);
    const median = sorted[Math.ceil(sorted.length / 2) - 1];
    const before = found.length;
    for (const s of group) {
      if (s.ms <= TAIL_FACTOR * median) continue;
      const cause = upstreamCause(s, median) ?? (s.role === 'paddock' ? causeIn('Paddock', paddockStalls, s, median) : undefined) ?? causeIn('benchmark client', clientStalls, s, median);
      found.push({ scenario: s.scenario, target: s.target, ms: round(s.ms), median: round(median), ...(cause ? { cause } : {}) });
    }
    const mine = found.slice(before);
    if (mine.length) targets.push({ scenario: group[0].scenario, target: group[0].target, median: round(median), samples: group.length, count: mine.length, explained: mine.filter((t) => t.cause).length });
  }
  found.sort((a, b) => b.ms - a.ms);
  const byCause: Record<string, number> = {};
  for (const t of found) byCause[t.cause ?? 'unexplained'] = (byCause[t.cause ?? 'unexplained'] ?? 0) + 1;
  return { factor: TAIL_FACTOR, samples: samples.length, count: found.length, explained: found.filter((t) => t.cause).length, byCause, byTarget: targets, tails: found.slice(0, 50) };
}
