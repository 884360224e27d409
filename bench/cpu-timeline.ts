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

/** The CPU time of process `pid` so far (ms, all threads), or undefined when it cannot be read. */
export function cpuMsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: the fields after it from field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [utime, stime] = [Number(fields[11]), Number(fields[12])];
    return Number.isFinite(utime) && Number.isFinite(stime) ? ((utime + stime) * 1000) / TICKS_PER_SECOND : undefined;
  } catch {
    return undefined;
  }
}

export class CpuTimeline {
  readonly #names: string[];
  readonly #readings: { at: number; ms: (number | undefined)[] }[] = [];
  readonly #timer: NodeJS.Timeout;

  constructor(pids: Record<string, number>, intervalMs = 20) {
    this.#names = Object.keys(pids);
    const read = () => this.#readings.push({ at: performance.now(), ms: this.#names.map((n) => cpuMsOf(pids[n])) });
    read();
    this.#timer = setInterval(read, intervalMs);
  }

  stop(): void {
    clearInterval(this.#timer);
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
    const next = r[Math.min(lo + 1, r.length - 1)];
    const after = next.ms[i];
    if (before === undefined || after === undefined) return undefined;
    const span = next.at - r[lo].at;
    return span > 0 ? before + ((after - before) * (t - r[lo].at)) / span : before;
  }
}
