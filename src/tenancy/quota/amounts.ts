/**
 * Quota arithmetic in whole units: every amount of a tenant-wide quota is held as a bigint count of the
 * resource's smallest unit Paddock splits in — millicores for CPU, one for everything else (bytes,
 * pods, objects, devices) — so that shares add up exactly and a split never invents a fraction
 * kube-apiserver would round. Budgets and shares are rounded down (a share never exceeds what it was
 * given), usage up (a namespace is never thought to use less than it does). Pure.
 */
import { pow10 } from '../../quantity/decimal';
import { parseQuantityText } from '../../quantity/parse';
import { Quantity } from '../../quantity/quantity';

/** Per resource name, an amount in units. */
export type Amounts = Map<string, bigint>;

/** The decimal exponent of a resource's unit: 10^-3 (millicores) for CPU, 10^0 otherwise. */
export function unitExponent(resource: string): number {
  return resource === 'cpu' || resource.endsWith('.cpu') ? -3 : 0;
}

/** `value` (a quantity as the API carries it) in units of `resource`, rounded as asked; undefined when it is no quantity. */
export function toUnits(resource: string, value: string | number, round: 'down' | 'up'): bigint | undefined {
  let parsed, d;
  const shift = () => parsed!.exponent - unitExponent(resource);
  try {
    parsed = parseQuantityText(String(value).trim());
    if (shift() >= 0) return parsed.unscaled * pow10(shift());
    d = pow10(-shift());
  } catch {
    return undefined; // not a quantity, or one too large to hold exactly
  }
  const q = parsed.unscaled / d; // truncates toward zero
  const exact = q * d === parsed.unscaled;
  if (exact) return q;
  if (round === 'down') return parsed.unscaled < 0n ? q - 1n : q;
  return parsed.unscaled < 0n ? q : q + 1n;
}

/** `units` of `resource` as a quantity string (`250m`, `20`). */
export function formatUnits(resource: string, units: bigint): string {
  return Quantity.fromScaled(units, unitExponent(resource), 'DecimalSI').toString();
}

/** A map of quantities (a ResourceQuota's `hard` or `used`) as units; entries that are no quantity are left out. */
export function amountsOf(values: Readonly<Record<string, string | number>> | undefined, round: 'down' | 'up'): Amounts {
  const out: Amounts = new Map();
  for (const [resource, value] of Object.entries(values ?? {})) {
    const units = toUnits(resource, value, round);
    if (units !== undefined) out.set(resource, units);
  }
  return out;
}

/** Amounts as a map of quantity strings, keys sorted. */
export function quantitiesOf(amounts: Amounts): Record<string, string> {
  return Object.fromEntries([...amounts.keys()].sort().map((r) => [r, formatUnits(r, amounts.get(r)!)]));
}

/** The sum of `amounts` for `resource` (missing entries count 0). */
export function sumOf(amounts: Iterable<Amounts>, resource: string): bigint {
  let sum = 0n;
  for (const a of amounts) sum += a.get(resource) ?? 0n;
  return sum;
}

export const maxOf = (a: bigint, b: bigint): bigint => (a > b ? a : b);
export const minOf = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/**
 * What a ResourceQuota may admit, per resource, at any instant: kube-apiserver's quota admission
 * enforces `status.hard`, which kube-controller-manager copies from `spec.hard` some time after each
 * write, so until then either may be the one in force; the larger of the two.
 */
export function enforceable(spec: Amounts, status: Amounts): Amounts {
  const out = new Map(spec);
  for (const [resource, units] of status) out.set(resource, maxOf(out.get(resource) ?? 0n, units));
  return out;
}
