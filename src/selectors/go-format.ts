/**
 * The few bits of Go formatting that leak into kube-apiserver's selector error messages and orderings,
 * reproduced so that messages and canonical strings match upstream byte for byte.
 */

/** Orders strings as Go's `sort.Strings` does: by UTF-8 bytes, which is the order of code points. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca < cb ? -1 : 1;
    if (ca > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Length of a string in UTF-8 bytes, the unit of Go's `len(string)` and of kube's length limits. */
export function byteLength(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

const SHORT_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** Printable as Go's `unicode.IsPrint` defines it: letters, marks, numbers, punctuation, symbols, ' '. */
const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

/** Go's `%q` (strconv.Quote) for a string. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) {
      out += short;
      continue;
    }
    const cp = ch.codePointAt(0)!;
    if (PRINTABLE.test(ch)) out += ch;
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp <= 0xffff) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out + '"';
}

/** Go's `json.Marshal` for a string slice (nil marshals as `null`; `<`, `>`, `&` are escaped). */
export function goJsonStrings(values: readonly string[] | null): string {
  return JSON.stringify(values)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
