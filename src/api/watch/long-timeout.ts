/**
 * The longest delay a Node.js timer keeps: a longer one (past 2^31 − 1 ms, about 24.8 days) is taken as
 * 1 ms, with only a warning.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once `ms` milliseconds have passed, however long that is: a delay a single timer cannot
 * hold is a chain of timers of at most MAX_TIMER_MS each, so it never fires early. An infinite delay never
 * fires. Returns the function that cancels it (idempotent).
 */
export function longTimeout(callback: () => void, ms: number): () => void {
  const deadline = performance.now() + ms;
  let timer: NodeJS.Timeout | undefined;
  const arm = (): void => {
    const left = deadline - performance.now();
    if (left <= MAX_TIMER_MS) timer = setTimeout(callback, Math.max(0, left));
    else timer = setTimeout(arm, MAX_TIMER_MS);
  };
  arm();
  return () => clearTimeout(timer);
}
