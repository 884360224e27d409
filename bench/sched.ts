/**
 * The kernel's scheduler accounting of a process's main thread, from /proc/<pid>/schedstat: time on a CPU
 * and time runnable but waiting on a run queue. The main thread is the event loop, so a request it serves
 * waits when the thread waits: read around a request, the wait is what the machine's other processes took.
 * kube-apiserver's, and a proxy's in front of it, are read from all their threads, summed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { pressureDelta, pressureNow, type Pressure } from './pressure';
import { round } from './stats';

/** A thread's scheduler accounting (ms): on a CPU, and runnable but waiting for one (the run queue). */
export interface Sched {
  cpuMs: number;
  waitMs: number;
  /** Times the thread was put on a CPU: each wake-up from sleep (or a turn back after preemption) is one. */
  runs?: number;
}

/**
 * Over one sample: the client's main thread (this process), Paddock's when it was read, and every thread
 * of kube-apiserver summed when the request went through it (a Go server runs a request on whichever of
 * its threads is free: no one thread is the request's).
 */
export interface SampleSched {
  client: Sched;
  paddock?: Sched;
  kubeApiserver?: Sched;
  /** A proxy in front of kube-apiserver that served the sample (capsule-proxy), every thread summed. */
  proxy?: { name: string; threads: Sched };
  /** The machine's stall time over the sample: some task waiting for I/O, or for memory (pressure.ts). */
  pressure?: Pressure;
}

/** A process whose threads are read, summed, around each request it serves. */
export interface ServingProcess {
  name: string;
  pid: number;
}

/** The main thread's accounting of process `pid` (`self` for this one; `<pid>/task/<tid>` for a thread); undefined when it cannot be read. */
export function schedOf(pid: number | string): Sched | undefined {
  try {
    const [cpu, wait, runs] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpuMs: cpu / 1e6, waitMs: wait / 1e6, runs };
  } catch {
    return undefined;
  }
}

/** Each thread's accounting of process `pid`, by thread id; undefined when it cannot be read. */
export function threadsSchedOf(pid: number): Map<string, Sched> | undefined {
  try {
    const threads = new Map<string, Sched>();
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const sched = schedOf(`${pid}/task/${tid}`);
      if (sched) threads.set(tid, sched); // a thread that ended meanwhile is not counted
    }
    return threads;
  } catch {
    return undefined;
  }
}

/**
 * What the threads of `before` and `after` did in between, summed: a thread that ended is not counted, one
 * that started counts from its start.
 */
export function threadsDelta(before: Map<string, Sched> | undefined, after: Map<string, Sched> | undefined): Sched | undefined {
  if (!before || !after) return undefined;
  const sum: Required<Sched> = { cpuMs: 0, waitMs: 0, runs: 0 };
  for (const [tid, now] of after) {
    const d = schedDelta(before.get(tid) ?? { cpuMs: 0, waitMs: 0, runs: 0 }, now)!;
    sum.cpuMs += d.cpuMs;
    sum.waitMs += d.waitMs;
    sum.runs += d.runs ?? 0;
  }
  return sum;
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
 * Reads the accounting now, of this process, of `paddockPid`, of every thread of `kubeApiserverPid` and
 * of `proxy` when given, and the machine's stall totals; the function returned reads it again and gives
 * what passed in between (undefined when this process's could not be read).
 */
export function schedFrom(paddockPid: number | undefined, kubeApiserverPid?: number, proxy?: ServingProcess): () => SampleSched | undefined {
  const proxyBefore = proxy ? threadsSchedOf(proxy.pid) : undefined;
  const apiserverBefore = kubeApiserverPid ? threadsSchedOf(kubeApiserverPid) : undefined;
  const paddockBefore = paddockPid ? schedOf(paddockPid) : undefined;
  const pressureBefore = pressureNow();
  const clientBefore = schedOf('self');
  return () => {
    const client = schedDelta(clientBefore, schedOf('self'));
    const pressure = pressureDelta(pressureBefore, pressureNow());
    const paddock = schedDelta(paddockBefore, paddockPid ? schedOf(paddockPid) : undefined);
    const kubeApiserver = threadsDelta(apiserverBefore, kubeApiserverPid ? threadsSchedOf(kubeApiserverPid) : undefined);
    const proxyThreads = threadsDelta(proxyBefore, proxy ? threadsSchedOf(proxy.pid) : undefined);
    return client
      ? {
        client, ...(paddock ? { paddock } : {}), ...(kubeApiserver ? { kubeApiserver } : {}),
        ...(proxy && proxyThreads ? { proxy: { name: proxy.name, threads: proxyThreads } } : {}), ...(pressure ? { pressure } : {}),
      }
      : undefined;
  };
}

/**
 * Reads the accounting of every thread of `pid` but its main one (V8's workers: garbage collection and
 * compilation off the event loop; libuv's pool, and a profiler's sampler, when in use); the function
 * returned gives what they did since, summed.
 */
export function otherThreadsFrom(pid: number): () => Sched | undefined {
  const others = () => {
    const threads = threadsSchedOf(pid);
    threads?.delete(String(pid));
    return threads;
  };
  const before = others();
  return () => threadsDelta(before, others());
}
