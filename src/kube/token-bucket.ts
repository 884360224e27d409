/**
 * A token bucket (golang.org/x/time/rate semantics): `qps` tokens per second refill a bucket of `burst`
 * tokens. `reserve()` takes a token now and returns how long the caller must wait before using it;
 * tokens may go negative, so concurrent reservations queue up fairly instead of racing. `qps <= 0`
 * disables limiting.
 */
export class TokenBucket {
  readonly qps: number;
  readonly burst: number;
  #tokens: number;
  #last: number;
  readonly #now: () => number;

  constructor(qps: number, burst: number, now: () => number = () => performance.now()) {
    if (burst < 1 && qps > 0) throw new Error(`token bucket burst must be >= 1, got ${burst}`);
    this.qps = qps;
    this.burst = burst;
    this.#now = now;
    this.#tokens = burst;
    this.#last = now();
  }

  /** Takes one token; returns the milliseconds to wait before the caller may proceed (0 = at once). */
  reserve(): number {
    if (this.qps <= 0) return 0;
    this.#advance();
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : (-this.#tokens / this.qps) * 1000;
  }

  /** Tokens available now (negative while reservations are queued). */
  tokens(): number {
    if (this.qps <= 0) return Infinity;
    this.#advance();
    return this.#tokens;
  }

  /**
   * Takes a token and waits for it. Resolves with the milliseconds waited; rejects with the signal's
   * reason if aborted while waiting (the token is then returned).
   */
  async wait(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    const ms = this.reserve();
    if (ms <= 0) return 0;
    await new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        clearTimeout(timer);
        this.#tokens += 1;
        reject(signal!.reason);
      };
      const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    return ms;
  }

  #advance(): void {
    const now = this.#now();
    const elapsed = Math.max(0, now - this.#last) / 1000;
    this.#last = now;
    this.#tokens = Math.min(this.burst, this.#tokens + elapsed * this.qps);
  }
}
