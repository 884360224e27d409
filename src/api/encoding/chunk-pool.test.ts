import { ChunkPool } from './chunk-pool';

describe('ChunkPool', () => {
  it('lends chunks of its size and lends a chunk given back again', () => {
    const pool = new ChunkPool(16, 4);
    const a = pool.take();
    expect(a.length).toBe(16);
    pool.give(a.subarray(0, 5)); // a view of it, as the last chunk of a body is
    expect(pool.idle).toBe(1);
    const b = pool.take();
    expect(b.buffer).toBe(a.buffer);
    expect(b.length).toBe(16);
    expect(pool.idle).toBe(0);
  });

  it('takes back only what it lent, once per loan', () => {
    const pool = new ChunkPool(16, 4);
    pool.give(Buffer.allocUnsafeSlow(16)); // never lent: same size, not its own
    pool.give(new ChunkPool(16, 4).take()); // another pool's
    expect(pool.idle).toBe(0);
    const a = pool.take();
    pool.give(a);
    pool.give(a); // twice: the second would lend one chunk to two bodies
    expect(pool.idle).toBe(1);
    const b = pool.take();
    const c = pool.take();
    expect(c.buffer).not.toBe(b.buffer);
  });

  it('keeps at most `keep` chunks between loans', () => {
    const pool = new ChunkPool(16, 2);
    const lent = [pool.take(), pool.take(), pool.take()];
    for (const chunk of lent) pool.give(chunk);
    expect(pool.idle).toBe(2);
  });
});
