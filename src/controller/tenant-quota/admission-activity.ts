/**
 * When each share last counted an admission, so that the rebalancer does not trigger kube's recount race
 * in a namespace that is creating.
 *
 * The race (kube's own): kube-controller-manager's resource quota controller recounts a ResourceQuota's
 * `status.used` from its own informers whenever the quota's `spec.hard` changes (and on deletes of what
 * it counts, and every resync period), and writes the count under the resourceVersion its ResourceQuota
 * informer holds. Quota admission counts a create by writing the quota's status *before* the object is
 * stored. A recount whose ResourceQuota informer has seen that status write but whose pod informer has
 * not yet seen the pod counts one pod too few, and its write does not conflict: `status.used` drops
 * below what exists, and quota admission admits past `status.hard` by the difference until a later
 * recount. A write of a share's `spec.hard` while creates are being admitted is such a trigger.
 *
 * So a share that counted an admission less than {@link QUIET_MS} ago (its `status.used` went up) is
 * busy: the rebalancer leaves its `spec.hard` alone and comes back when it is quiet. The informers lag
 * by milliseconds; a namespace that keeps creating is refused once at its share (a refusal counts
 * nothing), so it is quiet again within QUIET_MS — the hold delays a rebalance by at most that. Left:
 * an admission after Paddock last saw the share (its cache lags too), and kube's recounts on deletes.
 */
import type { ResourceQuota } from '../../kube/types';
import { amountsOf } from '../../tenancy/quota/amounts';

/** How long after a counted admission a share's `spec.hard` is left alone. */
export const QUIET_MS = 1_000;

export class AdmissionActivity {
  /** Namespace → when its share was last seen counting an admission (only entries still busy matter). */
  readonly #lastAdmission = new Map<string, number>();

  constructor(readonly now: () => number = Date.now) {}

  /** A share changed from `before` to `after` (as the cache saw it): busy if some `status.used` went up. */
  observe(before: ResourceQuota | undefined, after: ResourceQuota): void {
    const was = amountsOf(before?.status?.used, 'up');
    const rose = [...amountsOf(after.status?.used, 'up')].some(([resource, units]) => units > (was.get(resource) ?? 0n));
    if (rose) this.#lastAdmission.set(after.metadata.namespace!, this.now());
  }

  forget(namespace: string): void {
    this.#lastAdmission.delete(namespace);
  }

  /** Milliseconds until the share of `namespace` has been quiet for {@link QUIET_MS}; 0 when it is. */
  busyFor(namespace: string): number {
    const last = this.#lastAdmission.get(namespace);
    if (last === undefined) return 0;
    const left = last + QUIET_MS - this.now();
    if (left > 0) return left;
    this.#lastAdmission.delete(namespace);
    return 0;
  }
}
