import { CpuTimeline, MAIN_THREAD, cpuMsOf, statCpuMs } from './cpu-timeline';

describe('CpuTimeline', () => {
  it('reads utime and stime (fields 14 and 15) after a command name with spaces and parentheses', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime …
    const line = '4242 (a) b (c)) S 1 4242 4242 0 -1 4194560 1000 0 7 0 123 45 9 9 20 0 12 0 100 0 0';
    expect(statCpuMs(line)).toBe((123 + 45) * 10);
    expect(statCpuMs('4242 (short) S 1 2')).toBeUndefined();
  });

  it('reads this process and its main thread, and nothing for one that does not exist', () => {
    expect(cpuMsOf(process.pid)).toBeGreaterThan(0);
    expect(cpuMsOf(MAIN_THREAD)).toBeGreaterThan(0);
    expect(cpuMsOf(2 ** 22 + 1)).toBeUndefined();
  });

  it('gives each process\'s CPU time over a span, interpolated between readings, and nothing outside them', () => {
    const clock = { now: 0 };
    // Process a runs 10 ms per 20 ms from t = 0; b cannot be read at t = 40.
    const cpu = (path: number | string) => (path === 'a' ? clock.now / 2 : clock.now === 40 ? undefined : clock.now);
    const timeline = new CpuTimeline({ a: 'a', b: 'b' }, 60_000, cpu, () => clock.now);
    for (const t of [20, 40, 60]) {
      clock.now = t;
      (timeline as unknown as { stop(): void }).stop(); // a reading at each of these times
    }
    expect(timeline.over(5, 15)).toEqual({ a: 5, b: 10 });
    expect(timeline.over(10, 20)).toEqual({ a: 5, b: 10 });
    // b's reading at 40 failed: no span that needs it.
    expect(timeline.over(10, 30)).toEqual({ a: 10 });
    expect(timeline.over(30, 50)).toEqual({ a: 10 });
    expect(timeline.over(-1, 10)).toEqual({});
    expect(timeline.over(50, 61)).toEqual({});
  });
});
