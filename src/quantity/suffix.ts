/**
 * Quantity suffixes as apimachinery reads and writes them (pkg/api/resource/suffix.go): decimal SI
 * (n u m "" k M G T P E), binary SI (Ki Mi Gi Ti Pi Ei) and decimal exponents (e3, E-6, e+2).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface SuffixMeaning {
  /** The value is `number × base^exponent`. */
  readonly base: 10 | 2;
  readonly exponent: number;
  readonly format: QuantityFormat;
}

const DECIMAL: ReadonlyMap<string, number> = new Map([
  ['n', -9],
  ['u', -6],
  ['m', -3],
  ['', 0],
  ['k', 3],
  ['M', 6],
  ['G', 9],
  ['T', 12],
  ['P', 15],
  ['E', 18],
]);

const BINARY: ReadonlyMap<string, number> = new Map([
  ['Ki', 10],
  ['Mi', 20],
  ['Gi', 30],
  ['Ti', 40],
  ['Pi', 50],
  ['Ei', 60],
]);

const DECIMAL_BY_EXPONENT = new Map([...DECIMAL].map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map([...BINARY].map(([s, e]) => [e, s]));

const EXPONENT = /^[eE][+-]?[0-9]+$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * What a suffix means, or undefined when it is not one. An exponent must fit in an int64 and is then
 * wrapped to 32 bits, as upstream stores it in an int32.
 */
export function interpretSuffix(suffix: string): SuffixMeaning | undefined {
  const decimal = DECIMAL.get(suffix);
  if (decimal !== undefined) return { base: 10, exponent: decimal, format: 'DecimalSI' };
  const binary = BINARY.get(suffix);
  if (binary !== undefined) return { base: 2, exponent: binary, format: 'BinarySI' };
  if (!EXPONENT.test(suffix)) return undefined;
  const exponent = BigInt(suffix.slice(1));
  if (exponent < INT64_MIN || exponent > INT64_MAX) return undefined;
  return { base: 10, exponent: Number(BigInt.asIntN(32, exponent)), format: 'DecimalExponent' };
}

/**
 * The suffix that writes `base^exponent` in `format`. Like upstream, an exponent without a suffix of
 * its own (DecimalSI beyond E, BinarySI beyond Ei) writes as "" — so 1000E prints as "1".
 */
export function suffixFor(format: QuantityFormat, exponent: number): string {
  switch (format) {
    case 'DecimalSI':
      return DECIMAL_BY_EXPONENT.get(exponent) ?? '';
    case 'BinarySI':
      return BINARY_BY_EXPONENT.get(exponent) ?? '';
    case 'DecimalExponent':
      return exponent === 0 ? '' : `e${exponent}`;
  }
}
