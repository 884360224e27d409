import { parseQuantity as parseStrict, type Quantity } from '../../quantity/quantity';

export type { Quantity };

/** Parses a quota value; undefined when it is not a quantity (a quota the server refused never gets here). */
export function parseQuantity(input: string | number): Quantity | undefined {
  try {
    return parseStrict(String(input).trim());
  } catch {
    return undefined;
  }
}

/** Negative, zero or positive as a < b, a = b, a > b. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  return a.cmp(b);
}
