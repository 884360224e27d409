import { onIoWait } from '../kube/io-wait';

/**
 * Cooperative time slices for work that may never wait for I/O. A reconcile that finds a converged
 * tenant reads only the cache: its promise chain resolves in microtasks, so a backlog of them (a resync
 * of every tenant, a burst of events) would run back to back without the event loop ever turning —
 * no watch event read, no response written, for as long as the backlog lasts.
 *
 * Units of work go through `run`. Invariants, within one turn of the event loop (from the first unit
 * started in it to its check phase):
 * - one unit at a time holds the turn: the next starts once it has finished or waits for the network
 *   (the client says so, kube/io-wait.ts). Units of several workers would otherwise all start at once
 *   and interleave at their awaits, and the turn would last as long as all of them together, whatever
 *   the budget;
 * - no unit starts once the turn has run for `budgetMs`: units that need no I/O never hold the loop
 *   longer than the budget plus one unit.
 * What a unit does after its I/O is answered runs outside the slices (a reconcile that wrote: its status).
 * Waiting units start in the order they asked.
 */
export class EventLoopSlice {
  /** The current turn (set when its first unit starts, cleared at its check phase). */
  #turn: object | undefined;
  #turnStarted = 0;
  /** The unit holding the current turn: started in it, neither finished nor waiting for I/O. */
  #holder: object | undefined;
  /** Units waiting to start, oldest first; woken when the holder lets go (budget left) or the turn ends. */
  readonly #waiting: (() => void)[] = [];

  constructor(readonly budgetMs: number) {}

  /** Runs `unit` as soon as the slice lets it start; resolves or rejects with it. */
  async run<T>(unit: () => Promise<T>): Promise<T> {
    // Behind whoever waits already; a wait needs a turn, whose end wakes every waiter.
    if (this.#turn !== undefined && (!this.#mayStart() || this.#waiting.length > 0)) {
      do await new Promise<void>((wake) => this.#waiting.push(wake));
      while (!this.#mayStart());
    }
    if (this.#turn === undefined) this.#beginTurn();
    const me = {};
    this.#holder = me;
    const letGo = () => {
      if (this.#holder !== me) return;
      this.#holder = undefined;
      if (performance.now() - this.#turnStarted < this.budgetMs) this.#waiting.shift()?.();
    };
    try {
      return await onIoWait(letGo, unit);
    } finally {
      letGo();
    }
  }

  #mayStart(): boolean {
    if (this.#turn === undefined) return true;
    return this.#holder === undefined && performance.now() - this.#turnStarted < this.budgetMs;
  }

  #beginTurn(): void {
    this.#turn = {};
    this.#turnStarted = performance.now();
    // The turn ends when the loop reaches its check phase; whoever waits then starts the next one.
    setImmediate(() => {
      this.#turn = undefined;
      this.#holder = undefined;
      for (const wake of this.#waiting.splice(0)) wake();
    });
  }
}
