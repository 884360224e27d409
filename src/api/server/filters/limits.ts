import { apiInflight, apiRejected } from '../../../metrics/api';
import { withDeadline } from '../../http/deadlines';
import { tooManyRequests } from '../../status';
import type { CompletedConfig } from '../server-config';

/**
 * The bounds on what requests may hold: in-flight non-watch requests and their deadline, open watches
 * per user, and no request for a served resource before every cache has synced.
 */
export class RequestLimits {
  #inflight = 0;
  readonly #watchersPerUser = new Map<string, number>();

  constructor(readonly limits: CompletedConfig['limits'], readonly ready: () => boolean) {}

  /**
   * Every request for a served resource needs every cache listed: before that a list or get would answer
   * from a half-filled cache, a watch would start from it, and a create would count a tenant's namespaces
   * short (quota). Readiness keeps a Service from sending requests here, but not a client that dials the
   * port: it gets 429 with Retry-After, as kube-apiserver answers while its watch cache initializes, and
   * clients (client-go, kubectl) retry.
   */
  requireSynced(): void {
    if (!this.ready()) {
      apiRejected.inc({ reason: 'not-synced' });
      throw tooManyRequests(1, 'storage is (re)initializing');
    }
  }

  /**
   * Admission of a non-watch request: the inflight bound (429 with Retry-After past it), and the request
   * deadline (504 Timeout past it), after which the slot is free again whatever the work is waiting for.
   */
  async bounded<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#inflight >= this.limits.maxRequestsInflight) {
      apiRejected.inc({ reason: 'inflight' });
      throw tooManyRequests(1);
    }
    this.#inflight++;
    apiInflight.set(this.#inflight);
    try {
      return await withDeadline(this.limits.requestTimeoutMs, fn);
    } finally {
      this.#inflight--;
      apiInflight.set(this.#inflight);
    }
  }

  /** Takes one of `user`'s watch slots (429 past the bound); returns its release, idempotent. */
  admitWatcher(user: string): () => void {
    const n = this.#watchersPerUser.get(user) ?? 0;
    if (n >= this.limits.maxWatchersPerUser) {
      apiRejected.inc({ reason: 'watchers-per-user' });
      throw tooManyRequests(5, `too many open watches for user ${JSON.stringify(user)}`);
    }
    this.#watchersPerUser.set(user, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#watchersPerUser.get(user) ?? 1) - 1;
      if (left <= 0) this.#watchersPerUser.delete(user);
      else this.#watchersPerUser.set(user, left);
    };
  }
}
