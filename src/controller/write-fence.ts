/** A write refused because this process may not write now (not leading, or its renew deadline passed). */
export class FencedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FencedError';
  }
}

/**
 * What happens when leadership is lost. controller-runtime exits the process. Paddock does not: every
 * replica also serves the aggregated API from the same process and cache, and exiting would drop every
 * client's watch and take this replica's API down until it has restarted and resynced, to stop a
 * reconciler that a fence can stop just as surely:
 *
 * - a term begins when the Lease is acquired and is extended by each renewal; writes are allowed only
 *   until `sentAt + renewDeadline` of the last successful acquire/renew request, judged by this
 *   process's monotonic clock (`performance.now()`), so wall-clock steps do not move it. Since
 *   renewDeadline < leaseDuration, and other candidates wait a whole leaseDuration from when *they*
 *   observe the last renewal (which is later than it was sent), a write allowed by the fence leaves
 *   before anyone else may lead, with leaseDuration - renewDeadline to spare for request latency;
 * - `check()` is called by the Writer after the client-side rate limiter, immediately before a request
 *   is sent, so a write that waited for a token past the deadline is never sent;
 * - the term's signal aborts when the term ends (loss observed, deadline passed, release), cancelling
 *   in-flight reconciles; the elector waits for them to finish before campaigning again, so two terms of
 *   one process never overlap.
 *
 * A term that ended stays ended: a renewal answered after its deadline does not reopen it.
 */
export class WriteFence {
  readonly #now: () => number;
  #term: AbortController | undefined;
  #until = -Infinity;
  #renewDeadlineMs = 0;
  #timer: NodeJS.Timeout | undefined;
  #closedBecause = 'no Lease acquired yet';

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** This fence's monotonic clock, in milliseconds (take `sentAt` from it). */
  now(): number {
    return this.#now();
  }

  /**
   * Begins a term: the Lease was acquired by a request sent at `sentAt`. Returns the term's signal, which
   * aborts when the term ends. Ends a term still open (it cannot be, but a term is never shared).
   */
  begin(sentAt: number, renewDeadlineMs: number): AbortSignal {
    this.end('a new term began');
    this.#term = new AbortController();
    this.#renewDeadlineMs = renewDeadlineMs;
    this.#until = sentAt + renewDeadlineMs;
    this.#arm();
    return this.#term.signal;
  }

  /**
   * A renewal sent at `sentAt` succeeded: writes are allowed until `sentAt + renewDeadline`. Returns false,
   * changing nothing, when the term already ended (its deadline passed before the answer came).
   */
  renewed(sentAt: number): boolean {
    if (!this.#open()) return false;
    this.#until = Math.max(this.#until, sentAt + this.#renewDeadlineMs);
    this.#arm();
    return true;
  }

  /** Ends the current term at once: writes are refused and the term's signal aborts with `reason`. */
  end(reason: string): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#until = -Infinity;
    const term = this.#term;
    if (term && !term.signal.aborted) {
      this.#closedBecause = reason;
      term.abort(new FencedError(`not leading: ${reason}`));
    }
  }

  /** Throws FencedError unless a term is open and its renew deadline has not passed. */
  check(): void {
    if (this.#open()) return;
    if (this.#term && !this.#term.signal.aborted) this.end('the renew deadline passed without a renewal');
    throw new FencedError(`not leading: ${this.#closedBecause}`);
  }

  /** The current term's signal; an aborted one when no term is open. */
  get signal(): AbortSignal {
    return this.#term?.signal ?? AbortSignal.abort(new FencedError(`not leading: ${this.#closedBecause}`));
  }

  /** Milliseconds until the renew deadline (0 once it passed or the term ended). */
  remainingMs(): number {
    return this.#open() ? this.#until - this.#now() : 0;
  }

  #open(): boolean {
    return this.#term !== undefined && !this.#term.signal.aborted && this.#now() < this.#until;
  }

  /** Ends the term when the deadline passes, so in-flight work is cancelled even if nobody writes. */
  #arm(): void {
    clearTimeout(this.#timer);
    const ms = this.#until - this.#now();
    this.#timer = setTimeout(() => {
      if (this.#now() >= this.#until) this.end('the renew deadline passed without a renewal');
      else this.#arm();
    }, Math.max(0, ms));
    this.#timer.unref();
  }
}
