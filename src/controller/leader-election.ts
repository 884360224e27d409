import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { RequestOptions } from '../kube/client';
import { sleep as delay } from '../cache/backoff';
import { isNotFound } from '../kube/errors';
import { jsonLogger, type Logger } from '../kube/log';
import { RESOURCES, resourcePath } from '../kube/resources';
import { PADDOCK } from '../kube/types';
import { leaderElectionIsLeader, leaderElectionTransitions } from '../metrics/leader-election';
import { type LeaderElectionRecord, type Lease, leaseSpecFromRecord, recordFromLease } from './leader-election-lease';

/** The three calls of KubeClient leader election uses. */
export interface LeaseClient {
  get<T>(path: string, opts?: RequestOptions): Promise<T>;
  create<T>(path: string, body: unknown, opts?: RequestOptions): Promise<T>;
  update<T>(path: string, body: unknown, opts?: RequestOptions): Promise<T>;
}

export interface LeaderElectionOptions {
  client: LeaseClient;
  /** Lease namespace and name; default `paddock-system` / `paddock-controller`. */
  namespace?: string;
  name?: string;
  /** Unique per replica; default `<hostname>_<uuid>`. */
  identity?: string;
  /** How long a lease is honoured without renewal by non-leaders; default 15 s (whole seconds on the wire). */
  leaseDurationMs?: number;
  /** How long the leader keeps retrying a renewal before giving up leadership; default 10 s. */
  renewDeadlineMs?: number;
  /** Pause between attempts; default 2 s. */
  retryPeriodMs?: number;
  /** Clear the holder when the run signal aborts, so another replica takes over at once; default true. */
  releaseOnCancel?: boolean;
  /**
   * Called once leadership is acquired; `signal` aborts when it is lost or the elector stops. Its promise
   * is awaited (up to renewDeadline) before the lease is released on graceful shutdown.
   */
  onStartedLeading: (signal: AbortSignal) => void | Promise<void>;
  /** Called when this replica stops leading (lost or released). */
  onStoppedLeading?: () => void;
  /** Called whenever the observed leader changes, including to this replica. */
  onNewLeader?: (identity: string) => void;
  logger?: Logger;
}

/** client-go's JitterFactor for the acquire loop: a retry waits retryPeriod·[1, 2.2). */
const JITTER_FACTOR = 1.2;

/**
 * Leader election on a coordination.k8s.io/v1 Lease with client-go's semantics. A candidate takes the
 * Lease when it has no holder or when it has not seen the Lease change for leaseDuration (judged by its own
 * clock from when it observed the record, not by the renewTime written by another machine's clock). Every
 * write is an update conditional on the resourceVersion last read, so two candidates can never both win.
 * The leader renews every retryPeriod and steps down if it cannot renew within renewDeadline.
 */
export class LeaderElector {
  readonly identity: string;
  readonly #client: LeaseClient;
  readonly #path: string;
  readonly #collection: string;
  readonly #namespace: string;
  readonly #name: string;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #releaseOnCancel: boolean;
  readonly #opts: LeaderElectionOptions;
  readonly #log: Logger;
  #lease: Lease | undefined;
  #observed: LeaderElectionRecord | undefined;
  #observedRaw = '';
  #observedTime = 0;
  #reportedLeader: string | undefined;

