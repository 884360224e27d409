import { tryParseQuantity as tryParse } from '../quantity/quantity';

/**
 * Quantity comparison for drift detection: kube-apiserver stores `1000m` as `1`, `1024Mi` as `1Gi` and
 * the number 2 as `"2"`, so the written and the read-back spelling differ while the amount does not.
 */
export type QuantityEqual = (a: string | number, b: string | number) => boolean;

/** True when `value` parses as a Kubernetes quantity. */
export function isQuantity(value: string | number): boolean {
  return tryParse(value) !== undefined;
}

/**
 * Equal amounts are equal whatever their spelling; anything that does not parse is compared as text, so
 * a value kube-apiserver would refuse is never mistaken for one it would accept.
 */
export const quantityEqual: QuantityEqual = (a, b) => {
  const x = tryParse(a);
  const y = tryParse(b);
  if (x === undefined || y === undefined) return String(a) === String(b);
  return x.equals(y);
};
