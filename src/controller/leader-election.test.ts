import type { RequestOptions } from '../kube/client';
import { KubeApiError } from '../kube/errors';
import { silentLogger } from '../kube/log';
import type { Status } from '../kube/types';
import { LeaderElector, type LeaseClient } from './leader-election';
import type { Lease } from './leader-election-lease';
import { WriteFence } from './write-fence';
import { waitFor } from '../testing/wait';

const status = (code: number, reason: string): Status => ({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason });

/** An in-memory Lease endpoint with kube-apiserver's optimistic concurrency; `down` makes a caller's requests fail. */
class FakeLeases {
  lease: Lease | undefined;
  rv = 0;
  readonly down = new Set<string>();
  /** Callers whose requests hang until their signal aborts (a partition that times out). */
  readonly hung = new Set<string>();
  /** Resolves with performance.now() when a caller's first request hangs. */
  readonly #firstHung = new Map<string, { at: Promise<number>; resolve: (at: number) => void }>();
  writes = 0;
  /** performance.now() when each successful write by a caller was sent. */
  readonly sentAt = new Map<string, number>();

  /** Someone else takes the Lease over (an admin, or a replica that judged it expired). */
  steal(holder: string): void {
    this.lease = { ...this.lease!, metadata: { ...this.lease!.metadata, resourceVersion: String(++this.rv) }, spec: { ...this.lease!.spec, holderIdentity: holder, leaseDurationSeconds: 3600 } };
  }

  firstHung(who: string): Promise<number> {
    return this.#hungFor(who).at;
  }

