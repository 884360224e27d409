import { Worker } from 'node:worker_threads';
import { otherThreadsFrom, schedDelta, schedFrom, schedOf, threadsDelta, threadsSchedOf } from './sched';

describe('a process\'s threads\' accounting', () => {
  it('reads every thread of a process', () => {
    const threads = threadsSchedOf(process.pid);
    expect(threads?.has(String(process.pid))).toBe(true); // the main thread is a task of its own id
    expect(threadsSchedOf(0)).toBeUndefined();
  });

  it('sums what each thread did in between: one that ended is not counted, one that started counts from its start', () => {
    const before = new Map([['1', { cpuMs: 10, waitMs: 1, runs: 5 }], ['2', { cpuMs: 50, waitMs: 5, runs: 9 }]]);
    const after = new Map([['1', { cpuMs: 12, waitMs: 1.5, runs: 7 }], ['3', { cpuMs: 4, waitMs: 2, runs: 1 }]]);
    expect(threadsDelta(before, after)).toEqual({ cpuMs: 6, waitMs: 2.5, runs: 3 });
    expect(threadsDelta(undefined, after)).toBeUndefined();
  });

  it('tells the other threads from the main one', async () => {
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;) { /* on a CPU */ }
    };
    // The main thread busy: what the others did meanwhile (V8's workers may run a little) is not its.
    const others = otherThreadsFrom(process.pid);
    const main = schedOf('self');
    spin(100);
    const mainSpent = schedDelta(main, schedOf('self'))!;
    expect(others()!.cpuMs).toBeLessThan(mainSpent.cpuMs);
    // A thread started after the first read that ran 50 ms on a CPU by its own accounting (and is still
    // alive when read again): counted whole, from its start.
    const withWorker = otherThreadsFrom(process.pid);
    const worker = new Worker(`
      const { readFileSync } = require('node:fs');
      const cpuMs = () => Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
      while (cpuMs() < 50) for (let i = 0; i < 1e5; i++);
      require('node:worker_threads').parentPort.postMessage('spun');
      setInterval(() => {}, 1000);`, { eval: true });
    try {
      await new Promise((resolve) => worker.once('message', resolve));
      expect(withWorker()!.cpuMs).toBeGreaterThanOrEqual(50);
    } finally {
      await worker.terminate();
    }
  });

  it('reads a proxy\'s threads, summed and named, when one served the sample', () => {
    const since = schedFrom(undefined, undefined, { name: 'capsule-proxy', pid: process.pid });
    expect(since()?.proxy).toMatchObject({ name: 'capsule-proxy', threads: { cpuMs: expect.any(Number), waitMs: expect.any(Number) } });
    expect(schedFrom(undefined)()?.proxy).toBeUndefined();
  });
});
