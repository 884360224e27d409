/**
 * The CPU time of some processes, every thread summed, read every `intervalMs` from /proc/<pid>/stat (user
 * and system time, in clock ticks of 10 ms) while a watch phase runs: what each spent over one delivery is
 * read off the readings around it, and names a late delivery's busy process (tails.ts). One read of one
 * small file per process per tick: reading every thread's schedstat around each of a phase's ten thousand
 * deliveries, as list requests are read, would load the machine it measures.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The CPU time (ms) a /proc/<pid>/stat line gives: utime + stime (fields 14 and 15, proc(5)); undefined when malformed. */
export function statCpuMs(stat: string): number | undefined {
  // The command name (field 2) is in parentheses and may hold spaces and parentheses: the fields after
  // its last ')' are field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return fields.length > 12 && Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : undefined;
}

/**
 * The CPU time so far (ms) of what `/proc/<path>/stat` describes: a process, every thread (`<pid>`), or
 * one thread (`<pid>/task/<tid>`); undefined when it cannot be read.
 */
export function cpuMsOf(path: number | string): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/${path}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** This process's main thread, for a CpuTimeline: what the client's event loop ran. */
export const MAIN_THREAD = `${process.pid}/task/${process.pid}`;

export class CpuTimeline {
  readonly #names: string[];
  readonly #readings: { at: number; ms: (number | undefined)[] }[] = [];
  readonly #timer: NodeJS.Timeout;

  readonly #read: () => void;

  /** `paths` name what to read (see cpuMsOf); `cpuMs` and `now` are what reads it, and the clock. */
  constructor(paths: Record<string, number | string>, intervalMs = 20, cpuMs: (path: number | string) => number | undefined = cpuMsOf, now = () => performance.now()) {
    this.#names = Object.keys(paths);
    this.#read = () => void this.#readings.push({ at: now(), ms: this.#names.map((n) => cpuMs(paths[n])) });
    this.#read();
    this.#timer = setInterval(this.#read, intervalMs).unref();
  }

  /** Stops reading, after one last reading (what arrived since the last tick is placed too). */
  stop(): void {
    clearInterval(this.#timer);
    this.#read();
  }

  /**
   * Each process's CPU time (ms) between `from` and `to` (performance.now() of this process), interpolated
   * between the readings around each end; a process is absent when it was not read over the whole span.
   */
  over(from: number, to: number): Record<string, number> {
    const out: Record<string, number> = {};
    this.#names.forEach((name, i) => {
      const [a, b] = [this.#at(from, i), this.#at(to, i)];
      if (a !== undefined && b !== undefined) out[name] = Math.max(0, b - a);
    });
    return out;
  }

  /** Process `i`'s CPU time at `t`, interpolated; undefined outside the readings. */
  #at(t: number, i: number): number | undefined {
    const r = this.#readings;
    if (r.length === 0 || t < r[0].at || t > r[r.length - 1].at) return undefined;
    // The last reading at or before t (binary search: readings are in time order).
    let [lo, hi] = [0, r.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (r[mid].at <= t) lo = mid;
      else hi = mid - 1;
    }
    const before = r[lo].ms[i];
    if (before === undefined || t === r[lo].at) return before;
    const next = r[lo + 1];
    const after = next.ms[i];
    if (after === undefined) return undefined;
    return before + ((after - before) * (t - r[lo].at)) / (next.at - r[lo].at);
  }
}
