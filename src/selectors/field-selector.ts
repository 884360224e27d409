/**
 * Kubernetes field selectors, as kube-apiserver reads the `fieldSelector` query parameter
 * (apimachinery fields.ParseSelector): comma-separated `field=value`, `field==value` or `field!=value`
 * terms, ANDed. In values, `\,` `\=` `\\` stand for `,` `=` `\`; the field name takes no escapes and
 * ends at the first operator.
 *
 * Invariants: a FieldSelector is immutable; its terms are sorted by their source text (as upstream
 * sorts them), so `toString()` is canonical. A field the object does not have reads as "".
 */

import { SelectorParseError, UnsupportedFieldError } from './errors';
import { compareGoStrings } from './go-format';

export { SelectorParseError, UnsupportedFieldError } from './errors';

export interface FieldRequirement {
  readonly field: string;
  /** `==` parses as `=`. */
  readonly operator: '=' | '!=';
  /** Unescaped. */
  readonly value: string;
}

/** Field values of one object, e.g. `{"metadata.name": "oil-dev", "spec.tenant": "oil"}`. */
export type Fields = Readonly<Record<string, string>>;

export class FieldSelector {
  static readonly #everything = new FieldSelector([]);

  /** The selector that matches every object (an empty selector string). */
  static everything(): FieldSelector {
    return FieldSelector.#everything;
  }

  readonly requirements: readonly FieldRequirement[];

  private constructor(requirements: readonly FieldRequirement[]) {
    this.requirements = Object.freeze(requirements.map((r) => Object.freeze({ ...r })));
  }

  /** @internal Terms must already be in canonical order. */
  static fromSortedRequirements(requirements: readonly FieldRequirement[]): FieldSelector {
    return requirements.length === 0 ? FieldSelector.#everything : new FieldSelector(requirements);
  }

  matches(fields: Fields): boolean {
    return this.requirements.every((r) => {
      const value = Object.hasOwn(fields, r.field) ? fields[r.field] : '';
      return r.operator === '=' ? value === r.value : value !== r.value;
    });
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  /**
   * The value `field` must equal for an object to match (the first `=` term on it), or undefined. A
   * caller may use it for an index lookup (e.g. `metadata.name` → a single get), then still `matches()`.
   */
  requiredValue(field: string): string | undefined {
    return this.requirements.find((r) => r.field === field && r.operator === '=')?.value;
  }

  /** Canonical form with values re-escaped, e.g. `metadata.name=a\,b,status.phase!=Active`. */
  toString(): string {
    return this.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
  }
}

/** Escapes `\`, `,` and `=` so that any literal can be a field selector value. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/** Reverses escapeFieldValue; rejects unknown escapes, a trailing `\` and bare `,` or `=`. */
export function unescapeFieldValue(value: string): string {
  let out = '';
  let escaped = false;
  for (const c of value) {
    if (escaped) {
      if (c !== '\\' && c !== ',' && c !== '=') {
        throw new SelectorParseError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      out += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      // Upstream prints the rune with %v, i.e. as its code point number.
      throw new SelectorParseError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    } else {
      out += c;
    }
  }
  if (escaped) throw new SelectorParseError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas that are not escaped; escapes stay in the terms. */
function splitTerms(selector: string): string[] {
  if (selector.length === 0) return [];
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  let i = 0;
  for (const c of selector) {
    if (escaped) escaped = false;
    else if (c === '\\') escaped = true;
    else if (c === ',') {
      terms.push(selector.slice(start, i));
      start = i + 1;
    }
    i += c.length;
  }
  terms.push(selector.slice(start));
  return terms;
}

const OPERATORS = ['!=', '==', '='] as const;

/** Splits a term at its first operator; `==` is tried before `=` so it never leaves `=` in the value. */
function splitTerm(term: string): { field: string; op: (typeof OPERATORS)[number]; rest: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of OPERATORS) {
      if (term.startsWith(op, i)) return { field: term.slice(0, i), op, rest: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/**
 * Parses a field selector. Field names are not checked here; see validateFieldSelector.
 * @throws SelectorParseError with the message kube-apiserver gives for the same input.
 */
export function parseFieldSelector(selector: string): FieldSelector {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(selector).sort(compareGoStrings)) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (parts === undefined) throw new SelectorParseError(`invalid selector: '${selector}'; can't understand '${term}'`);
    const value = unescapeFieldValue(parts.rest);
    // Upstream drops a term whose field and value are both empty (`=`, `!=`): it restricts nothing.
    if (parts.field === '' && value === '') continue;
    requirements.push({ field: parts.field, operator: parts.op === '!=' ? '!=' : '=', value });
  }
  return FieldSelector.fromSortedRequirements(requirements);
}

/**
 * Checks that the selector names only `allowed` fields, as kube-apiserver does after parsing (through
 * the resource's field label conversion), reporting the first unsupported field in canonical order.
 * @throws UnsupportedFieldError (`field label not supported: <field>`), a 400 BadRequest.
 */
export function validateFieldSelector(selector: FieldSelector, allowed: ReadonlySet<string>): void {
  const unsupported = selector.requirements.find((r) => !allowed.has(r.field));
  if (unsupported !== undefined) throw new UnsupportedFieldError(unsupported.field);
}
