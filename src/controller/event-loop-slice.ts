/**
 * Cooperative time slices for work that may never wait for I/O. A reconcile that finds a converged
 * tenant reads only the cache: its promise chain resolves in microtasks, so a backlog of them (a resync
 * of every tenant, a burst of events) would run back to back without the event loop ever turning —
 * no watch event read, no response written, for as long as the backlog lasts.
 *
 * Units of work go through `run`. Invariants, within one turn of the event loop (from the first unit
 * started in it to its check phase):
 * - units run one at a time: a unit starts once the one before it in the turn has finished. Units of
 *   several workers would otherwise all start at once and interleave at their awaits, and the turn would
 *   last as long as all of them together, whatever the budget;
 * - no unit starts once the turn has run units for `budgetMs`: the loop is never held longer than the
 *   budget plus one unit.
 * A unit still running when its turn ends is waiting for I/O: the next turn's units do not wait for it.
 */
export class EventLoopSlice {
  /** The current turn (set when its first unit starts, cleared at its check phase). */
  #turn: object | undefined;
  #turnStarted = 0;
  /** A unit started in the current turn has not finished. */
  #running = false;
  /** Units waiting to start, woken when a unit of the turn finishes or the turn ends. */
  #waiting: (() => void)[] = [];

  constructor(readonly budgetMs: number) {}

  /** Runs `unit` as soon as the slice lets it start; resolves or rejects with it. */
  async run<T>(unit: () => Promise<T>): Promise<T> {
    while (!this.#mayStart()) await new Promise<void>((wake) => this.#waiting.push(wake));
    if (this.#turn === undefined) this.#beginTurn();
    const turn = this.#turn;
    this.#running = true;
    try {
      return await unit();
    } finally {
      if (this.#turn === turn) {
        this.#running = false;
        this.#waiting.shift()?.();
      }
    }
  }

  #mayStart(): boolean {
    if (this.#turn === undefined) return true;
    return !this.#running && performance.now() - this.#turnStarted < this.budgetMs;
  }

  #beginTurn(): void {
    this.#turn = {};
    this.#turnStarted = performance.now();
    // The turn ends when the loop reaches its check phase; whatever waits then starts the next one.
    setImmediate(() => {
      this.#turn = undefined;
      this.#running = false;
      for (const wake of this.#waiting.splice(0)) wake();
    });
  }
}
