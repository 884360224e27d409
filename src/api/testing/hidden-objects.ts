import { hash } from 'node:crypto';

/**
 * A caller's attempt to learn, from two resourceVersions of a view it was given, that an object it may not
 * see was created or deleted between them: a view's positions once carried per source collection the XOR
 * of an unkeyed SHA-256 of `(key, resourceVersion)` over its objects, so one create or delete moved it by
 * exactly the hash of the guessed name and the object's resourceVersion. Given even the object's exact
 * resourceVersion, it tries every way positions could be read out of the strings: each 16 hex digits of
 * one against each of the other (text), and the same 8 bytes of both at every offset of their base64url
 * decoding (bytes). Not used by the program.
 */
export function confirmsHiddenObject(before: string, after: string, key: string, resourceVersion: string): boolean {
  const mark = hash('sha256', `${key}\u0000${resourceVersion}`, 'buffer').subarray(0, 8);
  const hex = (rv: string) => [...rv.matchAll(/[0-9a-f]{16}/g)].map((m) => Buffer.from(m[0], 'hex'));
  for (const x of hex(before)) for (const y of hex(after)) if (xor(x, y).equals(mark)) return true;
  const [x, y] = [Buffer.from(before, 'base64url'), Buffer.from(after, 'base64url')];
  for (let i = 0; i + 8 <= Math.min(x.length, y.length); i++) if (xor(x.subarray(i, i + 8), y.subarray(i, i + 8)).equals(mark)) return true;
  return false;
}

function xor(a: Buffer, b: Buffer): Buffer {
  return Buffer.from(a.map((v, i) => v ^ b[i]));
}
