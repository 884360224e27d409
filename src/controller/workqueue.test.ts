import { silentLogger } from '../kube/log';
import { ItemExponentialFailureRateLimiter } from './rate-limit';
import { WorkQueue } from './workqueue';
import { runWorkers, TerminalError } from './workqueue-workers';
import { waitFor } from '../testing/wait';
import { waitingForIo } from '../kube/io-wait';

const tick = (ms = 0): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Keeps the CPU for `ms`, as a reconcile's work does: nothing else runs meanwhile. */
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('WorkQueue', () => {
  it('hands keys out in FIFO order and de-duplicates keys already queued', async () => {
    const q = new WorkQueue<string>({ name: 't-fifo' });
    for (const k of ['a', 'b', 'a', 'c', 'b']) q.add(k);
    expect(q.len()).toBe(3);
    expect([await q.get(), await q.get(), await q.get()]).toEqual(['a', 'b', 'c']);
    expect(q.len()).toBe(0);
  });

  it('never hands out a key that is being processed; re-queues it after done', async () => {
    const q = new WorkQueue<string>({ name: 't-processing' });
    q.add('a');
    expect(await q.get()).toBe('a');
    q.add('a');
    q.add('a');
    expect(q.len()).toBe(0);
    let second: string | undefined;
    void q.get().then((k) => { second = k; });
    await tick();
    expect(second).toBeUndefined();
    q.done('a');
    await tick();
    expect(second).toBe('a');
    q.done('a');
    expect(q.len()).toBe(0);
  });

  it('wakes a waiting get when a key arrives', async () => {
    const q = new WorkQueue<string>({ name: 't-wake' });
    const got = q.get();
    q.add('x');
    expect(await got).toBe('x');
  });

  it('addAfter delays a key, and only the earliest pending time counts', async () => {
    jest.useFakeTimers();
    try {
      const q = new WorkQueue<string>({ name: 't-delay' });
      q.addAfter('a', 1000);
      q.addAfter('a', 5000);
      q.addAfter('b', 300);
      q.addAfter('b', 100);
      expect(q.len()).toBe(0);
      await jest.advanceTimersByTimeAsync(150);
      expect(q.len()).toBe(1);
      expect(await q.get()).toBe('b');
      await jest.advanceTimersByTimeAsync(850);
      expect(q.len()).toBe(1);
      expect(await q.get()).toBe('a');
      await jest.advanceTimersByTimeAsync(10_000);
      expect(q.len()).toBe(0);
      expect(q.delayedLen()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('addRateLimited backs off per key exponentially until forgotten', async () => {
    jest.useFakeTimers();
    try {
      const q = new WorkQueue<string>({ name: 't-backoff', rateLimiter: new ItemExponentialFailureRateLimiter(100, 1000) });
      const readyAfter = async (): Promise<number> => {
        q.addRateLimited('k');
        let waited = 0;
        while (q.len() === 0) { await jest.advanceTimersByTimeAsync(10); waited += 10; }
        await q.get();
        q.done('k');
        return waited;
      };
      expect(await readyAfter()).toBe(100);
      expect(await readyAfter()).toBe(200);
      expect(await readyAfter()).toBe(400);
      expect(await readyAfter()).toBe(800);
      expect(await readyAfter()).toBe(1000);
      expect(q.numRequeues('k')).toBe(5);
      q.forget('k');
      expect(q.numRequeues('k')).toBe(0);
      expect(await readyAfter()).toBe(100);
    } finally {
      jest.useRealTimers();
    }
  });

  it('after shutDown ignores adds, still hands out queued keys, then resolves undefined', async () => {
    const q = new WorkQueue<string>({ name: 't-shutdown' });
    q.add('a');
    const waiterless = q.get();
    const blocked = new WorkQueue<string>({ name: 't-shutdown-2' });
    const pending = blocked.get();
    blocked.shutDown();
    expect(await pending).toBeUndefined();
    expect(await waiterless).toBe('a');
    q.add('b');
    q.shutDown();
    expect(await q.get()).toBe('b');
    q.add('c');
    q.addAfter('d', 1);
    expect(await q.get()).toBeUndefined();
  });

  it('shutDownWithDrain waits for keys being processed', async () => {
    const q = new WorkQueue<string>({ name: 't-drain' });
    q.add('a');
    await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => { drained = true; });
    await tick(5);
    expect(drained).toBe(false);
    q.done('a');
    await drain;
    expect(drained).toBe(true);
  });
});

describe('runWorkers', () => {
  it('never reconciles one key twice at once, however often it is added', async () => {
    const q = new WorkQueue<string>({ name: 't-workers' });
    const running = new Set<string>();
    let overlap = false;
    let calls = 0;
    const done = runWorkers(q, 4, async (key: string) => {
      if (running.has(key)) overlap = true;
      running.add(key);
      calls++;
      await tick(2);
      running.delete(key);
    });
    for (let i = 0; i < 3; i++) q.add(`k${i}`);
    await tick(0); // all three are being processed now
    for (let i = 0; i < 60; i++) q.add(`k${i % 3}`);
    await tick(30);
    await q.shutDownWithDrain();
    await done;
    expect(overlap).toBe(false);
    expect(calls).toBe(6); // each key once, then once more for all the adds made while it ran
  });

  it('retries a failing key with backoff, forgets it on success, and does not retry terminal errors', async () => {
    const q = new WorkQueue<string>({ name: 't-retry', rateLimiter: new ItemExponentialFailureRateLimiter(1, 10) });
    const attempts: Record<string, number> = {};
    let flakySucceeded = false;
    const done = runWorkers(q, 2, async (key: string) => {
      attempts[key] = (attempts[key] ?? 0) + 1;
      if (key === 'flaky' && attempts[key]! < 3) throw new Error('transient');
      if (key === 'bad') throw new TerminalError('invalid spec');
      if (key === 'flaky') flakySucceeded = true;
    }, { logger: silentLogger });
    q.add('flaky');
    q.add('bad');
    // Two backoffs (1 ms, 2 ms) later flaky succeeds; a retry of bad (1 ms) would have come before that.
    await waitFor('flaky to succeed on its third attempt and be forgotten', () => flakySucceeded && q.numRequeues('flaky') === 0, 10_000, 1);
    expect(attempts).toEqual({ flaky: 3, bad: 1 });
    q.shutDown();
    await done;
  });

  it('requeues after the requested delay on success', async () => {
    const q = new WorkQueue<string>({ name: 't-requeue' });
    let calls = 0;
    const done = runWorkers(q, 1, async () => (++calls < 3 ? { requeueAfter: 5 } : {}));
    q.add('a');
    await tick(60);
    expect(calls).toBe(3);
    q.shutDown();
    await done;
  });

  it('lets the event loop turn while a backlog of reconciles that need no I/O drains', async () => {
    const q = new WorkQueue<string>({ name: 't-slices' });
    let reconciled = 0;
    // Each reconcile reads only memory: its promise settles in microtasks, as a converged tenant's does.
    const done = runWorkers(q, 4, async () => {
      busy(2);
      reconciled++;
    });
    let seenByTimer = -1;
    setTimeout(() => (seenByTimer = reconciled), 0);
    for (let i = 0; i < 40; i++) q.add(`k${i}`);
    while (reconciled < 40) await tick(1);
    q.shutDown();
    await done;
    expect(seenByTimer).toBeGreaterThanOrEqual(0);
    expect(seenByTimer).toBeLessThan(40);
  });

  it('holds the event loop for one slice and one reconcile at most, however many workers interleave', async () => {
    const q = new WorkQueue<string>({ name: 't-slice-bound' });
    let reconciled = 0;
    // As a converged tenant's: no I/O, but awaits between its steps, so the workers' reconciles interleave
    // in microtasks; each takes 3 ms of CPU.
    const done = runWorkers(q, 16, async () => {
      await Promise.resolve();
      busy(1.5);
      await Promise.resolve();
      busy(1.5);
      reconciled++;
    });
    // Reconciles finished in each turn of the event loop, counted at its check phase.
    const perTurn: number[] = [];
    let last = 0;
    const beat = () => {
      perTurn.push(reconciled - last);
      last = reconciled;
      if (reconciled < 64) setImmediate(beat);
    };
    setImmediate(beat);
    for (let i = 0; i < 64; i++) q.add(`k${i}`);
    while (reconciled < 64) await tick(1);
    q.shutDown();
    await done;
    // A 5 ms slice fits two 3 ms reconciles (the second starts at 3 ms, within it); a slow machine fits fewer.
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(2);
  });

  it('lets every worker wait for the network at once, on a busy event loop too', async () => {
    const q = new WorkQueue<string>({ name: 't-slice-io' });
    // Something else keeps the loop busy: 3 ms of CPU on every turn.
    let loaded = true;
    const load = () => {
      busy(3);
      if (loaded) setImmediate(load);
    };
    setImmediate(load);
    let inFlight = 0;
    let most = 0;
    let reconciled = 0;
    // A reconcile that writes: the client says it waits for the network, then the answer comes later.
    const done = runWorkers(q, 16, async () => {
      waitingForIo();
      most = Math.max(most, ++inFlight);
      await tick(20);
      inFlight--;
      reconciled++;
    });
    for (let i = 0; i < 32; i++) q.add(`k${i}`);
    while (reconciled < 32) await tick(1);
    loaded = false;
    q.shutDown();
    await done;
    expect(most).toBe(16);
  });
});
