import { threadsDelta, threadsSchedOf } from './sched';

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
});
