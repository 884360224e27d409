import { Quantity, type QuantityFormat } from '../quantity';

/** upstream's decQuantity / intQuantity: unscaled × 10^exponent in a format. */
export const q = (unscaled: bigint | number, exponent: number, format: QuantityFormat = 'DecimalSI') =>
  Quantity.fromScaled(BigInt(unscaled), exponent, format);

export const zero = () => q(0, 0);
