/**
 * The kernel's pressure stall information (PSI, /proc/pressure/<resource>): the time, summed since boot,
 * during which at least one task of the machine was stalled waiting for I/O, or for memory (reclaim,
 * swap-in, thrashing). A process so stalled is neither on a CPU nor waiting for one: schedstat shows it
 * idle. Read around a list request, it is shown beside a tail nothing else explains, never named its
 * cause: it is the whole machine's, and names no task that served the request (tails.ts).
 */
import { readFileSync } from 'node:fs';

/** Stall time of the machine (ms): at least one task waiting for I/O, or for memory. */
export interface Pressure {
  ioMs: number;
  memoryMs: number;
}

/** The `some` total of one resource (µs since boot, as ms); undefined when the kernel has no PSI. */
function someTotalMs(resource: 'io' | 'memory'): number | undefined {
  try {
    const some = readFileSync(`/proc/pressure/${resource}`, 'utf8').split('\n').find((l) => l.startsWith('some '));
    const total = Number(/\btotal=(\d+)/.exec(some ?? '')?.[1]);
    return Number.isFinite(total) ? total / 1000 : undefined;
  } catch {
    return undefined;
  }
}

/** The machine's stall totals now; undefined when they cannot be read. */
export function pressureNow(): Pressure | undefined {
  const ioMs = someTotalMs('io');
  const memoryMs = someTotalMs('memory');
  return ioMs === undefined || memoryMs === undefined ? undefined : { ioMs, memoryMs };
}

/** `after − before`, when both were read. */
export function pressureDelta(before: Pressure | undefined, after: Pressure | undefined): Pressure | undefined {
  return before && after ? { ioMs: after.ioMs - before.ioMs, memoryMs: after.memoryMs - before.memoryMs } : undefined;
}
