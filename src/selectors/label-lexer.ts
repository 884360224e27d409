/**
 * The label selector lexer, token for token as apimachinery's (pkg/labels/selector.go): whitespace is
 * ' ', '\t', '\r', '\n'; the special characters `= ! ( ) , > <` form the longest operator they spell;
 * every other run of characters is an identifier, or the keyword `in` / `notin`. A NUL character ends
 * a token and, where a token would start, the input — as the byte-oriented upstream lexer does.
 */

export type TokenKind =
  | 'end'
  | 'closePar'
  | 'comma'
  | 'doesNotExist'
  | 'doubleEquals'
  | 'equals'
  | 'greaterThan'
  | 'identifier'
  | 'in'
  | 'lessThan'
  | 'notEquals'
  | 'notIn'
  | 'openPar';

export interface Token {
  readonly kind: TokenKind;
  readonly literal: string;
}

const FIXED_TOKENS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  [')', 'closePar'],
  [',', 'comma'],
  ['!', 'doesNotExist'],
  ['==', 'doubleEquals'],
  ['=', 'equals'],
  ['>', 'greaterThan'],
  ['in', 'in'],
  ['<', 'lessThan'],
  ['!=', 'notEquals'],
  ['notin', 'notIn'],
  ['(', 'openPar'],
]);

const NUL = '\0';
const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecial = (ch: string): boolean => '=!(),><'.includes(ch);

class Lexer {
  #pos = 0;
  constructor(readonly input: string) {}

  /** The next character, or NUL at the end (where the position does not move). */
  #read(): string {
    if (this.#pos >= this.input.length) return NUL;
    return this.input[this.#pos++]!;
  }

  #unread(): void {
    this.#pos--;
  }

  next(): Token {
    let ch = this.#read();
    while (isWhitespace(ch)) ch = this.#read();
    if (ch === NUL) return { kind: 'end', literal: '' };
    this.#unread();
    return isSpecial(ch) ? this.#special() : this.#identifierOrKeyword();
  }

  #identifierOrKeyword(): Token {
    let text = '';
    for (;;) {
      const ch = this.#read();
      if (ch === NUL) break;
      if (isSpecial(ch) || isWhitespace(ch)) {
        this.#unread();
        break;
      }
      text += ch;
    }
    return { kind: FIXED_TOKENS.get(text) ?? 'identifier', literal: text };
  }

  /** Longest operator: keep reading special characters while the text read still spells one. */
  #special(): Token {
    let text = '';
    let last: Token | undefined;
    for (;;) {
      const ch = this.#read();
      if (ch === NUL) break;
      if (!isSpecial(ch)) {
        this.#unread();
        break;
      }
      text += ch;
      const kind = FIXED_TOKENS.get(text);
      if (kind !== undefined) {
        last = { kind, literal: text };
      } else if (last !== undefined) {
        this.#unread();
        break;
      }
    }
    // Every single special character is an operator, so `last` is always set here.
    return last!;
  }
}

/** All tokens of `input`, up to and including the first `end` token. */
export function tokenize(input: string): Token[] {
  const lexer = new Lexer(input);
  const tokens: Token[] = [];
  for (;;) {
    const token = lexer.next();
    tokens.push(token);
    if (token.kind === 'end') return tokens;
  }
}
