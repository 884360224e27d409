/**
 * The shape several restrictions share: an object of `{allowed: [...]}` lists (`services.externalIPs`,
 * `networkPolicyIngressFrom.ipBlocks`…), its schema, and the checks of its values that the CRD schema
 * cannot express or that an older copy of the CRD may not have. Pure.
 */
import { isRecord } from '../json';
import type { AddProblem } from '../problems';
import { isMasked, parseCidr } from './ip-address';

/** The longest CIDR text: a full IPv6 address with an IPv4 tail and `/128`. */
const MAX_CIDR_LENGTH = 49;

/** The schema of `{allowed: [items]}`: a set of at most `maxItems`. */
export const allowedList = (description: string, items: Record<string, unknown>, maxItems: number) => ({
  type: 'object',
  description,
  properties: { allowed: { type: 'array', maxItems, 'x-kubernetes-list-type': 'set', items } },
});

/** A CIDR as kube-apiserver's CEL library reads it (ip-address.ts), with no bits set past its prefix. */
export const CIDR_ITEM = {
  type: 'string',
  maxLength: MAX_CIDR_LENGTH,
  'x-kubernetes-validations': [
    {
      rule: 'isCIDR(self) && cidr(self) == cidr(self).masked()',
      message: 'must be a CIDR with no bits set past its prefix length, without leading zeros and not an IPv4-mapped IPv6 address (like 203.0.113.0/24 or 2001:db8::/64)',
    },
  ],
};

/** Problems of one listed CIDR, as the schema's rule states them. */
export function checkCidr(c: unknown, at: string, add: AddProblem): void {
  const cidr = typeof c === 'string' ? parseCidr(c) : undefined;
  if (!cidr) {
    add(at, 'FieldValueInvalid', `${JSON.stringify(c)} is not a CIDR (like 203.0.113.0/24 or 2001:db8::/64): IPv4 fields without leading zeros, no IPv4-mapped IPv6 address, a prefix length`);
  } else if (!isMasked(cidr)) {
    add(at, 'FieldValueInvalid', `${JSON.stringify(c)} has bits set past its prefix length`);
  }
}

/**
 * The checks of an object of `{allowed}` lists at `path`: `check` runs on each item of the list under
 * each of its fields (`checks` by field name). Returns nothing; problems go to `add`.
 */
export function checkAllowedLists(path: string, value: unknown, add: AddProblem, checks: Record<string, (item: unknown, at: string) => void>): void {
  if (value === undefined) return;
  if (!isRecord(value)) return add(path, 'FieldValueInvalid', 'must be an object');
  for (const [field, check] of Object.entries(checks)) {
    const policy = value[field];
    if (policy === undefined) continue;
    if (!isRecord(policy)) {
      add(`${path}.${field}`, 'FieldValueInvalid', 'must be an object');
      continue;
    }
    const allowed = policy.allowed;
    if (allowed === undefined) continue;
    if (!Array.isArray(allowed)) {
      add(`${path}.${field}.allowed`, 'FieldValueInvalid', 'must be a list');
      continue;
    }
    allowed.forEach((item: unknown, i) => check(item, `${path}.${field}.allowed[${i}]`));
  }
}
