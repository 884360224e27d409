/**
 * Paddock against its floors, at the largest size of a run: the owner list through kube-apiserver against
 * the aggregated floor (the same bytes from memory through the same APIService path), and the admin's
 * Table against the transfer floor (the same number of bytes streamed over TLS by a server that only
 * moves them). Ratios are Paddock ÷ floor: lower is better, 1 is the floor itself.
 */
import { AGGREGATED_FLOOR_TARGET, TRANSFER_FLOOR_TARGET, type ListResult } from './list';
import { ratio, round } from './stats';

export interface Floors {
  /** The aggregated floor's latency (ms) at `size`, and Paddock's owner list through kube-apiserver ÷ it. */
  aggregated?: { p50: number; p99: number; size: number };
  ownerListRatio?: { p50: number; p99: number };
  /** The transfer floor's latency (ms) at `size`, and Paddock's admin Table (direct) ÷ it. */
  transfer?: { p50: number; p99: number; size: number };
  adminTableRatio?: { p50: number; p99: number };
}

/** Paddock's latency ÷ the floor's, from one list scenario's targets at one size; undefined if either is missing. */
function against(r: ListResult | undefined, paddock: string, floor: string) {
  const p = r?.targets.find((t) => t.target === paddock)?.latency;
  const fl = r?.targets.find((t) => t.target === floor)?.latency;
  if (!r || !p || !fl) return undefined;
  return { floor: { p50: round(fl.p50), p99: round(fl.p99), size: r.size }, ratio: { p50: ratio(p.p50, fl.p50), p99: ratio(p.p99, fl.p99) } };
}

export function floorsOf(ownerList: readonly ListResult[], adminList: readonly ListResult[]): Floors {
  const owner = against(ownerList[ownerList.length - 1], 'Paddock via kube-apiserver', AGGREGATED_FLOOR_TARGET);
  const admin = against(adminList[adminList.length - 1], 'Paddock direct, Table', TRANSFER_FLOOR_TARGET);
  return {
    ...(owner ? { aggregated: owner.floor, ownerListRatio: owner.ratio } : {}),
    ...(admin ? { transfer: admin.floor, adminTableRatio: admin.ratio } : {}),
  };
}
