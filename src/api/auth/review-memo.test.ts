import { MAX_RENEWALS, RENEW_RETRY_MS, ReviewMemo, type ReviewMemoOptions } from './review-memo';

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

/** Lets every settled review's handlers run. */
const settle = () => new Promise((r) => setImmediate(r));

/** A memo on a clock the test moves, and every review it asked for, unanswered until the test answers it. */
function memo(options: Partial<ReviewMemoOptions<string>> = {}) {
  const clock = { now: 0 };
  const asked: Pending<string>[] = [];
  const renewals: string[] = [];
  const m = new ReviewMemo<string>({ maxEntries: 100, ttlOf: () => 10_000, now: () => clock.now, onRenewal: (o) => renewals.push(o), ...options });
  const ask = () => {
    const p = new Pending<string>();
    asked.push(p);
    return p.promise;
  };
  return { m, clock, asked, ask, renewals };
}

/** `key`'s first answer, `value`, stored at the clock's time. */
async function answered(t: ReturnType<typeof memo>, key: string, value: string): Promise<void> {
  const first = t.m.get(key, t.ask);
  t.asked[t.asked.length - 1].answer(value);
  await first;
}

describe('ReviewMemo', () => {
  it('asks once for concurrent uses of a key, and answers from memory for the first three quarters of the answer\'s life', async () => {
    const { m, clock, asked, ask } = memo();
    const both = Promise.all([m.get('k', ask), m.get('k', ask)]);
    expect(asked).toHaveLength(1);
    asked[0].answer('yes');
    expect(await both).toEqual(['yes', 'yes']);
    clock.now = 7_499;
    expect(await m.get('k', ask)).toBe('yes');
    expect(asked).toHaveLength(1);
  });

  it('answers a use past three quarters of the life at once and renews the answer in the background, once', async () => {
    const t = memo();
    const { m, clock, asked, ask, renewals } = t;
    await answered(t, 'k', 'old');
    clock.now = 7_500;
    // Answered from memory while the renewal is still unanswered: the caller does not wait for it.
    expect(await m.get('k', ask)).toBe('old');
    expect(await m.get('k', ask)).toBe('old');
    expect(asked).toHaveLength(2);
    clock.now = 8_000; // the renewal's answer arrives later than it was asked
    asked[1].answer('new');
    await settle();
    expect(renewals).toEqual(['answered']);
    expect(await m.get('k', ask)).toBe('new');
    // The renewed answer lives a whole time to live from its arrival (8,000), not from its asking.
    clock.now = 17_999;
    expect(await m.get('k', ask)).toBe('new');
    expect(asked).toHaveLength(3); // and was past three quarters of that life (15,500): renewed again
  });

  it('never uses an answer past its time to live: a use after expiry waits for the review, or joins the renewal under way', async () => {
    const t = memo();
    const { m, clock, asked, ask } = t;
    await answered(t, 'k', 'old');
    clock.now = 10_000;
    const waiting = m.get('k', ask);
    expect(asked).toHaveLength(2);
    let settled = false;
    void waiting.then(() => (settled = true));
    await settle();
    expect(settled).toBe(false);
    asked[1].answer('new');
    expect(await waiting).toBe('new');

    // A renewal started in the last quarter of the life, still unanswered at expiry: the use after expiry joins it.
    clock.now = 17_500;
    expect(await m.get('k', ask)).toBe('new');
    expect(asked).toHaveLength(3);
    clock.now = 20_000;
    const joined = m.get('k', ask);
    expect(asked).toHaveLength(3);
    asked[2].answer('newer');
    expect(await joined).toBe('newer');
  });

  it('stores no failure: the use that waited fails with it', async () => {
    const { m, asked, ask } = memo();
    const failed = m.get('k', ask);
    asked[0].fail(new Error('timeout'));
    await expect(failed).rejects.toThrow('timeout');
    const second = m.get('k', ask);
    expect(asked).toHaveLength(2);
    asked[1].answer('yes');
    expect(await second).toBe('yes');
  });

  it('after a failed renewal, keeps the answer to its end and tries again a while later, not on every use (no unhandled failure)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const t = memo();
      const { m, clock, asked, ask, renewals } = t;
      await answered(t, 'k', 'yes');
      clock.now = 7_500;
      expect(await m.get('k', ask)).toBe('yes');
      asked[1].fail(new Error('timeout'));
      await settle();
      expect(renewals).toEqual(['failed']);
      expect(await m.get('k', ask)).toBe('yes');
      clock.now = 7_500 + RENEW_RETRY_MS - 1;
      expect(await m.get('k', ask)).toBe('yes');
      expect(asked).toHaveLength(2); // not tried again yet
      clock.now = 7_500 + RENEW_RETRY_MS;
      expect(await m.get('k', ask)).toBe('yes');
      expect(asked).toHaveLength(3);
      asked[2].fail(new Error('timeout'));
      await settle();
      clock.now = 10_000;
      const after = m.get('k', ask); // expired: asked, never the old answer
      expect(asked).toHaveLength(4);
      asked[3].answer('again');
      expect(await after).toBe('again');
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('renews only the answers it is told to (a rejected token is not)', async () => {
    const t = memo({ renews: (v) => v === 'allowed' });
    const { m, clock, asked, ask } = t;
    await answered(t, 'refused', 'denied');
    clock.now = 9_999;
    expect(await m.get('refused', ask)).toBe('denied');
    expect(asked).toHaveLength(1);
  });

  it(`runs at most ${MAX_RENEWALS} renewals at once: past that, answers are used until they expire`, async () => {
    const t = memo();
    const { m, clock, asked, ask } = t;
    for (let i = 0; i <= MAX_RENEWALS; i++) await answered(t, `k${i}`, 'yes');
    clock.now = 7_500;
    for (let i = 0; i <= MAX_RENEWALS; i++) expect(await m.get(`k${i}`, ask)).toBe('yes');
    expect(asked).toHaveLength(2 * MAX_RENEWALS + 1);
    asked[MAX_RENEWALS + 1].answer('renewed');
    await settle();
    expect(await m.get(`k${MAX_RENEWALS}`, ask)).toBe('yes'); // a place is free: this one is renewed now
    expect(asked).toHaveLength(2 * MAX_RENEWALS + 2);
  });

  it('fails only the review whose ask throws, never the use that renews', async () => {
    const t = memo();
    const { m, clock } = t;
    await answered(t, 'k', 'yes');
    clock.now = 7_500;
    const throwing = () => {
      throw new Error('cannot ask');
    };
    expect(await m.get('k', throwing)).toBe('yes');
    clock.now = 10_000;
    await expect(m.get('k', throwing)).rejects.toThrow('cannot ask');
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

  it('bounds the characters of its keys too, evicting the oldest, and never stores a key past the bound alone', async () => {
    const m = new ReviewMemo<number>({ maxEntries: 100, maxKeyChars: 30, ttlOf: () => 60_000 });
    let asks = 0;
    const ask = (v: number) => () => (asks++, Promise.resolve(v));
    for (let i = 0; i < 4; i++) await m.get(`${i}`.padEnd(10, '.'), ask(i)); // 4 keys of 10: the first goes
    expect([m.size, m.keyChars]).toEqual([3, 30]);
    expect(await m.get('0'.padEnd(10, '.'), ask(-1))).toBe(-1);
    expect(await m.get('3'.padEnd(10, '.'), ask(-1))).toBe(3);
    const long = 'x'.repeat(31);
    expect(await m.get(long, ask(7))).toBe(7);
    expect(await m.get(long, ask(8))).toBe(8); // answered each time, never stored
    expect([m.size, m.keyChars]).toEqual([3, 30]);
    expect(asks).toBe(7);
  });

  it('counts a key once when its answer is renewed, or expires and is stored again', async () => {
    const t = memo({ maxKeyChars: 100 });
    await answered(t, 'abcd', 'a');
    t.clock.now = 7_500; // past three quarters: renewed in the background, stored again
    expect(await t.m.get('abcd', t.ask)).toBe('a');
    t.asked[1].answer('b');
    await settle();
    expect(t.m.keyChars).toBe(4);
    t.clock.now = 17_500; // expired: asked again, stored again
    const again = t.m.get('abcd', t.ask);
    t.asked[2].answer('c');
    expect(await again).toBe('c');
    expect([t.m.size, t.m.keyChars]).toEqual([1, 4]);
  });

  it('refuses a bound on key characters that is not a positive number', () => {
    expect(() => new ReviewMemo<number>({ maxEntries: 1, maxKeyChars: Number.NaN, ttlOf: () => 1 })).toThrow('maxKeyChars must be positive');
  });
});
