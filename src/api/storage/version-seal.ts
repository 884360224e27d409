import { createCipheriv, createHmac, createSecretKey, hkdfSync, timingSafeEqual, type Cipheriv, type KeyObject } from 'node:crypto';

/** The synthetic IV, which is also the tag that authenticates a sealed resourceVersion (128 bits). */
const TAG_BYTES = 16;
/** The shortest and longest text a sealed resourceVersion can be (one source; fifteen and a 253-byte row name). */
const MIN_CHARS = Math.ceil(((TAG_BYTES + 17) * 4) / 3);
const MAX_CHARS = Math.ceil(((TAG_BYTES + 1 + 16 * 15 + 1 + 253) * 4) / 3);
const SEALED = /^[A-Za-z0-9_-]+$/;
/** How long derived keys are used before the key source is read again (a rotated serving key). */
const KEY_REFRESH_MS = 10_000;

interface Keys {
  /** The HMAC-SHA256 key that makes the synthetic IV. */
  readonly mac: KeyObject;
  /**
   * AES-256 on single blocks (ECB, no padding), kept for the life of the key: CTR's keystream is the
   * encryption of its counter blocks, made here in one call without a cipher object per resourceVersion.
   */
  readonly blocks: Cipheriv;
}

/**
 * Seals resourceVersions so that a client can neither read nor make one: what a view's resourceVersion
 * says (the revisions and fingerprints of its sources, see resource-version.ts) is about every object of
 * those collections, including the ones the client may not see — a fingerprint in the clear confirms a
 * guessed hidden name, a revision says when a hidden collection changed — and positions a replica never
 * gave out together (one source's state from before a revocation, another's from after) would make a
 * replay judge today's content by yesterday's owners.
 *
 * The construction is SIV (deterministic authenticated encryption, RFC 5297's shape): the tag is
 * HMAC-SHA256 of the plaintext, cut to 128 bits; it is also the IV of AES-256-CTR over the plaintext;
 * the text is base64url(tag ‖ ciphertext). Opening decrypts and recomputes the tag. The same plaintext
 * always seals to the same text, so equal states give equal resourceVersions on every replica; different
 * ones share nothing a client can compare.
 *
 * The keys are derived (HKDF) from a secret every replica shares and clients do not have — the serving
 * certificate's private key (one per APIService Service) — so a resourceVersion from one replica opens on
 * the other, and on either after a restart. After the key rotates, those sealed with the previous key
 * still open; older ones do not (the client is told 410 Expired and relists once).
 */
export class ResourceVersionSeal {
  #keys: Keys[] = [];
  #source: Buffer | undefined;
  #readAt = -Infinity;
  /** Why the last read gave no key, while none has ever been read: what sealing without one throws. */
  #unreadable: unknown;
  /** The last plaintext sealed, and with which keys: a list's resourceVersion repeats until a source changes. */
  #last: { plain: Buffer; keys: Keys; sealed: string } | undefined;

  constructor(readonly keySource: () => Buffer | string) {}

  /** `plain`, sealed with the current key. */
  seal(plain: Buffer): string {
    const keys = this.#current()[0];
    // No key yet, and none until the next read (reads are 10 s apart): nothing can be sealed.
    if (!keys) throw this.#unreadable;
    const last = this.#last;
    if (last && last.keys === keys && last.plain.equals(plain)) return last.sealed;
    const tag = this.#tag(keys, plain);
    const sealed = Buffer.concat([tag, this.#ctr(keys, tag, plain)]).toString('base64url');
    this.#last = { plain, keys, sealed };
    return sealed;
  }

  /**
   * The plaintext of a sealed resourceVersion; undefined when `text` was not sealed by a replica with the
   * current or the previous key (or altered since). Nothing is decrypted for text of the wrong shape.
   */
  open(text: string): Buffer | undefined {
    if (!ResourceVersionSeal.isSealedShape(text)) return undefined;
    const bytes = Buffer.from(text, 'base64url');
    // One text per resourceVersion: the unused low bits of the last character must be zero.
    if (bytes.toString('base64url') !== text) return undefined;
    const tag = bytes.subarray(0, TAG_BYTES);
    for (const keys of this.#current()) {
      const plain = this.#ctr(keys, tag, bytes.subarray(TAG_BYTES));
      if (timingSafeEqual(this.#tag(keys, plain), tag)) return plain;
    }
    return undefined;
  }

  /** Whether `text` has the alphabet and length of a sealed resourceVersion (base64url, without padding). */
  static isSealedShape(text: string): boolean {
    return text.length >= MIN_CHARS && text.length <= MAX_CHARS && text.length % 4 !== 1 && SEALED.test(text);
  }

  #tag(keys: Keys, plain: Buffer): Buffer {
    return createHmac('sha256', keys.mac).update(plain).digest().subarray(0, TAG_BYTES);
  }

  /**
   * AES-256-CTR from counter block `iv` (the counter a 128-bit big-endian integer, as OpenSSL's
   * aes-256-ctr counts): encryption and decryption are the same operation.
   */
  #ctr(keys: Keys, iv: Buffer, data: Buffer): Buffer {
    const count = Math.ceil(data.length / 16);
    const counters = Buffer.allocUnsafe(count * 16);
    for (let b = 0; b < count; b++) {
      const at = b * 16;
      iv.copy(counters, at);
      for (let j = 15, carry = b; j >= 0 && carry > 0; j--) {
        const sum = counters[at + j] + carry;
        counters[at + j] = sum & 0xff;
        carry = sum >>> 8;
      }
    }
    const out = keys.blocks.update(counters).subarray(0, data.length);
    for (let i = 0; i < data.length; i++) out[i] ^= data[i];
    return out;
  }

  /** The current keys first, then the previous ones. */
  #current(): Keys[] {
    const now = Date.now();
    if (now - this.#readAt > KEY_REFRESH_MS) {
      this.#readAt = now;
      let source: Buffer;
      try {
        const raw = this.keySource();
        source = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
      } catch (err) {
        // A key that cannot be read for a moment (a mounted Secret's files swapped) leaves the keys in
        // use as they are, until the next read: a row's write never fails on it half done (a view's
        // rows are only ever the join of the sources now: see TenantNamespaceView). No key yet: nothing
        // can be sealed.
        if (this.#keys.length > 0) return this.#keys;
        this.#unreadable = err;
        throw err;
      }
      if (!this.#source || !source.equals(this.#source)) {
        this.#source = source;
        // KeyObjects, made once: an HMAC or cipher keyed by a Buffer imports the key again on every call.
        const derived = Buffer.from(hkdfSync('sha256', source, Buffer.alloc(0), 'paddock resourceVersion seal', 64));
        const blocks = createCipheriv('aes-256-ecb', createSecretKey(derived.subarray(32)), null).setAutoPadding(false);
        const keys = { mac: createSecretKey(derived.subarray(0, 32)), blocks };
        this.#keys = [keys, ...this.#keys].slice(0, 2);
      }
    }
    return this.#keys;
  }
}
