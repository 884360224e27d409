/**
 * A body assembled from bytes into chunks of exactly `size` bytes (the last one shorter): each piece is
 * copied into the chunk being filled, and a piece that does not fit is split across chunks. Full chunks
 * wait in `ready` until the writer takes them, so that a body is written a chunk at a time and never held
 * whole.
 *
 * Pieces that are already bytes (a row's cached encodings) are copied as they are; no text is joined,
 * flattened or encoded for them.
 */
export class ByteChunks {
  /** Chunks filled to `size`, oldest first, not yet taken. */
  readonly ready: Buffer[] = [];
  #chunk: Buffer;
  #at = 0;

  constructor(readonly size: number) {
    this.#chunk = Buffer.allocUnsafeSlow(size);
  }

  /** Appends `bytes`. */
  put(bytes: Uint8Array): void {
    const room = this.size - this.#at;
    if (bytes.length < room) {
      this.#chunk.set(bytes, this.#at);
      this.#at += bytes.length;
      return;
    }
    this.#chunk.set(bytes.subarray(0, room), this.#at);
    this.#next();
    if (bytes.length > room) this.put(bytes.subarray(room));
  }

  /** Appends `text` as UTF-8. */
  putText(text: string): void {
    const room = this.size - this.#at;
    // At most 3 bytes per UTF-16 unit: a text that surely fits is written in place, anything else via a copy.
    if (text.length * 3 <= room) this.#at += this.#chunk.write(text, this.#at);
    else this.put(Buffer.from(text));
    if (this.#at === this.size) this.#next();
  }

  /** Appends one byte. */
  putByte(byte: number): void {
    this.#chunk[this.#at++] = byte;
    if (this.#at === this.size) this.#next();
  }

  /** Ends the body: the last chunk (if any bytes are in it) joins `ready`. */
  end(): void {
    if (this.#at > 0) this.ready.push(this.#chunk.subarray(0, this.#at));
    this.#at = 0;
  }

  #next(): void {
    this.ready.push(this.#chunk);
    this.#chunk = Buffer.allocUnsafeSlow(this.size);
    this.#at = 0;
  }
}
