/**
 * A window of the cpu probe in Paddock (probe/cpu-probe.cjs) around a measurement, a profiling aid: with
 * PADDOCK_BENCH_PROFILE_DIR set, a CPU profile of Paddock over the window and the probe's summary of it.
 * The summary keeps no times, so it names no cause of a slow request: the run's tails do (tails.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from '../test/controlplane/processes';

/** The probe's summary of a window in Paddock. */
export interface PaddockWindow {
  gcPausesOver20ms: string[];
  eventLoopDelayMs: { p99: number; max: number };
}

/**
 * Opens a window when PADDOCK_BENCH_PROFILE_DIR is set and `toggleProfile` (which starts and stops the
 * probe) is given; `close` ends it and returns the probe's summary, or undefined when none was opened.
 */
export function openProfileWindow(toggleProfile: (() => void) | undefined): { close(): Promise<PaddockWindow | undefined> } {
  const dir = process.env.PADDOCK_BENCH_PROFILE_DIR;
  if (!dir || !toggleProfile) return { close: async () => undefined };
  const openedAt = Date.now();
  toggleProfile();
  return {
    async close() {
      toggleProfile();
      return probeWindowSince(dir, openedAt);
    },
  };
}

/** The probe's summary written after `since` (ms since the epoch): the window just closed. */
async function probeWindowSince(dir: string, since: number): Promise<PaddockWindow> {
  let file: string | undefined;
  await waitFor(`the cpu probe's summary in ${dir}`, async () => {
    file = readdirSync(dir).filter((f) => /^paddock-\d+\.json$/.test(f)).map((f) => join(dir, f)).find((f) => statSync(f).mtimeMs > since);
    return file !== undefined;
  }, 30_000, 100);
  return JSON.parse(readFileSync(file!, 'utf8')) as PaddockWindow;
}
