import { workqueueAdds, workqueueDepth, workqueueLatency, workqueueRetries, workqueueWorkDuration } from '../metrics/workqueue';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limit';
import { DelayHeap } from './workqueue-delay';

export interface WorkQueueOptions<K> {
  /** Queue name: the `name` label of the workqueue metrics. */
  name: string;
  /** Defaults to client-go's DefaultControllerRateLimiter. */
  rateLimiter?: RateLimiter<K>;
  /** Clock for delays (ms); defaults to Date.now. */
  now?: () => number;
}

/**
 * A client-go style rate-limited delaying work queue of keys.
 *
 * Invariants: a key is queued at most once (the dirty set de-duplicates adds); a key is handed to at most
 * one worker at a time (the processing set): a key added while it is being processed is queued again only
 * when the worker calls `done`. Keys come out in FIFO order. `addAfter` holds a key until its time, and
 * only the earliest pending time of a key counts. After `shutDown` new adds are ignored; keys already
 * queued are still handed out, then `get` resolves `undefined`.
 */
export class WorkQueue<K = string> {
  readonly name: string;
  readonly #limiter: RateLimiter<K>;
  readonly #now: () => number;
  #queue: K[] = [];
  #head = 0;
  readonly #dirty = new Set<K>();
  readonly #processing = new Set<K>();
  readonly #queuedAt = new Map<K, number>();
  readonly #startedAt = new Map<K, number>();
  readonly #waiters: ((key: K | undefined) => void)[] = [];
  readonly #delayed = new DelayHeap<K>();
  #timer: NodeJS.Timeout | undefined;
  #timerAt = Infinity;
  #shuttingDown = false;
  #drainWaiters: (() => void)[] = [];

  constructor(opts: WorkQueueOptions<K>) {
    this.name = opts.name;
    this.#limiter = opts.rateLimiter ?? defaultControllerRateLimiter<K>();
    this.#now = opts.now ?? Date.now;
    workqueueDepth.set({ name: this.name }, 0);
  }

  /** Queues `key` unless it is already queued; if it is being processed it is queued again after `done`. */
  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    workqueueAdds.inc({ name: this.name });
    this.#dirty.add(key);
    if (this.#processing.has(key)) return;
    this.#enqueue(key);
  }

  /** Queues `key` after `ms`; if the key already waits for an earlier time, that time stands. */
  addAfter(key: K, ms: number): void {
    if (this.#shuttingDown) return;
    if (ms <= 0) return this.add(key);
    if (this.#delayed.schedule(key, this.#now() + ms)) this.#armTimer();
  }

  /** Queues `key` after the rate limiter's delay for it (one more failure counted). */
  addRateLimited(key: K): void {
    workqueueRetries.inc({ name: this.name });
    this.addAfter(key, this.#limiter.when(key));
  }

  /** Clears `key`'s failure count (call it when the key was processed successfully). */
  forget(key: K): void { this.#limiter.forget(key); }

  numRequeues(key: K): number { return this.#limiter.numRequeues(key); }

  /** Keys queued and ready (not counting delayed keys or keys being processed). */
  len(): number { return this.#queue.length - this.#head; }

  /** Keys waiting for their `addAfter` time. */
  delayedLen(): number { return this.#delayed.size; }

  shuttingDown(): boolean { return this.#shuttingDown; }

  /**
   * Resolves with the next key, marking it processing (the caller must call `done(key)`); waits while the
   * queue is empty; resolves `undefined` once the queue is shut down and empty.
   */
  get(): Promise<K | undefined> {
    if (this.len() > 0) return Promise.resolve(this.#take());
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /** Marks `key` as no longer processing; re-queues it if it was added meanwhile. */
  done(key: K): void {
    if (!this.#processing.delete(key)) return;
    const started = this.#startedAt.get(key);
    this.#startedAt.delete(key);
    if (started !== undefined) workqueueWorkDuration.observe({ name: this.name }, (performance.now() - started) / 1000);
    if (this.#dirty.has(key)) this.#enqueue(key);
    else if (this.#processing.size === 0) for (const wake of this.#drainWaiters.splice(0)) wake();
  }

  /** Stops accepting keys and drops delayed ones; waiting `get`s resolve `undefined` once the queue is empty. */
  shutDown(): void {
    if (!this.#shuttingDown) {
      this.#shuttingDown = true;
      clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#delayed.clear();
    }
    if (this.len() === 0) for (const resolve of this.#waiters.splice(0)) resolve(undefined);
  }

  /** Like shutDown, then resolves once every key handed out has been marked done. */
  shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#drainWaiters.push(resolve));
  }

  #enqueue(key: K): void {
    this.#queuedAt.set(key, performance.now());
    const waiter = this.#waiters.shift();
    if (waiter) {
      this.#queue.push(key);
      waiter(this.#take());
      return;
    }
    this.#queue.push(key);
    workqueueDepth.set({ name: this.name }, this.len());
  }

  #take(): K {
    const key = this.#queue[this.#head]!;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#queue.length) {
      this.#queue = this.#queue.slice(this.#head);
      this.#head = 0;
    }
    workqueueDepth.set({ name: this.name }, this.len());
    this.#dirty.delete(key);
    this.#processing.add(key);
    const queued = this.#queuedAt.get(key);
    this.#queuedAt.delete(key);
    const now = performance.now();
    if (queued !== undefined) workqueueLatency.observe({ name: this.name }, (now - queued) / 1000);
    this.#startedAt.set(key, now);
    return key;
  }

  #armTimer(): void {
    const next = this.#delayed.nextReadyAt();
    if (next === undefined || next >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = next;
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, next - this.#now()));
  }

  #fire(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    for (const key of this.#delayed.popReady(this.#now())) this.add(key);
    this.#armTimer();
  }
}
