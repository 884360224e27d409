import { microTime } from '../kube/time';
import type { KubeObject } from '../kube/types';

export { microTime };

/** coordination.k8s.io/v1 Lease as leader election uses it. */
export interface Lease extends KubeObject {
  spec?: LeaseSpec;
}

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  /** MicroTime: RFC 3339 with exactly six fractional digits. */
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** client-go's LeaderElectionRecord, with times as epoch milliseconds. */
export interface LeaderElectionRecord {
  holderIdentity: string;
  leaseDurationSeconds: number;
  acquireTime: number;
  renewTime: number;
  leaderTransitions: number;
}

export function recordFromLease(lease: Lease): LeaderElectionRecord {
  const s = lease.spec ?? {};
  return {
    holderIdentity: s.holderIdentity ?? '',
    leaseDurationSeconds: s.leaseDurationSeconds ?? 0,
    acquireTime: s.acquireTime ? Date.parse(s.acquireTime) : 0,
    renewTime: s.renewTime ? Date.parse(s.renewTime) : 0,
    leaderTransitions: s.leaseTransitions ?? 0,
  };
}

export function leaseSpecFromRecord(r: LeaderElectionRecord): LeaseSpec {
  return {
    holderIdentity: r.holderIdentity,
    leaseDurationSeconds: r.leaseDurationSeconds,
    acquireTime: microTime(r.acquireTime),
    renewTime: microTime(r.renewTime),
    leaseTransitions: r.leaderTransitions,
  };
}
