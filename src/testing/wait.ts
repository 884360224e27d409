/**
 * Waiting in tests, for unit and integration suites alike: one helper polls a condition against an
 * overall deadline and names what it waited for when it gives up. Not used by the program.
 */

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One turn of the event loop: pending I/O callbacks run before this resolves. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Polls `check` every `intervalMs` until it holds, and resolves with the milliseconds that took. Past
 * `timeoutMs` it throws an error naming `describe` and the last error `check` threw (a check that throws
 * counts as not holding yet). An interval of 0 looks again after every turn of the event loop.
 */
export async function waitFor(describe: string, check: () => boolean | Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<number> {
  const start = Date.now();
  const deadline = start + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await check()) return Date.now() - start;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) break;
    await (intervalMs > 0 ? sleep(intervalMs) : nextTurn());
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${describe}${lastError ? `: ${String(lastError)}` : ''}`);
}
