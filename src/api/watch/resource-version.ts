import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { SourcePosition } from '../../cache/history';

/**
 * The resourceVersions of a view: where a client stands in each source collection the view is joined
 * from (for TenantNamespaces: Namespaces, Tenants, ResourceQuotas), as `<rev>-<fingerprint>` per
 * source, joined by `.` — e.g. `8812-3fa4c0de11b2a7e9.8790-c2d1...`.
 *
 * The fingerprint names the state of the collection (see cache/history.ts), so a resourceVersion that
 * one replica issued means the same on every replica, and on this one after a restart. The revision is
 * the highest kube-apiserver revision the issuing replica had reached in that collection: a replica that
 * does not know the fingerprint and has not reached that revision is behind (it waits), one that has is
 * past it (410 Expired). Clients treat resourceVersions as opaque strings, as the API conventions ask.
 */
export function formatResourceVersion(positions: readonly SourcePosition[]): string {
  return positions.map((p) => `${p.rev}-${p.fingerprint}`).join('.');
}

const POSITION = /^(\d{1,16})-([0-9a-f]{16})$/;

/**
 * Reads a resourceVersion a client sent, for a view of `sources` collections: its positions;
 * `'foreign'` for one that is well-formed but not this view's (kube's, an earlier version's integer,
 * another view's); `'invalid'` for anything else.
 */
export function parseResourceVersion(rv: string, sources: number): SourcePosition[] | 'foreign' | 'invalid' {
  if (/^\d{1,19}$/.test(rv)) return 'foreign';
  if (rv.length > 40 * sources + 40) return 'invalid';
  const parts = rv.split('.');
  const positions: SourcePosition[] = [];
  for (const part of parts) {
    const m = POSITION.exec(part);
    if (!m) return 'invalid';
    positions.push({ rev: Number(m[1]), fingerprint: m[2] });
  }
  return positions.length === sources ? positions : 'foreign';
}

const MAC_LENGTH = 22; // base64url of 128 bits
const MAC = /^[A-Za-z0-9_-]{22}$/;
/** How long a derived key is used before the key source is read again (a rotated serving key). */
const KEY_REFRESH_MS = 10_000;

/**
 * Signs resourceVersions so that a client can only hand back one a replica gave out: positions that
 * never existed together (one source's state from before a revocation, another's from after) would make
 * a replay judge today's content by yesterday's owners. The key is derived from a secret every replica
 * shares and clients do not have — the serving certificate's private key (one per APIService Service) —
 * so a resourceVersion from one replica verifies on the other. After the key rotates, those signed with
 * the previous key still verify; older ones are 410 Expired (the client relists once).
 */
export class ResourceVersionSigner {
  #keys: KeyObject[] = [];
  #source: Buffer | undefined;
  #readAt = -Infinity;
  /** The last resourceVersion signed, and with which key: a list's repeats until a source changes. */
  #last: { positions: string; key: KeyObject; signed: string } | undefined;

  constructor(readonly keySource: () => Buffer | string) {}

  /** `positions` followed by `.` and its MAC. */
  sign(positions: string): string {
    const key = this.#current()[0];
    const last = this.#last;
    if (last && last.positions === positions && last.key === key) return last.signed;
    const signed = `${positions}.${this.#mac(key, positions)}`;
    this.#last = { positions, key, signed };
    return signed;
  }

  /** The positions of a signed resourceVersion, or undefined when it was not signed by a replica. */
  verify(rv: string): string | undefined {
    const dot = rv.lastIndexOf('.');
    const positions = rv.slice(0, dot);
    const mac = rv.slice(dot + 1);
    if (dot < 0 || !MAC.test(mac)) return undefined;
    const given = Buffer.from(mac);
    for (const key of this.#current()) {
      const expected = Buffer.from(this.#mac(key, positions));
      if (expected.length === given.length && timingSafeEqual(expected, given)) return positions;
    }
    return undefined;
  }

  #mac(key: KeyObject, positions: string): string {
    return createHmac('sha256', key).update(positions).digest('base64url').slice(0, MAC_LENGTH);
  }

  /** The current key first, then the previous one. */
  #current(): KeyObject[] {
    const now = Date.now();
    if (now - this.#readAt > KEY_REFRESH_MS) {
      this.#readAt = now;
      const raw = this.keySource();
      const source = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
      if (!this.#source || !source.equals(this.#source)) {
        this.#source = source;
        // A KeyObject, made once: an HMAC keyed by a Buffer imports the key again on every call.
        const key = createSecretKey(Buffer.from(hkdfSync('sha256', source, Buffer.alloc(0), 'paddock resourceVersion', 32)));
        this.#keys = [key, ...this.#keys].slice(0, 2);
      }
    }
    return this.#keys;
  }
}
