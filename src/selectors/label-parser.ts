/**
 * Recursive-descent parser for the label selector grammar of apimachinery's labels.Parse, with its
 * error messages:
 *
 *   selector    ::= requirement | requirement "," selector
 *   requirement ::= ["!"] KEY [ ("in" | "notin") "(" values ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 *
 * `in` and `notin` are keywords only where an operator is expected; as keys and values they are plain
 * identifiers. Set values are de-duplicated and sorted; `()` and empty list items mean the empty value.
 */

import { SelectorParseError } from './errors';
import { compareGoStrings } from './go-format';
import { tokenize, type Token, type TokenKind } from './label-lexer';
import { newRequirement, type LabelOperator, type LabelRequirement } from './label-requirement';
import { validateLabelKey } from './label-validation';

/** The binary operators in upstream's order, as its "expected:" messages list them. */
const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const OPERATOR_TOKENS: Partial<Record<TokenKind, LabelOperator>> = {
  in: 'in',
  notIn: 'notin',
  equals: '=',
  doubleEquals: '==',
  notEquals: '!=',
  greaterThan: 'gt',
  lessThan: 'lt',
};

const fail = (message: string): never => {
  throw new SelectorParseError(message);
};

class Parser {
  readonly #tokens: Token[];
  #position = 0;

  constructor(input: string) {
    this.#tokens = tokenize(input);
  }

  /** The current token; outside operator position the keywords read as identifiers. */
  #peek(asOperator = false): Token {
    return this.#asContext(this.#tokens[this.#position]!, asOperator);
  }

  #take(asOperator = false): Token {
    return this.#asContext(this.#tokens[this.#position++]!, asOperator);
  }

  #asContext(token: Token, asOperator: boolean): Token {
    if (!asOperator && (token.kind === 'in' || token.kind === 'notIn')) {
      return { kind: 'identifier', literal: token.literal };
    }
    return token;
  }

  parse(): LabelRequirement[] {
    const requirements: LabelRequirement[] = [];
    for (;;) {
      const { kind, literal } = this.#peek();
      if (kind === 'end') return requirements;
      if (kind !== 'identifier' && kind !== 'doesNotExist') {
        fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      }
      requirements.push(this.#requirementWithContext());
      const after = this.#take();
      if (after.kind === 'end') return requirements;
      if (after.kind !== 'comma') fail(`found '${after.literal}', expected: ',' or 'end of string'`);
      const next = this.#peek();
      if (next.kind !== 'identifier' && next.kind !== 'doesNotExist') {
        fail(`found '${next.literal}', expected: identifier after ','`);
      }
    }
  }

  #requirementWithContext(): LabelRequirement {
    try {
      return this.#requirement();
    } catch (e) {
      if (e instanceof SelectorParseError) throw new SelectorParseError(`unable to parse requirement: ${e.message}`);
      throw e;
    }
  }

  #requirement(): LabelRequirement {
    let token = this.#take();
    const negated = token.kind === 'doesNotExist';
    if (negated) token = this.#take();
    if (token.kind !== 'identifier') fail(`found '${token.literal}', expected: identifier`);
    const key = token.literal;
    const keyError = validateLabelKey(key, '<nil>');
    if (keyError) fail(keyError);
    const follower = this.#peek().kind;
    if (negated) return newRequirement(key, '!', []);
    if (follower === 'end' || follower === 'comma') return newRequirement(key, 'exists', []);

    const op = this.#take(true);
    const operator = OPERATOR_TOKENS[op.kind] ?? fail(`found '${op.literal}', expected: ${BINARY_OPERATORS}`);
    const values = operator === 'in' || operator === 'notin' ? this.#valueSet() : this.#exactValue();
    return newRequirement(key, operator, [...values].sort(compareGoStrings));
  }

  #valueSet(): Set<string> {
    const open = this.#take();
    if (open.kind !== 'openPar') fail(`found '${open.literal}' expected: '('`);
    const { kind, literal } = this.#peek();
    if (kind === 'closePar') {
      this.#take();
      return new Set(['']);
    }
    if (kind !== 'identifier' && kind !== 'comma') fail(`found '${literal}', expected: ',', ')' or identifier`);
    const values = this.#valueList();
    if (this.#take().kind !== 'closePar') fail(`found '${literal}', expected: ')'`);
    return values;
  }

  /** Comma-separated, possibly empty items; stops before the closing parenthesis. */
  #valueList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const token = this.#take();
      if (token.kind === 'identifier') {
        values.add(token.literal);
        const next = this.#peek();
        if (next.kind === 'closePar') return values;
        if (next.kind !== 'comma') fail(`found '${next.literal}', expected: ',' or ')'`);
      } else if (token.kind === 'comma') {
        if (values.size === 0) values.add('');
        const next = this.#peek().kind;
        if (next === 'closePar') {
          values.add('');
          return values;
        }
        if (next === 'comma') values.add('');
      } else {
        fail(`found '${token.literal}', expected: ',', or identifier`);
      }
    }
  }

  #exactValue(): Set<string> {
    const next = this.#peek().kind;
    if (next === 'end' || next === 'comma') return new Set(['']);
    const token = this.#take();
    if (token.kind !== 'identifier') fail(`found '${token.literal}', expected: identifier`);
    return new Set([token.literal]);
  }
}

/** Requirements of a selector string in source order, or a SelectorParseError with upstream's message. */
export function parseRequirements(input: string): LabelRequirement[] {
  return new Parser(input).parse();
}
