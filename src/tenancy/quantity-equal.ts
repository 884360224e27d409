/**
 * Just enough of resource.Quantity to tell whether two quantities are the same amount, the way
 * kube-apiserver sees them: it stores `1000m` as `1`, `1024Mi` as `1Gi` and the number 2 as `"2"`, so
 * the written and the read-back spelling differ while the amount does not.
 *
 * Minimal by intent: it only parses and compares. The shared quantity module can replace it by passing
 * its own comparator wherever a {@link QuantityEqual} is accepted.
 */

/** Compares two quantities as amounts. */
export type QuantityEqual = (a: string | number, b: string | number) => boolean;

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const NUMBER = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(.*)$/;
const EXPONENT = /^[eE]([+-]?\d+)$/;
/** Larger exponents are not amounts anybody means; refusing them keeps the arithmetic bounded. */
const MAX_EXPONENT = 64;

/**
 * The amount in units of 10^-9, rounded away from zero as kube-apiserver rounds sub-nano precision
 * (`0.1n` is stored as `1n`); undefined when `value` is not a quantity.
 */
export function parseQuantityNanos(value: string | number): bigint | undefined {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = NUMBER.exec(text);
  if (!match) return undefined;
  const [, sign, digits, suffix] = match as unknown as [string, string, string, string];
  const [whole, fraction = ''] = digits.split('.');
  const mantissa = BigInt(`${whole}${fraction}` || '0');
  let power10 = -fraction.length + 9;
  let power2 = 0;
  if (suffix in DECIMAL_SUFFIX) power10 += DECIMAL_SUFFIX[suffix]!;
  else if (suffix in BINARY_SUFFIX) power2 = BINARY_SUFFIX[suffix]!;
  else {
    const exponent = EXPONENT.exec(suffix);
    if (!exponent) return undefined;
    const e = Number(exponent[1]);
    if (Math.abs(e) > MAX_EXPONENT) return undefined;
    power10 += e;
  }
  let numerator = mantissa * 2n ** BigInt(power2);
  let denominator = 1n;
  if (power10 >= 0) numerator *= 10n ** BigInt(power10);
  else denominator = 10n ** BigInt(-power10);
  const nanos = (numerator + denominator - 1n) / denominator;
  return sign === '-' ? -nanos : nanos;
}

/** True when `value` parses as a Kubernetes quantity. */
export function isQuantity(value: string | number): boolean {
  return parseQuantityNanos(value) !== undefined;
}

/**
 * Equal amounts are equal whatever their spelling; anything that does not parse is compared as text, so
 * a value kube-apiserver would refuse is never mistaken for one it would accept.
 */
export const quantityEqual: QuantityEqual = (a, b) => {
  const x = parseQuantityNanos(a);
  const y = parseQuantityNanos(b);
  if (x === undefined || y === undefined) return String(a) === String(b);
  return x === y;
};
