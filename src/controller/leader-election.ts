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
import { WriteFence } from './write-fence';

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
   * Opened for each term and closed when it ends; give the same fence to the Writer so that nothing is
   * written outside a term. Default: a fence of the elector's own (`elector.fence`).
   */
  fence?: WriteFence;
  /**
   * Called once leadership is acquired; `signal` aborts when the term ends (loss observed, renew deadline
   * passed, or the elector stops). Its promise is awaited before run() returns, so a new term never
   * overlaps it (on graceful shutdown, up to renewDeadline, before the lease is released).
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
 * The leader renews every retryPeriod and steps down if it cannot renew within renewDeadline of sending
 * its last successful renewal. Each term is a term of the WriteFence (see write-fence.ts for why a lost
 * lease drains and fences the reconciler instead of exiting the process).
 */
export class LeaderElector {
  readonly identity: string;
  readonly fence: WriteFence;
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
    this.fence = opts.fence ?? new WriteFence();
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
    const acquiredAt = await this.#acquire(signal);
    if (acquiredAt === undefined) return;
    const term = this.fence.begin(acquiredAt, this.#renewDeadlineMs);
    const lead = new AbortController();
    const onTermEnd = (): void => lead.abort(term.reason);
    term.addEventListener('abort', onTermEnd, { once: true });
    leaderElectionIsLeader.set({ name: this.#name }, 1);
    leaderElectionTransitions.inc({ name: this.#name, event: 'started' });
    this.#log.info('started leading', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
    const leading = Promise.resolve()
      .then(() => this.#opts.onStartedLeading(lead.signal))
      .catch((err: unknown) => this.#log.error('onStartedLeading failed', { err }));
    const reason = await this.#renew(signal, term);
    const released = signal.aborted && this.#releaseOnCancel;
    if (!signal.aborted) this.fence.end(reason); // lost: not one more write
    term.removeEventListener('abort', onTermEnd);
    lead.abort(term.aborted ? term.reason : new Error(`leadership ended: ${reason}`));
    leaderElectionIsLeader.set({ name: this.#name }, 0);
    leaderElectionTransitions.inc({ name: this.#name, event: 'stopped' });
    this.#log.info('stopped leading', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity, reason });
    if (released) {
      // Graceful shutdown: the term drains while the lease is still held, then it is handed over.
      const patience = new AbortController();
      await Promise.race([leading, delay(this.#renewDeadlineMs, patience.signal)]);
      patience.abort();
      this.fence.end(reason);
      await this.#release();
    } else {
      // Do not campaign again before the cancelled term has finished: terms never overlap.
      const slow = setTimeout(() => this.#log.warn('the ended term is still draining', { identity: this.identity }), this.#renewDeadlineMs);
      await leading;
      clearTimeout(slow);
    }
    this.#log.info('leadership term over', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity, released });
    try { this.#opts.onStoppedLeading?.(); } catch (err) { this.#log.error('onStoppedLeading failed', { err }); }
  }

  /**
   * Retries every retryPeriod (jittered) until acquired or aborted; resolves with the fence-clock time the
   * acquiring request was sent, or undefined when aborted.
   */
  async #acquire(signal: AbortSignal): Promise<number | undefined> {
    this.#log.info('attempting to acquire leader lease', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
    while (!signal.aborted) {
      const sentAt = await this.#tryAcquireOrRenew(AbortSignal.any([signal, AbortSignal.timeout(this.#renewDeadlineMs)]));
      if (sentAt !== undefined) return sentAt;
      await delay(this.#retryPeriodMs * (1 + Math.random() * JITTER_FACTOR), signal);
    }
    return undefined;
  }

  /**
   * Renews every retryPeriod while the term lasts. The term (the fence) ends by itself renewDeadline after
   * the last successful renewal was sent; each attempt runs under its signal. Returns why leading stopped.
   */
  async #renew(signal: AbortSignal, term: AbortSignal): Promise<string> {
    const attempt = AbortSignal.any([signal, term]);
    while (!attempt.aborted) {
      const sentAt = await this.#tryAcquireOrRenew(attempt);
      if (sentAt !== undefined && this.fence.renewed(sentAt)) {
        await delay(this.#retryPeriodMs, attempt);
        continue;
      }
      if (attempt.aborted) break;
      if (!this.isLeader()) {
        // Someone else holds it now: stop acting as leader at once.
        const holder = this.getLeader();
        this.fence.end(`the Lease is held by ${holder || 'nobody'}`);
        return `the Lease is held by ${holder || 'nobody'}`;
      }
      await delay(this.#retryPeriodMs, attempt);
    }
    if (signal.aborted) return 'stopped';
    this.#log.warn('failed to renew lease within the renew deadline', { lease: `${this.#namespace}/${this.#name}`, identity: this.identity });
    return term.reason instanceof Error ? term.reason.message : 'the renew deadline passed';
  }

  /**
   * One acquire-or-renew attempt. Resolves with the fence-clock time its successful write was sent (the
   * lease is ours from then on for others), or undefined when it did not succeed.
   */
  async #tryAcquireOrRenew(signal: AbortSignal): Promise<number | undefined> {
    const wall = Date.now();
    const now = this.fence.now();
    const desired: LeaderElectionRecord = {
      holderIdentity: this.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.#leaseDurationMs / 1000)),
      acquireTime: wall,
      renewTime: wall,
      leaderTransitions: 0,
    };

    // 1. Fast path: the leader renews optimistically against the Lease it last wrote.
    if (this.isLeader() && this.#isLeaseValid(now) && this.#lease) {
      desired.acquireTime = this.#observed!.acquireTime;
      desired.leaderTransitions = this.#observed!.leaderTransitions;
      try {
        return await this.#update(desired, signal);
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
        return undefined;
      }
      const sentAt = this.fence.now();
      try {
        this.#lease = await this.#client.create<Lease>(this.#collection, {
          apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
          metadata: { name: this.#name, namespace: this.#namespace },
          spec: leaseSpecFromRecord(desired),
        }, { signal });
      } catch (createErr) {
        this.#log.info('error creating lease', { err: createErr });
        return undefined;
      }
      this.#setObserved(desired, this.fence.now());
      return sentAt;
    }
    this.#lease = current;

    // 3. Note changes by our own clock; respect an unexpired holder.
    const record = recordFromLease(current);
    const raw = JSON.stringify(current.spec ?? {});
    if (raw !== this.#observedRaw) {
      this.#observedRaw = raw;
      this.#setObserved(record, now);
    }
    if (record.holderIdentity !== '' && this.#isLeaseValid(now) && !this.isLeader()) return undefined;

    // 4. Take it over (or renew it on the slow path).
    if (this.isLeader()) {
      desired.acquireTime = record.acquireTime;
      desired.leaderTransitions = record.leaderTransitions;
    } else {
      desired.leaderTransitions = record.leaderTransitions + 1;
    }
    try {
      return await this.#update(desired, signal);
    } catch (err) {
      this.#log.info('failed to update lease', { err });
      return undefined;
    }
  }

  /**
   * PUT conditional on the resourceVersion of the Lease last read or written; resolves with the
   * fence-clock time it was sent.
   */
  async #update(record: LeaderElectionRecord, signal: AbortSignal): Promise<number> {
    const lease = this.#lease!;
    const sentAt = this.fence.now();
    this.#lease = await this.#client.update<Lease>(this.#path, { ...lease, spec: { ...lease.spec, ...leaseSpecFromRecord(record) } }, { signal });
    this.#observedRaw = JSON.stringify(this.#lease.spec ?? {});
    this.#setObserved(record, this.fence.now());
    return sentAt;
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

  /** Judged by this process's monotonic clock from when it observed the record (`now` from `fence.now()`). */
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
