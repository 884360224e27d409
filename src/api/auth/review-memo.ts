/** Where in an answer's life a use renews it: past three quarters of its time to live. */
const RENEW_AT = 0.75;

/** After a renewal failed, how long uses wait before trying again (never past the answer's end). */
export const RENEW_RETRY_MS = 1_000;

/** The most renewals under way at once: past it, answers are used until they expire, then asked again. */
export const MAX_RENEWALS = 64;

export interface ReviewMemoOptions<V> {
  /** Most answers kept. */
  maxEntries: number;
  /**
   * Most characters of keys kept, all answers together (default: unbounded). A key holds what a request
   * names (a SubjectAccessReview's resource name comes from the URL), so entries alone do not bound memory.
   */
  maxKeyChars?: number;
  /** An answer's time to live in ms (allowed and denied answers may differ); non-positive stores nothing. */
  ttlOf(value: V): number;
  /**
   * Whether an answer in use is renewed before it expires (default: every one). A rejected token is not:
   * renewing it helps no caller.
   */
  renews?(value: V): boolean;
  /** Told how each renewal ended (a metric). */
  onRenewal?(outcome: 'answered' | 'failed'): void;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  /** When a use renews it (Infinity: never). */
  renewAt: number;
  expiresAt: number;
}

/**
 * kube-apiserver's answers to reviews (TokenReview, SubjectAccessReview), reused for a time to live as
 * kube's delegated authenticator and authorizer reuse theirs, in a bounded map. The rules:
 *
 * - **One review at a time per key**: a use that finds no live answer shares the review under way, if any.
 * - **No answer is used past its time to live**, counted from its arrival (as kube counts).
 * - **An answer in use is renewed before it expires**: a use past three quarters of its life is answered
 *   with it at once and asks again in the background; the new answer replaces it when it arrives. A key
 *   used at least that often never makes a request wait for kube-apiserver, whose round trip is its tail
 *   when it is busy (a garbage collection, a list of every namespace for someone else). A key left
 *   unused expires, and its next use waits for a review as the first did. Only the answers `renews`
 *   names are renewed; at most {@link MAX_RENEWALS} renewals run at once; a failed one is tried again by a use
 *   {@link RENEW_RETRY_MS} later at the soonest, so a failing kube-apiserver is not asked at the rate of
 *   requests.
 *
 * A review that fails is not an answer: nothing is stored, and the use that waited for it fails with it.
 * When the map is full — `maxEntries` answers, or `maxKeyChars` characters of keys — the oldest insertion
 * is evicted first (a `Map` keeps insertion order; an answer stored again moves to the end), so memory
 * never grows past either bound; a key longer than `maxKeyChars` alone is answered but never stored.
 */
export class ReviewMemo<V> {
  readonly #entries = new Map<string, Entry<V>>();
  /** Characters of the keys of #entries. */
  #keyChars = 0;
  readonly #inFlight = new Map<string, Promise<V>>();
  #renewals = 0;
  readonly #options: ReviewMemoOptions<V>;
  readonly #now: () => number;

  constructor(options: ReviewMemoOptions<V>) {
    if (!(options.maxEntries > 0)) throw new Error(`maxEntries must be positive, got ${options.maxEntries}`);
    if (options.maxKeyChars !== undefined && !(options.maxKeyChars > 0)) throw new Error(`maxKeyChars must be positive, got ${options.maxKeyChars}`);
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * The answer for `key`: the stored one while it lives (renewed by `ask` in the background once old
   * enough: `ask(true)`), else the one `ask` gives, shared with every use of `key` until it arrives.
   */
  get(key: string, ask: (renewal: boolean) => Promise<V>): Promise<V> {
    const entry = this.#entries.get(key);
    const now = this.#now();
    if (entry && entry.expiresAt > now) {
      if (entry.renewAt <= now && !this.#inFlight.has(key) && this.#renewals < MAX_RENEWALS) this.#renew(key, entry, ask);
      return Promise.resolve(entry.value);
    }
    if (entry) this.#drop(key);
    return this.#inFlight.get(key) ?? this.#review(key, ask, false);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Characters of the keys kept. */
  get keyChars(): number {
    return this.#keyChars;
  }

  #renew(key: string, entry: Entry<V>, ask: (renewal: boolean) => Promise<V>): void {
    this.#renewals++;
    this.#review(key, ask, true).then(
      () => this.#options.onRenewal?.('answered'),
      () => {
        // Tried again by a later use, not by every one meanwhile.
        entry.renewAt = Math.min(entry.expiresAt, this.#now() + RENEW_RETRY_MS);
        this.#options.onRenewal?.('failed');
      },
    ).finally(() => this.#renewals--);
  }

  #review(key: string, ask: (renewal: boolean) => Promise<V>, renewal: boolean): Promise<V> {
    let asked: Promise<V>;
    try {
      asked = ask(renewal);
    } catch (err) {
      // An `ask` that throws fails this review alone, never the use that renews.
      asked = Promise.reject(err);
    }
    const pending: Promise<V> = asked
      .then((value) => {
        this.#store(key, value);
        return value;
      })
      .finally(() => {
        if (this.#inFlight.get(key) === pending) this.#inFlight.delete(key);
      });
    this.#inFlight.set(key, pending);
    return pending;
  }

  #store(key: string, value: V): void {
    const ttl = this.#options.ttlOf(value);
    this.#drop(key);
    const maxKeyChars = this.#options.maxKeyChars ?? Infinity;
    if (ttl <= 0 || key.length > maxKeyChars) return;
    while (this.#entries.size > 0 && (this.#entries.size >= this.#options.maxEntries || this.#keyChars + key.length > maxKeyChars)) {
      this.#drop(this.#entries.keys().next().value as string);
    }
    this.#keyChars += key.length;
    const now = this.#now();
    const renews = this.#options.renews?.(value) ?? true;
    this.#entries.set(key, { value, renewAt: renews ? now + ttl * RENEW_AT : Infinity, expiresAt: now + ttl });
  }

  #drop(key: string): void {
    if (this.#entries.delete(key)) this.#keyChars -= key.length;
  }
}
