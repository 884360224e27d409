import { FencedError, WriteFence } from './write-fence';

/** A monotonic clock the test moves by hand. */
function clock() {
  const c = { t: 1000, now: () => c.t };
  return c;
}

describe('WriteFence', () => {
  it('refuses writes before any term began', () => {
    const fence = new WriteFence(() => 0);
    expect(() => fence.check()).toThrow(FencedError);
    expect(fence.signal.aborted).toBe(true);
  });

  it('allows writes until the renew deadline after the acquiring request was sent, by its own clock', () => {
    const c = clock();
    const fence = new WriteFence(c.now);
    const term = fence.begin(c.t, 4000);
    c.t += 3999;
    expect(() => fence.check()).not.toThrow();
    c.t += 1; // the deadline: sentAt + renewDeadline
    expect(() => fence.check()).toThrow(/renew deadline/);
    expect(fence.remainingMs()).toBe(0);
    term.addEventListener('abort', () => undefined);
  });

  it('counts a renewal from when it was sent, not when it was answered', () => {
    const c = clock();
    const fence = new WriteFence(c.now);
    fence.begin(c.t, 4000);
    const sent = c.t + 2000;
    c.t += 3000; // the answer took a second
    expect(fence.renewed(sent)).toBe(true);
    c.t = sent + 4000 - 1;
    expect(() => fence.check()).not.toThrow();
    c.t = sent + 4000;
    expect(() => fence.check()).toThrow(FencedError);
  });

  it('does not reopen a term whose deadline passed before a renewal came back', () => {
    const c = clock();
    const fence = new WriteFence(c.now);
    fence.begin(c.t, 4000);
    const sent = c.t + 3900;
    c.t += 4100;
    expect(fence.renewed(sent)).toBe(false);
    expect(() => fence.check()).toThrow(FencedError);
  });

  it('closes at once when the term ends, and aborts the term signal with the reason', () => {
    const c = clock();
    const fence = new WriteFence(c.now);
    const term = fence.begin(c.t, 4000);
    fence.end('the Lease is held by usurper');
    expect(term.aborted).toBe(true);
    expect(() => fence.check()).toThrow(/usurper/);
    expect(fence.renewed(c.t)).toBe(false);
  });

  it('aborts the term signal when the deadline passes without a renewal (cancelling in-flight work)', async () => {
    const fence = new WriteFence();
    const term = fence.begin(performance.now(), 30);
    await new Promise<void>((resolve) => term.addEventListener('abort', () => resolve(), { once: true }));
    expect(() => fence.check()).toThrow(/renew deadline/);
  });

  it('gives a new term a new signal; the old one stays aborted', () => {
    const c = clock();
    const fence = new WriteFence(c.now);
    const first = fence.begin(c.t, 4000);
    fence.end('lost');
    const second = fence.begin(c.t, 4000);
    expect(first.aborted).toBe(true);
    expect(second.aborted).toBe(false);
    expect(() => fence.check()).not.toThrow();
    fence.end('done');
  });
});
