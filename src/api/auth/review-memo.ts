/**
 * kube-apiserver's answers to reviews (TokenReview, SubjectAccessReview), reused for a time to live as
 * kube's delegated authenticator and authorizer reuse theirs, in a bounded map. Three rules:
 *
 * - **One review at a time per key**: uses of a key while its review is under way share that review.
 * - **No answer is used past its time to live**, counted from when it arrived.
 * - **An answer in use is renewed before it expires**: a use in the second half of its life is answered
 *   with it at once and asks again in the background; the new answer replaces it when it arrives. A key
 *   used at least once per half-life never makes a request wait for kube-apiserver, whose round trip is
 *   its tail when it is busy (a garbage collection, a list of every namespace for someone else). A key
 *   left unused expires, and its next use waits for a review as the first did.
 *
 * A review that fails is not an answer: nothing is stored, the use that waited for it fails with it, and
 * a failed renewal leaves the answer to expire on time. When the map is full the oldest insertion is
 * evicted first (a `Map` keeps insertion order; an answer stored again moves to the end), so memory never
 * grows past `maxEntries`.
 */
export class ReviewMemo<V> {
  readonly #entries = new Map<string, { value: V; renewAt: number; expiresAt: number }>();
  readonly #inFlight = new Map<string, Promise<V>>();
  readonly #maxEntries: number;
  readonly #ttlOf: (value: V) => number;
  readonly #now: () => number;

  /** `ttlOf` gives an answer's time to live in ms (allowed and denied answers may differ); non-positive stores nothing. */
  constructor(opts: { maxEntries: number; ttlOf: (value: V) => number; now?: () => number }) {
    if (!(opts.maxEntries > 0)) throw new Error(`maxEntries must be positive, got ${opts.maxEntries}`);
    this.#maxEntries = opts.maxEntries;
    this.#ttlOf = opts.ttlOf;
    this.#now = opts.now ?? Date.now;
  }

  /**
   * The answer for `key`: the stored one while it lives (renewed by `ask` in the background past its
   * half-life), else the one `ask` gives, shared with every use of `key` until it arrives.
   */
  get(key: string, ask: () => Promise<V>): Promise<V> {
    const entry = this.#entries.get(key);
    const now = this.#now();
    if (entry && entry.expiresAt > now) {
      if (entry.renewAt <= now && !this.#inFlight.has(key)) this.#review(key, ask).catch(() => {});
      return Promise.resolve(entry.value);
    }
    if (entry) this.#entries.delete(key);
    return this.#inFlight.get(key) ?? this.#review(key, ask);
  }

  get size(): number {
    return this.#entries.size;
  }

  #review(key: string, ask: () => Promise<V>): Promise<V> {
    const pending = ask()
      .then((value) => {
        this.#store(key, value);
        return value;
      })
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, pending);
    return pending;
  }

  #store(key: string, value: V): void {
    const ttl = this.#ttlOf(value);
    this.#entries.delete(key);
    if (ttl <= 0) return;
    while (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as string);
    const now = this.#now();
    this.#entries.set(key, { value, renewAt: now + ttl / 2, expiresAt: now + ttl });
  }
}
