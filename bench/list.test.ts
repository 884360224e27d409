import type { Client, Response } from './http';
import { GIVE_UP_AFTER, measure, type Target } from './list';

/** A client whose GETs answer with `rows` items, or fail as http.ts's Client does when no byte came within its timeout. */
function client(answer: (call: number) => 'rows' | 'timeout'): { client: Client; calls: () => number } {
  let calls = 0;
  const get = async (path: string): Promise<Response> => {
    const call = calls++;
    if (answer(call) === 'timeout') throw new Error(`timeout: GET ${path}`);
    return { status: 200, body: Buffer.from(JSON.stringify({ items: [1, 2, 3] })), ms: 1 };
  };
  return { client: { get } as unknown as Client, calls: () => calls };
}

const target = (name: string, c: Client): Target => ({ name, role: 'baseline', client: c, path: '/x', accept: 'application/json', expectRows: (n) => n === 3 });
const opts = { sequential: 10, burst: 4, concurrency: 2, warmup: 1 };

describe('measure: a request with no answer within the client timeout', () => {
  it('is a sample (a lower bound) and, after a few, the target is asked nothing more while the others go on', async () => {
    const silent = client(() => 'timeout');
    const fine = client(() => 'rows');
    const [s, f] = await measure([target('silent', silent.client), target('fine', fine.client)], opts);
    expect(silent.calls()).toBe(GIVE_UP_AFTER);
    expect(s).toMatchObject({ timedOut: GIVE_UP_AFTER, gaveUp: true, rows: 0, rps: 0 });
    // The first request, the warm-up's and the first round's: that round's timeout is its one sample.
    expect(s.latency.n).toBe(1);
    expect(f).toMatchObject({ rows: 3, latency: expect.objectContaining({ n: opts.sequential }) });
    expect(f.timedOut).toBeUndefined();
    expect(f.gaveUp).toBeUndefined();
  });

  it('counts a target that timed out now and then among its samples, and still measures it', async () => {
    // The warm-up request and one of the sequential ones time out: two, fewer than the limit.
    const flaky = client((call) => (call === 1 || call === 5 ? 'timeout' : 'rows'));
    const [r] = await measure([target('flaky', flaky.client)], opts);
    expect(r).toMatchObject({ rows: 3, timedOut: 2 });
    expect(r.gaveUp).toBeUndefined();
    expect(r.latency.n).toBe(opts.sequential);
    expect(r.rps).toBeGreaterThan(0);
  });

  it('still fails the run on an answer with the wrong rows, or on another transport error', async () => {
    const wrong: Target = { ...target('wrong', client(() => 'rows').client), expectRows: (n) => n === 5 };
    await expect(measure([wrong], opts)).rejects.toThrow('unexpected row count 3');
    const broken = { get: async () => Promise.reject(new Error('connect ECONNREFUSED')) } as unknown as Client;
    await expect(measure([target('broken', broken)], opts)).rejects.toThrow('ECONNREFUSED');
  });
});
