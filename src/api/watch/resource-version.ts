import { randomInt } from 'node:crypto';

/**
 * TenantNamespace resourceVersions.
 *
 * A TenantNamespace is joined from several objects (Namespace, Tenant, ResourceQuotas) that reach the
 * cache over separate watch streams, so no single etcd revision orders its changes. Each replica
 * therefore numbers the changes of its view itself: `rv = epoch * 2^40 + seq`, with a random epoch per
 * process. The string is a decimal integer below 2^63, as clients that parse resourceVersions expect.
 *
 * Invariants: within one epoch, seq grows by one per change; a resourceVersion whose epoch is not this
 * process's (another replica's, or this replica's before a restart) is never interpreted as a position
 * in this log — the caller answers 410 Expired and the client relists. That is the "honoured or 410,
 * never a silent gap" rule for two replicas; two replicas share an epoch with probability 2^-22.
 */
export const SEQ_BITS = 40n;
const SEQ_MASK = (1n << SEQ_BITS) - 1n;
const MAX_EPOCH = 1 << 22;

export class ResourceVersions {
  readonly epoch: bigint;

  constructor(epoch: number = randomInt(1, MAX_EPOCH)) {
    if (!Number.isInteger(epoch) || epoch < 1 || epoch >= MAX_EPOCH) throw new RangeError(`epoch ${epoch} out of range`);
    this.epoch = BigInt(epoch);
  }

  format(seq: number): string {
    return ((this.epoch << SEQ_BITS) + BigInt(seq)).toString();
  }

  /**
   * Reads a resourceVersion a client sent: `{seq}` for one of ours, `'foreign'` for a well-formed one of
   * another epoch, `'invalid'` for anything that is not a non-negative decimal integer.
   */
  parse(rv: string): { seq: number } | 'foreign' | 'invalid' {
    if (!/^\d{1,19}$/.test(rv)) return 'invalid';
    const n = BigInt(rv);
    if (n >> SEQ_BITS !== this.epoch) return 'foreign';
    return { seq: Number(n & SEQ_MASK) };
  }
}
