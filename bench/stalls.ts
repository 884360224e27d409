/**
 * Why a request was slow: every sequential request of a list measurement slower than {@link STALL_FACTOR}×
 * its target's median, with what overlapped it — Paddock's or the client's event loop waiting for a CPU
 * (the kernel's run-queue accounting of the main thread over the request), a garbage-collection pause of the benchmark client (seen
 * here, with its time), or, in Paddock, GC pauses over 20 ms and the worst event-loop delay of the window
 * (from the cpu probe, when PADDOCK_BENCH_PROFILE_DIR is set; the probe keeps no times, so a Paddock cause
 * is named when a pause or delay of the window is as long as the excess).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { waitFor } from '../test/controlplane/processes';
import { round } from './stats';

export const STALL_FACTOR = 10;

/** One timed request: its target, when it was sent (performance.now()) and how long it took. */
export interface Sample {
  target: string;
  /** Whether Paddock serves it (only then do Paddock's pauses and waits count as its cause). */
  paddock: boolean;
  startMs: number;
  ms: number;
  /** Over the request: time Paddock's and the client's main threads were on a CPU, and waited for one. */
  sched?: { paddock?: Sched; client: Sched };
}

/** A thread's scheduler accounting (ms): on a CPU, and runnable but waiting for one (the run queue). */
export interface Sched {
  cpuMs: number;
  waitMs: number;
}

/**
 * The main thread's scheduler accounting of process `pid` (`self` for this one), from
 * /proc/<pid>/schedstat: time on a CPU and time waiting on a run queue, in ns. The main thread is the
 * event loop: a request it serves waits when the thread waits.
 */
export function schedOf(pid: number | 'self'): Sched | undefined {
  try {
    const [cpu, wait] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpuMs: cpu / 1e6, waitMs: wait / 1e6 };
  } catch {
    return undefined;
  }
}

/** `after − before`, when both were read. */
export function schedDelta(before: Sched | undefined, after: Sched | undefined): Sched | undefined {
  return before && after ? { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs } : undefined;
}

export interface Stall {
  target: string;
  ms: number;
  medianMs: number;
  /** What overlapped it, or 'unexplained'. */
  cause: string;
}

/** The probe's summary of a window in Paddock (bench/probe/cpu-probe.cjs). */
export interface PaddockWindow {
  gcPausesOver20ms: string[];
  eventLoopDelayMs: { p99: number; max: number };
}

/** What a measurement saw beside its samples: the client's GC pauses, and Paddock's window if profiled. */
export class StallRecorder {
  readonly #clientGc: { startMs: number; ms: number }[] = [];
  readonly #observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.duration >= 5) this.#clientGc.push({ startMs: e.startTime, ms: e.duration });
  });

  readonly #startedAt = Date.now();

  /** `toggleProfile` starts and stops the probe's window in Paddock (when PADDOCK_BENCH_PROFILE_DIR is set). */
  constructor(private readonly toggleProfile?: () => void) {
    this.#observer.observe({ entryTypes: ['gc'] });
    if (process.env.PADDOCK_BENCH_PROFILE_DIR) this.toggleProfile?.();
  }

  /** Stops recording; returns the stalls among `samples` with their causes, and Paddock's window. */
  async stop(samples: readonly Sample[]): Promise<{ stalls: Stall[]; paddock?: PaddockWindow }> {
    this.#observer.disconnect();
    let paddock: PaddockWindow | undefined;
    const dir = process.env.PADDOCK_BENCH_PROFILE_DIR;
    if (dir && this.toggleProfile) {
      this.toggleProfile();
      paddock = await probeWindowSince(dir, this.#startedAt);
    }
    const medians = new Map<string, number>();
    for (const t of new Set(samples.map((s) => s.target))) {
      const ms = samples.filter((s) => s.target === t).map((s) => s.ms).sort((a, b) => a - b);
      medians.set(t, ms[Math.ceil(ms.length / 2) - 1]);
    }
    const stalls: Stall[] = [];
    for (const s of samples) {
      const median = medians.get(s.target)!;
      if (s.ms <= STALL_FACTOR * median) continue;
      const excess = s.ms - median;
      const gc = this.#clientGc.filter((g) => g.startMs < s.startMs + s.ms && g.startMs + g.ms > s.startMs).reduce((a, g) => a + g.ms, 0);
      const paddockGc = s.paddock ? Math.max(0, ...(paddock?.gcPausesOver20ms ?? []).map((p) => Number(p.split(' ')[1]))) : 0;
      const paddockWait = s.paddock ? s.sched?.paddock?.waitMs ?? 0 : 0;
      const clientWait = s.sched?.client.waitMs ?? 0;
      const cause = paddockWait >= excess / 2 ? `Paddock's event loop waited ${round(paddockWait)} ms for a CPU (the machine's other processes ran)`
        : clientWait >= excess / 2 ? `the benchmark client waited ${round(clientWait)} ms for a CPU (the machine's other processes ran)`
        : gc >= excess / 2 ? `benchmark client GC pause ${round(gc)} ms`
        : paddockGc >= excess / 2 ? `Paddock GC pause ${round(paddockGc)} ms in the window`
        : s.paddock && paddock && paddock.eventLoopDelayMs.max >= excess / 2 ? `Paddock event-loop delay ${round(paddock.eventLoopDelayMs.max)} ms in the window`
        : `unexplained${s.paddock && s.sched?.paddock ? ` (Paddock's event loop on a CPU ${round(s.sched.paddock.cpuMs)} ms, waiting ${round(paddockWait)} ms)` : ''}`;
      stalls.push({ target: s.target, ms: round(s.ms), medianMs: round(median), cause });
    }
    return { stalls, ...(paddock ? { paddock } : {}) };
  }
}

/** The probe's summary written after `since` (ms since the epoch): the window just ended. */
async function probeWindowSince(dir: string, since: number): Promise<PaddockWindow> {
  let file: string | undefined;
  await waitFor(`the cpu probe's summary in ${dir}`, async () => {
    file = readdirSync(dir).filter((f) => /^paddock-\d+\.json$/.test(f)).map((f) => join(dir, f)).find((f) => statSync(f).mtimeMs > since);
    return file !== undefined;
  }, 30_000, 100);
  return JSON.parse(readFileSync(file!, 'utf8')) as PaddockWindow;
}
