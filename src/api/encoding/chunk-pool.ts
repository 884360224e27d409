/**
 * Chunks of one size, lent to a body being assembled (byte-chunks.ts) and given back once the
 * connection has written them, so that a list's bytes reuse a few chunks instead of costing fresh
 * memory on every request. Fresh chunks are memory outside V8's heap that V8 counts: a 10k-row Table
 * (6 MB) or a thousand small lists allocated anew each time bring a full garbage collection every few
 * megabytes, and with it the request that waits through it.
 *
 * Invariants: a chunk is lent to one body at a time, and only a chunk this pool lent can come back, once
 * per loan (lent chunks are known by their memory, held weakly: one never given back is simply
 * collected). A chunk is given back only when nothing reads it any more (see sendStream). At most
 * `keep` chunks wait between loans.
 */
export class ChunkPool {
  readonly #free: Buffer[] = [];
  readonly #lent = new WeakSet<ArrayBufferLike>();

  constructor(
    readonly size: number,
    readonly keep: number,
  ) {}

  /** A chunk of `size` bytes, with whatever it held before: the borrower writes before it reads. */
  take(): Buffer {
    const chunk = this.#free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    this.#lent.add(chunk.buffer);
    return chunk;
  }

  /** Gives back the chunk `view` is a view of, if this pool lent it and it is still on loan; ignores anything else. */
  give(view: Uint8Array): void {
    if (!this.#lent.delete(view.buffer)) return;
    if (this.#free.length < this.keep) this.#free.push(Buffer.from(view.buffer, 0, this.size));
  }

  /** Chunks waiting for a loan. */
  get idle(): number {
    return this.#free.length;
  }
}

/** Chunks of the size lists are written in: 64 KiB, 2 MiB kept at most (what two lists have in flight, see sendStream). */
export const listChunks = new ChunkPool(64 * 1024, 32);
