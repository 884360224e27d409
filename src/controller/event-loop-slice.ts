/**
 * Cooperative time slices for work that may never wait for I/O. A reconcile that finds a converged
 * tenant reads only the cache: its promise chain resolves in microtasks, so a backlog of them (a resync
 * of every tenant, a burst of events) would run back to back without the event loop ever turning —
 * no watch event read, no response written, for as long as the backlog lasts.
 *
 * Callers ask `pass()` between units of work. Invariant: within one turn of the event loop, once work
 * has run for `budgetMs` since the turn's first `pass()`, every caller waits for the next turn (one
 * shared pause), so the loop is never held longer than the budget plus one unit of work.
 */
export class EventLoopSlice {
  #started: number | undefined;
  #pause: Promise<void> | undefined;

  constructor(readonly budgetMs: number) {}

  /** undefined: go on at once; a promise: wait for it (the event loop's next turn). */
  pass(): Promise<void> | undefined {
    if (this.#pause) return this.#pause;
    const now = performance.now();
    if (this.#started === undefined) {
      this.#started = now;
      // The turn ends when the loop reaches its check phase: the next one starts a fresh slice.
      setImmediate(() => (this.#started = undefined));
      return undefined;
    }
    if (now - this.#started < this.budgetMs) return undefined;
    this.#pause = new Promise((resolve) => setImmediate(() => {
      this.#pause = undefined;
      this.#started = undefined;
      resolve();
    }));
    return this.#pause;
  }
}