  #hungFor(who: string): { at: Promise<number>; resolve: (at: number) => void } {
    let hung = this.#firstHung.get(who);
    if (!hung) {
      let resolve!: (at: number) => void;
      const at = new Promise<number>((r) => { resolve = r; });
      this.#firstHung.set(who, (hung = { at, resolve }));
    }
    return hung;
  }

  clientFor(who: string): LeaseClient {
    const hang = (signal?: AbortSignal) => new Promise<never>((_, reject) => {
      this.#hungFor(who).resolve(performance.now());
      if (signal?.aborted) reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    const check = (): void => { if (this.down.has(who)) throw new Error('connection refused'); };
    return {
      get: async <T>(_p: string, opts?: RequestOptions) => {
        if (this.hung.has(who)) return hang(opts?.signal);
        check();
        if (!this.lease) throw new KubeApiError(status(404, 'NotFound'));
        return structuredClone(this.lease) as T;
      },
      create: async <T>(_p: string, body: unknown, opts?: RequestOptions) => {
        if (this.hung.has(who)) return hang(opts?.signal);
        const sent = performance.now();
        check();
        if (this.lease) throw new KubeApiError(status(409, 'AlreadyExists'));
        this.writes++;
        this.lease = { ...(body as Lease), metadata: { ...(body as Lease).metadata, resourceVersion: String(++this.rv) } };
        this.sentAt.set(who, sent);
        return structuredClone(this.lease) as T;
      },
      update: async <T>(_p: string, body: unknown, opts?: RequestOptions) => {
        if (this.hung.has(who)) return hang(opts?.signal);
        const sent = performance.now();
        check();
        const b = body as Lease;
        if (!this.lease || b.metadata.resourceVersion !== this.lease.metadata.resourceVersion) throw new KubeApiError(status(409, 'Conflict'));
        this.writes++;
        this.lease = { ...b, metadata: { ...b.metadata, resourceVersion: String(++this.rv) } };
        this.sentAt.set(who, sent);
        return structuredClone(this.lease) as T;
      },
    };
  }
}

const timing = { leaseDurationMs: 1000, renewDeadlineMs: 600, retryPeriodMs: 100 };

function candidate(leases: FakeLeases, id: string, log: string[], times: typeof timing = timing): LeaderElector {
  return new LeaderElector({
    client: leases.clientFor(id), identity: id, ...times, logger: silentLogger, name: 'l', namespace: 'n',
    onStartedLeading: () => { log.push(`${id} started`); },
    onStoppedLeading: () => { log.push(`${id} stopped`); },
  });
}

const leads = (c: LeaderElector) => waitFor(`${c.identity} to lead`, () => c.isLeader(), 5000, 10);

describe('LeaderElector', () => {
  it('elects exactly one of two candidates, and hands over at once when the leader releases', async () => {
    const leases = new FakeLeases();
    const log: string[] = [];
    // A lease long enough that a handover after its expiry cannot pass for one at once on a busy machine.
    const times = { leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 100 };
    const a = candidate(leases, 'a', log, times);
    const b = candidate(leases, 'b', log, times);
    const stopA = new AbortController();
    const stopB = new AbortController();
    const runA = a.run(stopA.signal);
    await leads(a);
    const runB = b.run(stopB.signal);
    await new Promise((r) => setTimeout(r, 3500)); // longer than the lease: a keeps renewing it
    expect(log).toEqual(['a started']);
    expect(b.isLeader()).toBe(false);
    expect(b.getLeader()).toBe('a');

    const released = Date.now();
    stopA.abort();
    await runA;
    expect(leases.lease?.spec?.holderIdentity).toBe('');
    await leads(b);
    expect(Date.now() - released).toBeLessThan(2500); // under the 3 s lease: no expiry wait
    expect(log).toEqual(['a started', 'a stopped', 'b started']);
    expect(leases.lease?.spec?.leaseTransitions).toBe(1);
    stopB.abort();
    await runB;
  });

  it('steps down when it cannot renew within the renew deadline; the other takes over after the lease expires', async () => {
    const leases = new FakeLeases();
    const log: string[] = [];
    const a = candidate(leases, 'a', log);
    const b = candidate(leases, 'b', log);
    const stop = new AbortController();
    const runA = a.run(stop.signal);
    await leads(a);
    const runB = b.run(stop.signal);
    leases.down.add('a');
    await runA; // returns on its own: leadership lost
    expect(log).toEqual(['a started', 'a stopped']);
    await leads(b);
    expect(log).toEqual(['a started', 'a stopped', 'b started']);
    stop.abort();
    await runB;
  });

  it('writes the Lease with integer seconds, microsecond times and the holder', async () => {
    const leases = new FakeLeases();
    const a = candidate(leases, 'a', []);
    const stop = new AbortController();
    const run = a.run(stop.signal);
    await leads(a);
    const spec = leases.lease!.spec!;
    expect(spec.holderIdentity).toBe('a');
    expect(spec.leaseDurationSeconds).toBe(1);
    expect(spec.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    stop.abort();
    await run;
  });

  it('on losing the Lease, closes the fence and cancels the term at once, and campaigns again only once the term has drained', async () => {
    const leases = new FakeLeases();
    const fence = new WriteFence();
    const events: string[] = [];
    let returned = false;
    const a = new LeaderElector({
      client: leases.clientFor('a'), identity: 'a', ...timing, logger: silentLogger, name: 'l', namespace: 'n', fence,
      onStartedLeading: async (signal) => {
        events.push('started');
        await new Promise((r) => signal.addEventListener('abort', r, { once: true }));
        events.push(`cancelled, fence ${fenceState()}`);
        await new Promise((r) => setTimeout(r, 50)); // a reconcile finishing its cancelled request
        events.push(`drained, run returned: ${returned}`);
      },
      onStoppedLeading: () => events.push('stopped'),
    });
    const fenceState = () => { try { fence.check(); return 'open'; } catch { return 'closed'; } };
    const stop = new AbortController();
    const run = a.run(stop.signal).then(() => { returned = true; });
    await leads(a);
    expect(fenceState()).toBe('open');
    leases.steal('usurper');
    await run;
    // Stopped (and free to campaign again) only after the cancelled term finished: terms never overlap.
    expect(events).toEqual(['started', 'cancelled, fence closed', 'drained, run returned: false', 'stopped']);
    expect(leases.lease?.spec?.holderIdentity).toBe('usurper');
    stop.abort();
  });

  it('ends the term when the renew deadline passes after the last renewal was sent, though renewals hang rather than fail', async () => {
    const leases = new FakeLeases();
    const fence = new WriteFence();
    const slow = { leaseDurationMs: 3000, renewDeadlineMs: 1000, retryPeriodMs: 400 };
    let cancelledAt = 0;
    const a = new LeaderElector({
      client: leases.clientFor('a'), identity: 'a', ...slow, logger: silentLogger, name: 'l', namespace: 'n', fence,
      onStartedLeading: (signal) => { signal.addEventListener('abort', () => { cancelledAt = performance.now(); }, { once: true }); },
    });
    const stop = new AbortController();
    const run = a.run(stop.signal);
    await leads(a);
    leases.hung.add('a');
    const hungAt = await leases.firstHung('a');
    const lastSent = leases.sentAt.get('a')!;
    // The deadline counts from when the last successful renewal was sent, not from when the first failing
    // attempt began (up to a retry period later): when that attempt hangs, the term ends at the former.
    // Read off the fence's own clock, so no timer's lateness under load enters the check.
    const remaining = fence.remainingMs();
    if (remaining > 0) expect(hungAt + remaining).toBeLessThanOrEqual(lastSent + slow.renewDeadlineMs + 1);
    await run; // leadership ended on its own
    expect(() => fence.check()).toThrow(/renew deadline/);
    expect(cancelledAt - lastSent).toBeGreaterThanOrEqual(slow.renewDeadlineMs - 1);
    stop.abort();
  });
});
