import { existsSync, readFileSync } from 'node:fs';
import { sleep } from '../test/controlplane/processes';

/** Resident memory of a process from /proc/<pid>/status, in MiB: now (VmRSS) and peak (VmHWM). */
export function memoryOf(pid: number): { rssMiB: number; hwmMiB: number } {
  const text = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rssMiB: kb('VmRSS') / 1024, hwmMiB: kb('VmHWM') / 1024 };
}

/** The machine's memory available to new work without swapping (/proc/meminfo MemAvailable), in MiB. */
export function memAvailableMiB(): number {
  return Number(/^MemAvailable:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1] ?? NaN) / 1024;
}

/**
 * Whether the kernel gives each session a CPU scheduling group of its own (autogroup); undefined where it
 * cannot say. Every process the benchmark starts runs in a session of its own (bench/README.md).
 */
export function schedAutogroup(file = '/proc/sys/kernel/sched_autogroup_enabled'): boolean | undefined {
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim() === '1';
}

/** The name under which {@link RssSampler} reports the machine's available memory, when asked to. */
export const MACHINE_AVAILABLE = 'machineAvailable';

/**
 * Samples the RSS of some processes every `intervalMs` until stopped (and, with `machine`, the machine's
 * available memory as {@link MACHINE_AVAILABLE}); reports the peak, the mean and the least of each.
 */
export class RssSampler {
  readonly #samples = new Map<string, number[]>();
  readonly #timer: NodeJS.Timeout;

  constructor(readonly pids: Record<string, number>, intervalMs = 500, machine = false) {
    const probes: [string, () => number][] = Object.entries(pids).map(([name, pid]) => [name, () => memoryOf(pid).rssMiB]);
    if (machine) probes.push([MACHINE_AVAILABLE, memAvailableMiB]);
    for (const [name] of probes) this.#samples.set(name, []);
    const sample = () => {
      for (const [name, probe] of probes) {
        try {
          this.#samples.get(name)!.push(probe());
        } catch {
          /* the process is gone; the report shows what was sampled */
        }
      }
    };
    sample();
    this.#timer = setInterval(sample, intervalMs);
  }

  stop(): Record<string, { peakMiB: number; meanMiB: number; leastMiB: number }> {
    clearInterval(this.#timer);
    const out: Record<string, { peakMiB: number; meanMiB: number; leastMiB: number }> = {};
    for (const [name, xs] of this.#samples) {
      out[name] = { peakMiB: Math.max(...xs), meanMiB: xs.reduce((a, b) => a + b, 0) / (xs.length || 1), leastMiB: Math.min(...xs) };
    }
    return out;
  }
}

export interface HeapSample {
  heapUsed: number;
  heapTotal: number;
  rss: number;
  external: number;
  arrayBuffers: number;
  /** Of heapUsed, what holds compiled JavaScript (V8's code and trusted spaces), when the probe could tell. */
  codeBytes?: number;
  gc: boolean;
}

/**
 * Asks the heap probe preloaded into a Paddock process (bench/probe/heap-probe.cjs) for its memory after
 * a full GC, `samples` times; returns the sample with the least heap used.
 */
export async function heapOf(pid: number, file: string, samples = 3): Promise<HeapSample> {
  let best: HeapSample | undefined;
  for (let i = 0; i < samples; i++) {
    const asked = Date.now();
    process.kill(pid, 'SIGUSR2');
    const deadline = asked + 30_000;
    let got: (HeapSample & { at: number }) | undefined;
    while (Date.now() < deadline) {
      await sleep(100);
      if (!existsSync(file)) continue;
      const s = JSON.parse(readFileSync(file, 'utf8')) as HeapSample & { at: number };
      if (s.at >= asked) {
        got = s;
        break;
      }
    }
    if (!got) throw new Error('the heap probe did not answer (is NODE_OPTIONS honoured?)');
    if (!best || got.heapUsed < best.heapUsed) best = got;
    await sleep(300);
  }
  return best!;
}

/** Sums every series of one metric in a Prometheus text exposition, optionally filtered by a label. */
export function metricSum(text: string, name: string, label?: [string, string]): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/.exec(line);
    if (!m || m[1] !== name) continue;
    if (label && !(m[2] ?? '').includes(`${label[0]}="${label[1]}"`)) continue;
    sum += Number(m[3]);
  }
  return sum;
}

/** CPU time a process has used so far (user + system, /proc/<pid>/stat), in seconds. */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** USER_HZ: the unit of /proc/<pid>/stat times (100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * Waits until `pids` together use less than `cores` of CPU over each of two consecutive seconds (their
 * background work after a burst of writes is done), or `timeoutMs` has passed; returns the milliseconds
 * waited and whether they went quiet.
 */
export async function waitQuiet(pids: readonly number[], cores = 0.15, timeoutMs = 90_000): Promise<{ ms: number; quiet: boolean }> {
  const started = Date.now();
  const total = () => pids.reduce((s, pid) => s + cpuSecondsOf(pid), 0);
  let quietSeconds = 0;
  let last = total();
  while (Date.now() - started < timeoutMs) {
    await sleep(1000);
    const now = total();
    quietSeconds = now - last < cores ? quietSeconds + 1 : 0;
    last = now;
    if (quietSeconds >= 2) return { ms: Date.now() - started, quiet: true };
  }
  return { ms: Date.now() - started, quiet: false };
}
