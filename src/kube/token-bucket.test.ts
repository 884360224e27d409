import { TokenBucket } from './token-bucket';

describe('TokenBucket', () => {
  it('lets a burst through at once, then spaces requests at 1/qps', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    expect(bucket.reserve()).toBeCloseTo(100);
    expect(bucket.reserve()).toBeCloseTo(200);
    now = 1000; // 10 tokens refilled, but the bucket holds at most 3 (after repaying the 2 borrowed)
    expect(bucket.tokens()).toBeCloseTo(3);
  });

  it('is disabled by qps <= 0', () => {
    const bucket = new TokenBucket(0, 0);
    for (let i = 0; i < 100; i++) expect(bucket.reserve()).toBe(0);
  });

  it('waits for the token and reports the time waited', async () => {
    const bucket = new TokenBucket(100, 1);
    expect(await bucket.wait()).toBe(0);
    const waited = await bucket.wait();
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(10.5);
  });

  it('gives the token back when the wait is aborted', async () => {
    let now = 0;
    const bucket = new TokenBucket(1, 1, () => now);
    bucket.reserve();
    const ac = new AbortController();
    const waiting = bucket.wait(ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    now = 0;
    expect(bucket.tokens()).toBeCloseTo(0);
  });
});
