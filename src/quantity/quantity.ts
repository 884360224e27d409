/**
 * Kubernetes resource quantities (apimachinery pkg/api/resource): exact values, exact comparison and
 * addition, and the canonical text kube-apiserver writes.
 *
 * Invariants: a Quantity is immutable and exact — "0.1" and "100m" are equal, and no operation rounds
 * except parsing, which rounds up to nano-units as upstream does. `toString()` is the string
 * kube-apiserver would serialize for the same quantity: the input text when upstream keeps it, or the
 * canonical form (largest suffix of the quantity's format that keeps the number whole: 1000m → "1",
 * 1536Mi → "1536Mi", 0.5 → "500m", 1e3 → "1e3").
 */

import { add, compare, isInteger, signOf, stripZeros, toBigInt, type Decimal } from './decimal';
import { parseQuantityText } from './parse';
import { suffixFor, type QuantityFormat } from './suffix';

export { QuantityRangeError } from './decimal';
export { QuantityParseError } from './parse';
export type { QuantityFormat } from './suffix';

export class Quantity {
  readonly format: QuantityFormat;
  readonly #value: Decimal;
  #text: string | undefined;

  private constructor(value: Decimal, format: QuantityFormat, text?: string) {
    this.#value = value;
    this.format = format;
    this.#text = text;
  }

  /**
   * Parses a quantity such as `250m`, `1.5Gi`, `2e3`, `+1`.
   * @throws QuantityParseError with upstream's message (no surrounding whitespace is allowed).
   */
  static parse(text: string): Quantity {
    const parsed = parseQuantityText(text);
    return new Quantity(parsed, parsed.format, parsed.canonical);
  }

  /** The quantity `unscaled × 10^exponent`, e.g. `fromScaled(250n, -3, 'DecimalSI')` is 250m. */
  static fromScaled(unscaled: bigint, exponent: number, format: QuantityFormat): Quantity {
    if (!Number.isSafeInteger(exponent)) throw new RangeError(`exponent ${exponent} is not a safe integer`);
    return new Quantity({ unscaled, exponent }, format);
  }

  isZero(): boolean {
    return this.#value.unscaled === 0n;
  }

  sign(): -1 | 0 | 1 {
    return signOf(this.#value.unscaled);
  }

  /** Exact comparison: -1, 0 or 1. Formats do not matter (1Ki equals 1024). */
  cmp(other: Quantity): -1 | 0 | 1 {
    return compare(this.#value, other.#value);
  }

  equals(other: Quantity): boolean {
    return this.cmp(other) === 0;
  }

  /**
   * Exact sum, in this quantity's format unless this one is zero (then in `other`'s), as upstream.
   * @throws QuantityRangeError when the operands' exponents are too far apart to add exactly.
   */
  add(other: Quantity): Quantity {
    return new Quantity(add(this.#value, other.#value), this.isZero() ? other.format : this.format);
  }

  /** Exact difference; formats as for add. */
  sub(other: Quantity): Quantity {
    return this.add(other.neg()).#withFormat(this.isZero() ? other.format : this.format);
  }

  neg(): Quantity {
    return new Quantity({ unscaled: -this.#value.unscaled, exponent: this.#value.exponent }, this.format);
  }

  #withFormat(format: QuantityFormat): Quantity {
    return format === this.format ? this : new Quantity(this.#value, format);
  }

  toString(): string {
    this.#text ??= canonicalText(this.#value, this.format);
    return this.#text;
  }

  toJSON(): string {
    return this.toString();
  }
}

/** Parses a quantity; see Quantity.parse. */
export function parseQuantity(text: string): Quantity {
  return Quantity.parse(text);
}

/**
 * A value as the API carries it (a string, or a number in int-or-string fields) as a quantity, or
 * undefined when it is not one: for callers that compare what kube-apiserver stored and never refuse it.
 */
export function tryParseQuantity(value: string | number): Quantity | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return undefined;
  try {
    return Quantity.parse(String(value).trim());
  } catch {
    return undefined;
  }
}

const MINUS_1024 = { unscaled: -1024n, exponent: 0 };
const PLUS_1024 = { unscaled: 1024n, exponent: 0 };

/** Upstream's CanonicalizeBytes: a number and the suffix of `format` for its exponent. */
function canonicalText(value: Decimal, format: QuantityFormat): string {
  if (value.unscaled === 0n) return '0';
  let effective = format;
  if (format === 'BinarySI') {
    const small = compare(value, MINUS_1024) > 0 && compare(value, PLUS_1024) < 0;
    if (small || !isInteger(value)) effective = 'DecimalSI';
  }
  if (effective === 'BinarySI') {
    let n = toBigInt(value);
    let power = 0;
    while (n % 1024n === 0n) {
      n /= 1024n;
      power++;
    }
    return `${n}${suffixFor('BinarySI', power * 10)}`;
  }
  // Decimal: the shortest mantissa, then lower the exponent to a multiple of three.
  let { unscaled, exponent } = stripZeros(value);
  while (exponent % 3 !== 0) {
    unscaled *= 10n;
    exponent--;
  }
  return `${unscaled}${suffixFor(effective, exponent)}`;
}
