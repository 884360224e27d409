import { BucketRateLimiter, defaultControllerRateLimiter, ItemExponentialFailureRateLimiter, MaxOfRateLimiter } from './rate-limit';

describe('rate limiters', () => {
  it('doubles per key from 5 ms and caps at 1000 s (client-go defaults)', () => {
    const l = new ItemExponentialFailureRateLimiter<string>();
    expect([l.when('a'), l.when('a'), l.when('a'), l.when('b')]).toEqual([5, 10, 20, 5]);
    for (let i = 0; i < 2000; i++) l.when('a');
    expect(l.when('a')).toBe(1_000_000);
  });

  it('lets a burst of retries through, then spaces them by the overall bucket', () => {
    let now = 0;
    const l = new BucketRateLimiter<string>(10, 2, () => now);
    expect([l.when('a'), l.when('b')]).toEqual([0, 0]);
    expect(l.when('c')).toBeCloseTo(100);
  });

  it('takes the maximum of its limiters', () => {
    let now = 0;
    const l = new MaxOfRateLimiter<string>(new ItemExponentialFailureRateLimiter(5, 1000), new BucketRateLimiter(1, 1, () => now));
    expect(l.when('a')).toBe(5);
    expect(l.when('a')).toBeCloseTo(1000);
    expect(l.numRequeues('a')).toBe(2);
    l.forget('a');
    expect(l.numRequeues('a')).toBe(0);
    expect(defaultControllerRateLimiter<string>().when('x')).toBe(5);
  });
});
