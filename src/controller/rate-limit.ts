import { TokenBucket } from '../kube/token-bucket';

/** Decides how long a failing key waits before it is retried (client-go's workqueue RateLimiter). */
export interface RateLimiter<K> {
  /** Milliseconds `key` must wait now; counts one more failure of it. */
  when(key: K): number;
  /** Forget `key`'s failures (it succeeded). */
  forget(key: K): void;
  /** Failures counted for `key` since it was last forgotten. */
  numRequeues(key: K): number;
}

/**
 * Per-key exponential backoff: base·2^failures, capped (client-go defaults: 5 ms → 1000 s). Memory: one
 * counter per currently-failing key, dropped by `forget`.
 */
export class ItemExponentialFailureRateLimiter<K> implements RateLimiter<K> {
  readonly #failures = new Map<K, number>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs = 5, maxMs = 1_000_000) {
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  when(key: K): number {
    const exp = this.#failures.get(key) ?? 0;
    this.#failures.set(key, exp + 1);
    // 2^exp overflows to Infinity long before exp gets large; min() then caps it.
    return Math.min(this.#maxMs, this.#baseMs * 2 ** exp);
  }

  forget(key: K): void { this.#failures.delete(key); }

  numRequeues(key: K): number { return this.#failures.get(key) ?? 0; }
}

/** An overall token bucket shared by all keys (client-go default 10 qps, burst 100): bounds the retry storm. */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #bucket: TokenBucket;

  constructor(qps = 10, burst = 100, now?: () => number) {
    this.#bucket = new TokenBucket(qps, burst, now);
  }

  when(_key: K): number { return this.#bucket.reserve(); }
  forget(_key: K): void {}
  numRequeues(_key: K): number { return 0; }
}

/** The longest wait any of its limiters asks for; requeues are the maximum of theirs. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: readonly RateLimiter<K>[];

  constructor(...limiters: RateLimiter<K>[]) { this.#limiters = limiters; }

  when(key: K): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.when(key));
    return max;
  }

  forget(key: K): void { for (const l of this.#limiters) l.forget(key); }

  numRequeues(key: K): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.numRequeues(key));
    return max;
  }
}

/** client-go's DefaultControllerRateLimiter: max(per-key 5 ms → 1000 s, overall 10 qps / burst 100). */
export function defaultControllerRateLimiter<K>(): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(new ItemExponentialFailureRateLimiter<K>(5, 1_000_000), new BucketRateLimiter<K>(10, 100));
}
