import { ReviewMemo } from './review-memo';

/** A review kube-apiserver has not answered yet: `answer` or `fail` settles it. */
class Pending<V> {
  readonly promise: Promise<V>;
  answer!: (v: V) => void;
  fail!: (err: Error) => void;
  constructor() {
    this.promise = new Promise<V>((resolve, reject) => {
      this.answer = resolve;
      this.fail = reject;
    });
  }
}

/** A memo on a clock the test moves, and every review it asked for, unanswered until the test answers it. */
function memo(ttlMs = 10_000, maxEntries = 100) {
  const clock = { now: 0 };
  const asked: Pending<string>[] = [];
  const m = new ReviewMemo<string>({ maxEntries, ttlOf: () => ttlMs, now: () => clock.now });
  const ask = () => {
    const p = new Pending<string>();
    asked.push(p);
    return p.promise;
  };
  return { m, clock, asked, ask };
}

describe('ReviewMemo', () => {
  it('asks once for concurrent uses of a key, and answers from memory for the first half of the answer\'s life', async () => {
    const { m, clock, asked, ask } = memo();
    const both = Promise.all([m.get('k', ask), m.get('k', ask)]);
    expect(asked).toHaveLength(1);
    asked[0].answer('yes');
    expect(await both).toEqual(['yes', 'yes']);
    clock.now = 4_999;
    expect(await m.get('k', ask)).toBe('yes');
    expect(asked).toHaveLength(1);
  });

  it('answers a use past the half-life at once and renews the answer in the background, once', async () => {
    const { m, clock, asked, ask } = memo();
    const first = m.get('k', ask);
    asked[0].answer('old');
    await first;
    clock.now = 5_000;
    // Answered from memory while the renewal is still unanswered: the caller does not wait for it.
    expect(await m.get('k', ask)).toBe('old');
    expect(await m.get('k', ask)).toBe('old');
    expect(asked).toHaveLength(2);
    asked[1].answer('new');
    await asked[1].promise;
    await Promise.resolve();
    expect(await m.get('k', ask)).toBe('new');
    // The renewed answer lives a whole time to live from its arrival.
    clock.now = 14_999;
    expect(await m.get('k', ask)).toBe('new');
    expect(asked).toHaveLength(3); // past the new half-life (10,000): renewed again
  });

  it('never uses an answer past its time to live: a use after expiry waits for the review, or joins the renewal under way', async () => {
    const { m, clock, asked, ask } = memo();
    const first = m.get('k', ask);
    asked[0].answer('old');
    await first;
    clock.now = 10_000;
    const waiting = m.get('k', ask);
    expect(asked).toHaveLength(2);
    let settled = false;
    void waiting.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    asked[1].answer('new');
    expect(await waiting).toBe('new');

    // A renewal started in the second half of life, still unanswered at expiry: the use after expiry joins it.
    clock.now = 15_000;
    expect(await m.get('k', ask)).toBe('new');
    expect(asked).toHaveLength(3);
    clock.now = 20_000;
    const joined = m.get('k', ask);
    expect(asked).toHaveLength(3);
    asked[2].answer('newer');
    expect(await joined).toBe('newer');
  });

  it('stores no failure: the use that waited fails with it, and a failed renewal leaves the answer to expire on time', async () => {
    const { m, clock, asked, ask } = memo();
    const failed = m.get('k', ask);
    asked[0].fail(new Error('timeout'));
    await expect(failed).rejects.toThrow('timeout');
    const second = m.get('k', ask);
    expect(asked).toHaveLength(2);
    asked[1].answer('yes');
    await second;
    clock.now = 6_000;
    expect(await m.get('k', ask)).toBe('yes');
    asked[2].fail(new Error('timeout'));
    await asked[2].promise.catch(() => {});
    await Promise.resolve();
    clock.now = 9_999;
    expect(await m.get('k', ask)).toBe('yes'); // still alive, and a new renewal is tried
    expect(asked).toHaveLength(4);
    clock.now = 10_000;
    const after = m.get('k', ask); // expired: joins the renewal under way, never the old answer
    asked[3].answer('again');
    expect(await after).toBe('again');
  });

  it('keeps each answer for the time to live it gives, and stores nothing for a non-positive one', async () => {
    const clock = { now: 0 };
    const m = new ReviewMemo<number>({ maxEntries: 10, ttlOf: (v) => v, now: () => clock.now });
    let asks = 0;
    const ask = (v: number) => () => (asks++, Promise.resolve(v));
    await m.get('short', ask(100));
    await m.get('none', ask(0));
    expect(m.size).toBe(1);
    clock.now = 100;
    await m.get('short', ask(100));
    expect(asks).toBe(3);
  });

  it('never holds more than its bound, evicting the oldest insertion', async () => {
    const m = new ReviewMemo<number>({ maxEntries: 3, ttlOf: () => 60_000 });
    let asks = 0;
    const ask = (v: number) => () => (asks++, Promise.resolve(v));
    for (let i = 0; i < 5; i++) await m.get(`k${i}`, ask(i));
    expect(m.size).toBe(3);
    expect(await m.get('k4', ask(-1))).toBe(4);
    expect(await m.get('k0', ask(-1))).toBe(-1); // evicted: asked again
    expect(asks).toBe(6);
  });
});
