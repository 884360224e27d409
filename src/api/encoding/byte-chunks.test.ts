import { ByteChunks } from './byte-chunks';

/** Everything `out` made, in order, as text; every chunk but the last exactly `size`. */
function whole(out: ByteChunks): string {
  out.end();
  for (const c of out.ready.slice(0, -1)) expect(c.length).toBe(out.size);
  return Buffer.concat(out.ready).toString();
}

describe('ByteChunks', () => {
  it('splits pieces across chunks of exactly its size, in order', () => {
    const out = new ByteChunks(8);
    out.put(Buffer.from('abc'));
    out.put(Buffer.from('defghijklmnopqrstuvwxyz'));
    out.putByte(0x2c);
    out.put(Buffer.from('12345'));
    expect(out.ready.length).toBe(4); // 32 bytes
    expect(whole(out)).toBe('abcdefghijklmnopqrstuvwxyz,12345');
  });

  it('a piece that fills a chunk exactly, and a byte that does, start the next one', () => {
    const out = new ByteChunks(4);
    out.put(Buffer.from('abcd'));
    expect(out.ready.length).toBe(1);
    out.put(Buffer.from('efg'));
    out.putByte(0x68);
    expect(out.ready.length).toBe(2);
    expect(whole(out)).toBe('abcdefgh');
  });

  it('writes text as UTF-8 at any chunk boundary (a character may span two chunks: they are sent joined)', () => {
    const text = 'café ☕ \u2028 𝄞 "q" \\';
    for (let size = 1; size <= 12; size++) {
      const out = new ByteChunks(size);
      out.putText('x');
      out.putText(text);
      out.putText(text.repeat(5));
      expect(whole(out)).toBe('x' + text + text.repeat(5));
    }
  });

  it('views of a larger buffer are copied as themselves', () => {
    const big = Buffer.from('0123456789');
    const out = new ByteChunks(3);
    out.put(big.subarray(2, 7));
    out.put(big.subarray(9));
    expect(whole(out)).toBe('234569');
  });

  it('a piece many chunks long is split in a loop; nothing may be put after the end', () => {
    const big = Buffer.alloc(4 * 1024 * 1024, 0x61);
    const out = new ByteChunks(16);
    out.put(big);
    out.putByte(0x62);
    out.end();
    expect(out.ready.length).toBe(big.length / 16 + 1);
    expect(Buffer.concat(out.ready).toString()).toBe('a'.repeat(big.length) + 'b');
    expect(() => out.putByte(0x63)).toThrow('put after end');
    expect(() => out.putText('c')).toThrow('put after end');
  });

  it('an empty body has no chunk', () => {
    const out = new ByteChunks(16);
    out.put(Buffer.alloc(0));
    out.putText('');
    out.end();
    expect(out.ready).toEqual([]);
  });
});
