import { performance } from 'node:perf_hooks';
import { CpuTimeline, cpuMsOf } from './cpu-timeline';

describe('CpuTimeline', () => {
  it('reads a process\'s CPU time from /proc/<pid>/stat, and nothing for one that does not exist', () => {
    expect(cpuMsOf(process.pid)).toBeGreaterThan(0);
    expect(cpuMsOf(2 ** 22 + 1)).toBeUndefined();
  });

  it('gives the CPU time this process spent over a span, and nothing outside its readings', async () => {
    const timeline = new CpuTimeline({ self: process.pid }, 5);
    await new Promise((r) => setTimeout(r, 20));
    const from = performance.now();
    // 60 ms of this thread's CPU time (however long a busy machine makes it take): /proc counts it in 10 ms ticks.
    const cpuAtStart = process.cpuUsage();
    while (process.cpuUsage(cpuAtStart).user + process.cpuUsage(cpuAtStart).system < 60_000) Math.sqrt(Math.random());
    const to = performance.now();
    await new Promise((r) => setTimeout(r, 20));
    timeline.stop();
    const spent = timeline.over(from, to).self;
    expect(spent).toBeGreaterThanOrEqual(40);
    expect(spent).toBeLessThanOrEqual(2 * (to - from) + 20);
    expect(timeline.over(from - 10_000, to)).toEqual({});
  });
});
