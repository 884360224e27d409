/**
 * Kubernetes resource quantities (`250m`, `8`, `16Gi`, `1e3`) read as exact rationals, enough to tell
 * which of two quota limits is the more restrictive. Display keeps the string kube wrote: quota status
 * values are already in canonical form.
 */
export interface Quantity {
  /** value = num / den, den > 0 */
  num: bigint;
  den: bigint;
}

const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const FORM = /^([+-]?)(\d*)(?:\.(\d*))?(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/** Parses a quantity; undefined when it is not one. Numbers are accepted as their decimal text. */
export function parseQuantity(input: string | number): Quantity | undefined {
  const text = typeof input === 'number' ? String(input) : input.trim();
  const m = FORM.exec(text);
  if (!m) return undefined;
  const [, sign, whole = '', frac = '', suffix, exponent] = m;
  if (whole === '' && frac === '') return undefined;
  let num = BigInt(`${whole}${frac}` || '0');
  let den = 10n ** BigInt(frac.length);
  if (suffix && suffix in BINARY) {
    num *= BINARY[suffix]!;
  } else {
    const power = exponent !== undefined ? Number(exponent) : DECIMAL[suffix ?? '']!;
    if (Math.abs(power) > 1000) return undefined;
    if (power >= 0) num *= 10n ** BigInt(power);
    else den *= 10n ** BigInt(-power);
  }
  return { num: sign === '-' ? -num : num, den };
}

/** Negative, zero or positive as a < b, a = b, a > b. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const left = a.num * b.den;
  const right = b.num * a.den;
  return left < right ? -1 : left > right ? 1 : 0;
}
