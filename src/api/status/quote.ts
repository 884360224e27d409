/**
 * Quotes a string the way Go's `%q` verb (strconv.Quote) does, so that messages built here read exactly
 * like kube-apiserver's (`tenantnamespaces.tenancy.paddock.dev "oil-dev" not found`). Printable Unicode
 * is kept, `"` and `\` are escaped, control characters become `\n`, `\t`, `\x1b`, `\u2028` and so on.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    switch (ch) {
      case '"': out += '\\"'; continue;
      case '\\': out += '\\\\'; continue;
      case '\x07': out += '\\a'; continue;
      case '\b': out += '\\b'; continue;
      case '\f': out += '\\f'; continue;
      case '\n': out += '\\n'; continue;
      case '\r': out += '\\r'; continue;
      case '\t': out += '\\t'; continue;
      case '\v': out += '\\v'; continue;
    }
    if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (isUnprintable(cp)) out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** Code points Go's strconv.IsPrint rejects that matter in practice: C1 controls, separators, lone surrogates, BOM. */
function isUnprintable(cp: number): boolean {
  return (cp >= 0x80 && cp <= 0xa0) || cp === 0xad || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff || (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x200b && cp <= 0x200f);
}

/** The longest piece of client input quoted in a message (characters). */
export const MAX_QUOTED_INPUT = 256;

/**
 * `s` cut to at most `max` characters, marked when cut: messages quote client input, and client input
 * may be as large as a request body. A cut never splits a surrogate pair.
 */
export function truncateForMessage(s: string, max = MAX_QUOTED_INPUT): string {
  if (s.length <= max) return s;
  let end = max;
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  return `${s.slice(0, end)}...(${s.length - end} more characters)`;
}