  constructor(opts: LeaderElectionOptions) {
    this.#opts = opts;
    this.#client = opts.client;
    this.#namespace = opts.namespace ?? PADDOCK.systemNamespace;
    this.#name = opts.name ?? PADDOCK.leaseName;
    this.identity = opts.identity ?? `${hostname()}_${randomUUID()}`;
    this.#leaseDurationMs = opts.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.#retryPeriodMs = opts.retryPeriodMs ?? 2_000;
    this.#releaseOnCancel = opts.releaseOnCancel ?? true;
    this.#log = opts.logger ?? jsonLogger('leader-election');
    if (this.#leaseDurationMs <= this.#renewDeadlineMs) throw new Error('leaseDuration must be greater than renewDeadline');
    if (this.#renewDeadlineMs <= JITTER_FACTOR * this.#retryPeriodMs) throw new Error('renewDeadline must be greater than retryPeriod*1.2');
    this.#collection = resourcePath(RESOURCES.leases, { namespace: this.#namespace });
    this.#path = resourcePath(RESOURCES.leases, { namespace: this.#namespace, name: this.#name });
    leaderElectionIsLeader.set({ name: this.#name }, 0);
  }

  /** True while the last record this replica observed or wrote names it as holder. */
  isLeader(): boolean { return this.#observed?.holderIdentity === this.identity; }

  /** The holder this replica last observed ('' when none). */
  getLeader(): string { return this.#observed?.holderIdentity ?? ''; }

  /**
   * Campaigns until leadership is acquired, leads until it is lost or `signal` aborts, then resolves (after
   * releasing the Lease on abort, if configured). Like client-go, one run is one term: a replica that lost
   * the lease should exit (or call run again).
   */
  async run(signal: AbortSignal): Promise<void> {
    if (!(await this.#acquire(signal))) return;
    const lead = new AbortController();
    leaderElectionIsLeader.set({ name: this.#name }, 1);
    leaderElectionTransitions.inc({ name: this.#name, event: 'started' });
    this.#log.info('started leading', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
    const leading = Promise.resolve()
      .then(() => this.#opts.onStartedLeading(lead.signal))
      .catch((err: unknown) => this.#log.error('onStartedLeading failed', { err }));
    await this.#renew(signal);
    lead.abort(new Error('leadership ended'));
    leaderElectionIsLeader.set({ name: this.#name }, 0);
    leaderElectionTransitions.inc({ name: this.#name, event: 'stopped' });
    if (signal.aborted && this.#releaseOnCancel) {
      const patience = new AbortController();
      await Promise.race([leading, delay(this.#renewDeadlineMs, patience.signal)]);
      patience.abort();
      await this.#release();
    }
    this.#log.info('stopped leading', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity, released: signal.aborted && this.#releaseOnCancel });
    try { this.#opts.onStoppedLeading?.(); } catch (err) { this.#log.error('onStoppedLeading failed', { err }); }
  }

  /** Retries every retryPeriod (jittered) until acquired (true) or aborted (false). */
  async #acquire(signal: AbortSignal): Promise<boolean> {
    this.#log.info('attempting to acquire leader lease', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
    while (!signal.aborted) {
      if (await this.#tryAcquireOrRenew(AbortSignal.any([signal, AbortSignal.timeout(this.#renewDeadlineMs)]))) return true;
      await delay(this.#retryPeriodMs * (1 + Math.random() * JITTER_FACTOR), signal);
    }
    return false;
  }

  /** Renews every retryPeriod; returns when a renewal could not succeed within renewDeadline, or on abort. */
  async #renew(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(this.#renewDeadlineMs)]);
      let renewed = false;
      while (!deadline.aborted) {
        if (await this.#tryAcquireOrRenew(deadline)) { renewed = true; break; }
        if (!this.isLeader()) break; // someone else holds it now: stop acting as leader at once
        await delay(this.#retryPeriodMs, deadline);
      }
      if (signal.aborted) return;
      if (!renewed) {
        this.#log.warn('failed to renew lease within the renew deadline', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
        return;
      }
      await delay(this.#retryPeriodMs, signal);
    }
  }

  async #tryAcquireOrRenew(signal: AbortSignal): Promise<boolean> {
    const now = Date.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.#leaseDurationMs / 1000)),
      acquireTime: now,
      renewTime: now,
      leaderTransitions: 0,
    };

    // 1. Fast path: the leader renews optimistically against the Lease it last wrote.
    if (this.isLeader() && this.#isLeaseValid(now) && this.#lease) {
      desired.acquireTime = this.#observed!.acquireTime;
      desired.leaderTransitions = this.#observed!.leaderTransitions;
      try {
        await this.#update(desired, signal);
        return true;
      } catch (err) {
        this.#log.info('optimistic renewal failed, falling back to read-then-write', { err });
      }
    }

    // 2. Read the Lease, creating it if absent.
    let current: Lease;
    try {
      current = await this.#client.get<Lease>(this.#path, { signal });
    } catch (err) {
      if (!isNotFound(err)) {
        this.#log.warn('error retrieving lease', { err });
        return false;
      }
      try {
        this.#lease = await this.#client.create<Lease>(this.#collection, {
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
          metadata: { name: this.#name, namespace: this.#namespace },
          spec: leaseSpecFromRecord(desired),
        }, { signal });
      } catch (createErr) {
        this.#log.info('error creating lease', { err: createErr });
        return false;
      }
      this.#setObserved(desired, Date.now());
      return true;
    }
    this.#lease = current;

    // 3. Note changes by our own clock; respect an unexpired holder.
    const record = recordFromLease(current);
    const raw = JSON.stringify(current.spec ?? {});
    if (raw !== this.#observedRaw) {
      this.#observedRaw = raw;
      this.#setObserved(record, now);
    }
    if (record.holderIdentity !== '' && this.#isLeaseValid(now) && !this.isLeader()) return false;

    // 4. Take it over (or renew it on the slow path).
    if (this.isLeader()) {
      desired.acquireTime = record.acquireTime;
      desired.leaderTransitions = record.leaderTransitions;
    } else {
      desired.leaderTransitions = record.leaderTransitions + 1;
    }
    try {
      await this.#update(desired, signal);
      return true;
    } catch (err) {
      this.#log.info('failed to update lease', { err });
      return false;
    }
  }

  /** PUT conditional on the resourceVersion of the Lease last read or written. */
  async #update(record: LeaderElectionRecord, signal: AbortSignal): Promise<void> {
    const lease = this.#lease!;
    this.#lease = await this.#client.update<Lease>(this.#path, { ...lease, spec: { ...lease.spec, ...leaseSpecFromRecord(record) } }, { signal });
    this.#observedRaw = JSON.stringify(this.#lease.spec ?? {});
    this.#setObserved(record, Date.now());
  }

  /** Clears the holder (leaseDurationSeconds 1) so a waiting candidate takes over on its next attempt. */
  async #release(): Promise<void> {
    const signal = AbortSignal.timeout(this.#renewDeadlineMs);
    try {
      this.#lease = await this.#client.get<Lease>(this.#path, { signal });
      if (recordFromLease(this.#lease).holderIdentity !== this.identity) return;
      const now = Date.now();
      await this.#update({ holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now, leaderTransitions: recordFromLease(this.#lease).leaderTransitions }, signal);
    } catch (err) {
      this.#log.warn('failed to release lease', { err });
    }
  }

  #isLeaseValid(now: number): boolean {
    return this.#observed !== undefined && this.#observedTime + this.#observed.leaseDurationSeconds * 1000 > now;
  }

  #setObserved(record: LeaderElectionRecord, at: number): void {
    this.#observed = record;
    this.#observedTime = at;
    if (record.holderIdentity !== this.#reportedLeader) {
      this.#reportedLeader = record.holderIdentity;
      if (record.holderIdentity) {
        try { this.#opts.onNewLeader?.(record.holderIdentity); } catch (err) { this.#log.error('onNewLeader failed', { err }); }
      }
    }
  }
}
