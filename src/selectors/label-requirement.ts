/**
 * One term of a label selector (`key op values`), validated, matched and printed as apimachinery's
 * labels.Requirement is. Operators carry upstream's names (`selection.Operator`).
 */

import { SelectorParseError } from './errors';
import { compareGoStrings, goJsonStrings, goQuote } from './go-format';
import { aggregate, invalidValue, validateLabelKey, validateLabelValue } from './label-validation';

export type LabelOperator = 'in' | 'notin' | '=' | '==' | '!=' | 'exists' | '!' | 'gt' | 'lt';

export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** As given; sets (`in`, `notin`) hold no duplicates when parsed from a string. */
  readonly values: readonly string[];
}

/** Labels as a plain object; `undefined` means no labels. Only own properties count as labels. */
export type Labels = Readonly<Record<string, string>> | undefined;

const INT64 = /^[+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64), or undefined when it would fail. */
function parseInt64(s: string): bigint | undefined {
  if (!INT64.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

/**
 * Validates a requirement as labels.NewRequirement does and returns it, or throws a
 * SelectorParseError whose message is upstream's aggregated field errors.
 */
export function newRequirement(key: string, operator: LabelOperator, values: readonly string[] | null): LabelRequirement {
  const vals = values ?? [];
  const errs: string[] = [];
  const keyErr = validateLabelKey(key, 'key');
  if (keyErr) errs.push(keyErr);
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) {
        errs.push(invalidValue('values', goJsonStrings(values), "for 'in', 'notin' operators, values set can't be empty"));
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) {
        errs.push(invalidValue('values', goJsonStrings(values), 'exact-match compatibility requires one single value'));
      }
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) {
        errs.push(invalidValue('values', goJsonStrings(values), 'values set must be empty for exists and does not exist'));
      }
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) {
        errs.push(invalidValue('values', goJsonStrings(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      }
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          errs.push(invalidValue(`values[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
        }
      });
      break;
  }
  vals.forEach((v, i) => {
    const err = validateLabelValue(key, v, `values[${i}]`);
    if (err) errs.push(err);
  });
  const message = aggregate(errs);
  if (message !== undefined) throw new SelectorParseError(message);
  return { key, operator, values: [...vals] };
}

function lookup(labels: Labels, key: string): string | undefined {
  return labels !== undefined && Object.hasOwn(labels, key) ? labels[key] : undefined;
}

/** Whether `labels` satisfy one requirement; an absent key satisfies only `!=`, `notin` and `!`. */
export function requirementMatches(r: LabelRequirement, labels: Labels): boolean {
  const value = lookup(labels, r.key);
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return value !== undefined && r.values.includes(value);
    case 'notin':
    case '!=':
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt':
    case 'lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const have = parseInt64(value);
      const want = parseInt64(r.values[0]!);
      if (have === undefined || want === undefined) return false;
      return r.operator === 'gt' ? have > want : have < want;
    }
  }
}

const INFIX: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** Canonical text of a requirement: values sorted, `in`/`notin` parenthesised (`x in (a,b)`, `!y`). */
export function requirementToString(r: LabelRequirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  const values = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareGoStrings).join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${INFIX[r.operator]}${set ? `(${values})` : values}`;
}
