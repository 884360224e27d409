/**
 * Exact decimal arithmetic on `unscaled × 10^exponent` with BigInt mantissas. Exponents stay plain
 * numbers, so a quantity like 1e999999999 costs nothing until an operation would have to write out
 * all its digits; such operations are refused (QuantityRangeError) instead of exhausting memory.
 */

/** Largest power of ten an operation may materialise. Real quantities need fewer than 40 digits. */
const MAX_DIGITS = 10_000;

/** An arithmetic result that would need more than MAX_DIGITS digits. */
export class QuantityRangeError extends RangeError {
  override readonly name = 'QuantityRangeError';
}

export interface Decimal {
  readonly unscaled: bigint;
  readonly exponent: number;
}

export function pow10(n: number): bigint {
  if (n > MAX_DIGITS) throw new QuantityRangeError(`quantity needs more than ${MAX_DIGITS} digits`);
  return 10n ** BigInt(n);
}

export const abs = (n: bigint): bigint => (n < 0n ? -n : n);
export const signOf = (n: bigint): -1 | 0 | 1 => (n === 0n ? 0 : n < 0n ? -1 : 1);
export const digitCount = (n: bigint): number => (n === 0n ? 0 : abs(n).toString().length);

/** Rounds to at most `minExponent` decimals, away from zero (inf.RoundUp). */
export function roundUpTo(d: Decimal, minExponent: number): Decimal {
  if (d.exponent >= minExponent || d.unscaled === 0n) return d;
  const shift = minExponent - d.exponent;
  const sign = d.unscaled < 0n ? -1n : 1n;
  const magnitude = abs(d.unscaled);
  // A magnitude with no more digits than the shift is below one unit: it rounds up to exactly one.
  if (digitCount(magnitude) <= shift) return { unscaled: sign, exponent: minExponent };
  const divisor = 10n ** BigInt(shift); // shift < digits of the operand
  const quotient = magnitude / divisor + (magnitude % divisor === 0n ? 0n : 1n);
  return { unscaled: sign * quotient, exponent: minExponent };
}

/** Exact comparison: -1, 0 or 1. Costs only the digits of the operands, whatever their exponents. */
export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const sa = signOf(a.unscaled);
  const sb = signOf(b.unscaled);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  // Same sign: order magnitudes by their number of integer digits first.
  const ma = digitCount(a.unscaled) + a.exponent;
  const mb = digitCount(b.unscaled) + b.exponent;
  if (ma !== mb) return ((ma > mb ? 1 : -1) * sa) as -1 | 1;
  // Equal digit positions bound the exponent gap by the operands' own digit counts.
  const exponent = Math.min(a.exponent, b.exponent);
  const x = a.unscaled * 10n ** BigInt(a.exponent - exponent);
  const y = b.unscaled * 10n ** BigInt(b.exponent - exponent);
  return x === y ? 0 : x < y ? -1 : 1;
}

/** Exact sum. */
export function add(a: Decimal, b: Decimal): Decimal {
  if (b.unscaled === 0n) return a;
  if (a.unscaled === 0n) return b;
  const exponent = Math.min(a.exponent, b.exponent);
  return {
    unscaled: a.unscaled * pow10(a.exponent - exponent) + b.unscaled * pow10(b.exponent - exponent),
    exponent,
  };
}

/** Whether the value is a whole number. */
export function isInteger(d: Decimal): boolean {
  if (d.exponent >= 0 || d.unscaled === 0n) return true;
  const shift = -d.exponent;
  if (digitCount(d.unscaled) <= shift) return false;
  return d.unscaled % 10n ** BigInt(shift) === 0n;
}

/** The value of a whole number as a BigInt (callers check isInteger first). */
export function toBigInt(d: Decimal): bigint {
  return d.exponent >= 0 ? d.unscaled * pow10(d.exponent) : d.unscaled / pow10(-d.exponent);
}

/** Removes trailing zeros from the mantissa: the shortest `unscaled × 10^exponent` for the value. */
export function stripZeros(d: Decimal): Decimal {
  if (d.unscaled === 0n) return { unscaled: 0n, exponent: 0 };
  let { unscaled, exponent } = d;
  while (unscaled % 10n === 0n) {
    unscaled /= 10n;
    exponent++;
  }
  return { unscaled, exponent };
}
