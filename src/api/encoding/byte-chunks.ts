import type { ChunkPool } from './chunk-pool';

/**
 * A body assembled from bytes into chunks of exactly `size` bytes (the last one shorter): each piece is
 * copied into the chunk being filled, and a piece that does not fit is split across chunks. Full chunks
 * wait in `ready` until the writer takes them, so that a body is written a chunk at a time and never held
 * whole. A chunk in `ready` is never written to again: the next one is taken when its first byte comes,
 * from a pool (chunk-pool.ts; the writer gives it back once written) or as a fresh allocation.
 *
 * Pieces that are already bytes (a row's cached encodings) are copied as they are; no text is joined,
 * flattened or encoded for them.
 */
export class ByteChunks {
  /** Chunks filled to `size`, oldest first, not yet taken. */
  readonly ready: Buffer[] = [];
  readonly size: number;
  readonly #pool: ChunkPool | undefined;
  #chunk: Buffer | undefined;
  #at = 0;
  #ended = false;

  /** `chunks`: the pool to borrow chunks from, or their size (each then a fresh allocation). */
  constructor(chunks: ChunkPool | number) {
    this.#pool = typeof chunks === 'number' ? undefined : chunks;
    this.size = typeof chunks === 'number' ? chunks : chunks.size;
  }

  /** Appends `bytes` (from `start` to before `end`). */
  put(bytes: Buffer, start = 0, end = bytes.length): void {
    while (start < end) {
      const chunk = this.#current();
      const room = this.size - this.#at;
      if (end - start < room) {
        this.#at += bytes.copy(chunk, this.#at, start, end);
        return;
      }
      bytes.copy(chunk, this.#at, start, start + room);
      this.#full();
      start += room;
    }
  }

  /** Appends `text` as UTF-8. */
  putText(text: string): void {
    const chunk = this.#current();
    // At most 3 bytes per UTF-16 unit: a text that surely fits is written in place, anything else via a copy.
    if (text.length * 3 < this.size - this.#at) this.#at += chunk.write(text, this.#at);
    else this.put(Buffer.from(text));
  }

  /** Appends one byte. */
  putByte(byte: number): void {
    this.#current()[this.#at++] = byte;
    if (this.#at === this.size) this.#full();
  }

  /** Ends the body: the last chunk (if any bytes are in it) joins `ready`. Nothing may be put after. */
  end(): void {
    if (this.#chunk && this.#at > 0) this.ready.push(this.#chunk.subarray(0, this.#at));
    this.#chunk = undefined;
    this.#ended = true;
  }

  #current(): Buffer {
    if (this.#ended) throw new Error('ByteChunks: put after end');
    return (this.#chunk ??= this.#pool ? this.#pool.take() : Buffer.allocUnsafeSlow(this.size));
  }

  #full(): void {
    this.ready.push(this.#chunk!);
    this.#chunk = undefined;
    this.#at = 0;
  }
}
