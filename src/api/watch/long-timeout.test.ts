import { longTimeout, MAX_TIMER_MS } from './long-timeout';

describe('longTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each([MAX_TIMER_MS + 1, 2147484 * 1000, 3 * MAX_TIMER_MS + 5])('fires once %d ms have passed, not before', (ms) => {
    let fired = 0;
    longTimeout(() => fired++, ms);
    jest.advanceTimersByTime(ms - 1);
    expect(fired).toBe(0);
    jest.advanceTimersByTime(1);
    expect(fired).toBe(1);
    jest.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fired).toBe(1);
  });

  it('fires a short delay as setTimeout does', () => {
    let fired = 0;
    longTimeout(() => fired++, 50);
    jest.advanceTimersByTime(49);
    expect(fired).toBe(0);
    jest.advanceTimersByTime(1);
    expect(fired).toBe(1);
  });

  it('never fires once cancelled, whichever link of the chain is waiting', () => {
    let fired = 0;
    const cancel = longTimeout(() => fired++, 2 * MAX_TIMER_MS + 10);
    jest.advanceTimersByTime(MAX_TIMER_MS + 1);
    cancel();
    cancel();
    jest.advanceTimersByTime(10 * MAX_TIMER_MS);
    expect(fired).toBe(0);
  });
});
