/**
 * Reading a quantity string exactly as apimachinery's ParseQuantity does
 * (`^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$`, then the suffix must be a known one).
 *
 * Invariants of the result: the value is rounded away from zero to a whole number of nano-units;
 * a BinarySI value is clamped to ±(2^63−1) and written as DecimalSI when its magnitude is below 1.
 * `canonical` is set when upstream keeps the input text as the quantity's string form (it does so for
 * inputs it judges already canonical, taking `+1`, `01` and `1E3` as they are).
 */

import { abs, roundUpTo, type Decimal } from './decimal';
import { interpretSuffix, type QuantityFormat } from './suffix';

/** Input that is not a quantity; the message is upstream's. */
export class QuantityParseError extends Error {
  override readonly name = 'QuantityParseError';
}

const FORMAT_PATTERN = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
export const ERR_FORMAT_WRONG = `quantities must match the regular expression '${FORMAT_PATTERN}'`;
export const ERR_NUMERIC = 'unable to parse numeric part of quantity';
export const ERR_SUFFIX = "unable to parse quantity's suffix";

export interface ParsedQuantity extends Decimal {
  readonly format: QuantityFormat;
  readonly canonical?: string;
}

interface Parts {
  positive: boolean;
  /** The numeric text with sign and leading zeros, e.g. "-01.50". */
  value: string;
  /** Integer digits without leading zeros ("0" when none), and fraction digits. */
  num: string;
  denom: string;
  suffix: string;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const SUFFIX_LETTERS = 'eEinumkKMGTP';

/** Splits the text into its parts; only the shape is checked here, not the suffix's meaning. */
function split(str: string): Parts {
  const end = str.length;
  let pos = 0;
  let positive = true;
  if (str[0] === '-' || str[0] === '+') {
    positive = str[0] === '+';
    pos++;
  }
  while (str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };

  let i = pos;
  while (isDigit(str[i])) i++;
  let num = str.slice(pos, i);
  if (i >= end) return { positive, value: str, num, denom: '', suffix: '' };
  pos = i;
  if (num === '') num = '0';

  let denom = '';
  if (str[pos] === '.') {
    i = ++pos;
    while (isDigit(str[i])) i++;
    denom = str.slice(pos, i);
    if (i >= end) return { positive, value: str, num, denom, suffix: '' };
    pos = i;
  }
  const value = str.slice(0, pos);

  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(str[pos]!)) pos++;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  while (isDigit(str[pos])) pos++;
  if (pos < end) throw new QuantityParseError(ERR_FORMAT_WRONG);
  return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** A signed decimal with at least one digit ("1.", ".5", "-0.25"), as inf.Dec reads it. */
function parseDecimalText(text: string): Decimal | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (m === null) return undefined;
  const [, sign, int = '', frac = ''] = m;
  if (int === '' && frac === '') return undefined;
  const unscaled = BigInt(int + frac || '0');
  return { unscaled: sign === '-' ? -unscaled : unscaled, exponent: -frac.length };
}

const INT64_MAX = 2n ** 63n - 1n;
const NANO = -9;

/** @throws QuantityParseError */
export function parseQuantityText(str: string): ParsedQuantity {
  if (str.length === 0) throw new QuantityParseError(ERR_FORMAT_WRONG);
  if (str === '0') return { unscaled: 0n, exponent: 0, format: 'DecimalSI', canonical: str };

  const { positive, value, num, denom, suffix } = split(str);
  const meaning = interpretSuffix(suffix);
  if (meaning === undefined) throw new QuantityParseError(ERR_SUFFIX);
  const { base, exponent } = meaning;
  let { format } = meaning;

  // Fast path: few enough digits for upstream's int64 representation, kept exactly as written.
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (base === 10) {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  } else if (exponent >= 0 && denom.length === 0) {
    mantissa = 1n << BigInt(exponent);
    precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
  } else {
    precision = -1;
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const digits = BigInt(shifted);
      const magnitude = digits * mantissa;
      if (magnitude <= INT64_MAX) {
        const result = { unscaled: positive ? magnitude : -magnitude, exponent: scale, format };
        const looksCanonical =
          base === 2
            ? exponent % 10 === 0 && (digits & 7n) !== 0n
            : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return looksCanonical ? { ...result, canonical: str } : result;
      }
    }
  }

  // General path: arbitrary precision, rounded up to nano-units.
  const parsed = parseDecimalText(value);
  if (parsed === undefined) throw new QuantityParseError(ERR_NUMERIC);
  let amount: Decimal =
    base === 10
      ? { unscaled: abs(parsed.unscaled), exponent: parsed.exponent + exponent }
      : { unscaled: abs(parsed.unscaled) << BigInt(exponent), exponent: parsed.exponent };
  const negative = parsed.unscaled < 0n;
  amount = roundUpTo(amount, NANO);
  if (format === 'BinarySI') {
    if (exceedsInt64(amount)) amount = { unscaled: INT64_MAX, exponent: 0 };
    if (amount.unscaled !== 0n && belowOne(amount)) format = 'DecimalSI';
  }
  return { unscaled: negative ? -amount.unscaled : amount.unscaled, exponent: amount.exponent, format };
}

/** For a non-negative BinarySI amount, whose exponent lies in [-9, 0]. */
function exceedsInt64(d: Decimal): boolean {
  return d.unscaled > INT64_MAX * 10n ** BigInt(Math.max(0, -d.exponent));
}

function belowOne(d: Decimal): boolean {
  return d.unscaled < 10n ** BigInt(Math.max(0, -d.exponent));
}
