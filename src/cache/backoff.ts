/**
 * Jittered exponential backoff that never gives up (client-go reflector defaults: 800 ms doubling to a
 * 30 s cap, jitter 1.0 so each delay is in [d, 2d), reset to the start after 2 min without a backoff).
 */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** Each delay d becomes d + random·jitter·d. */
  jitter?: number;
  /** Start over once this long has passed since the previous delay. */
  resetMs?: number;
}

export class Backoff {
  readonly #initial: number;
  readonly #max: number;
  readonly #factor: number;
  readonly #jitter: number;
  readonly #reset: number;
  readonly #now: () => number;
  readonly #random: () => number;
  #current: number;
  #last = -Infinity;

  constructor(opts: BackoffOptions = {}, now: () => number = () => performance.now(), random: () => number = Math.random) {
    this.#initial = opts.initialMs ?? 800;
    this.#max = opts.maxMs ?? 30_000;
    this.#factor = opts.factor ?? 2;
    this.#jitter = opts.jitter ?? 1;
    this.#reset = opts.resetMs ?? 120_000;
    this.#now = now;
    this.#random = random;
    this.#current = this.#initial;
  }

  /** The next delay in milliseconds. */
  next(): number {
    const now = this.#now();
    if (now - this.#last > this.#reset) this.#current = this.#initial;
    this.#last = now;
    const base = this.#current;
    this.#current = Math.min(this.#max, this.#current * this.#factor);
    return base + this.#random() * this.#jitter * base;
  }
}

/** Resolves after `ms`, or early (without error) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => { clearTimeout(timer); signal?.removeEventListener('abort', done); resolve(); };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
