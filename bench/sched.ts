/**
 * The kernel's scheduler accounting of a process's main thread, from /proc/<pid>/schedstat: time on a CPU
 * and time runnable but waiting on a run queue. The main thread is the event loop, so a request it serves
 * waits when the thread waits: read around a request, the wait is what the machine's other processes took.
 */
import { readFileSync } from 'node:fs';
import { round } from './stats';

/** A thread's scheduler accounting (ms): on a CPU, and runnable but waiting for one (the run queue). */
export interface Sched {
  cpuMs: number;
  waitMs: number;
  /** Times the thread was put on a CPU: each wake-up from sleep (or a turn back after preemption) is one. */
  runs?: number;
}

/** Over one sample: the client's main thread (this process) and, when it was read, Paddock's. */
export interface SampleSched {
  client: Sched;
  paddock?: Sched;
}

/** The main thread's accounting of process `pid` (`self` for this one); undefined when it cannot be read. */
export function schedOf(pid: number | 'self'): Sched | undefined {
  try {
    const [cpu, wait, runs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpuMs: cpu / 1e6, waitMs: wait / 1e6, runs };
  } catch {
    return undefined;
  }
}

/** `after − before`, when both were read. */
export function schedDelta(before: Sched | undefined, after: Sched | undefined): Sched | undefined {
  if (!before || !after) return undefined;
  const runs = before.runs !== undefined && after.runs !== undefined ? { runs: after.runs - before.runs } : {};
  return { cpuMs: after.cpuMs - before.cpuMs, waitMs: after.waitMs - before.waitMs, ...runs };
}

/** `s` divided by `n` (per change, per second), rounded for a report. */
export function schedPer(s: Sched, n: number): Sched {
  return { cpuMs: round(s.cpuMs / n), waitMs: round(s.waitMs / n), ...(s.runs !== undefined ? { runs: round(s.runs / n) } : {}) };
}

/**
 * Reads the accounting now, of this process and of `paddockPid` when given; the function returned reads
 * it again and gives what passed in between (undefined when this process's could not be read).
 */
export function schedFrom(paddockPid: number | undefined): () => SampleSched | undefined {
  const paddockBefore = paddockPid ? schedOf(paddockPid) : undefined;
  const clientBefore = schedOf('self');
  return () => {
    const client = schedDelta(clientBefore, schedOf('self'));
    const paddock = schedDelta(paddockBefore, paddockPid ? schedOf(paddockPid) : undefined);
    return client ? { client, ...(paddock ? { paddock } : {}) } : undefined;
  };
}
