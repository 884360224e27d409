import { decodeVersion, EARLIER_FORMAT, encodeVersion } from './version-codec';

describe('what a resourceVersion says', () => {
  const positions = [{ rev: 812, fingerprint: '3fa4c0de11b2a7e9' }, { rev: 2 ** 40 + 7, fingerprint: '0000000000000000' }];

  it('names a position in each source and decodes back to it, with a change\'s row mark or without', () => {
    expect(decodeVersion(encodeVersion(positions), 2)).toEqual({ positions });
    expect(decodeVersion(encodeVersion(positions, { source: 1, row: 'oil-prod' }), 2)).toEqual({ positions, mark: { source: 1, row: 'oil-prod' } });
  });

  it('has the same length for every position of a view: only a change\'s row name adds to it', () => {
    const small = encodeVersion([{ rev: 1, fingerprint: '0000000000000000' }, { rev: 2, fingerprint: '0000000000000001' }]);
    expect(encodeVersion(positions).length).toBe(small.length);
    expect(encodeVersion(positions, { source: 0, row: 'abc' }).length).toBe(small.length + 4);
  });

  it("is another view's for a view of another number of sources, or a mark of a source it does not have", () => {
    expect(decodeVersion(encodeVersion(positions), 3)).toBe('foreign');
    expect(decodeVersion(encodeVersion(positions), 1)).toBe('foreign');
    expect(decodeVersion(encodeVersion(positions, { source: 1, row: 'a' }), 1)).toBe('foreign');
    expect(decodeVersion(encodeVersion(positions, { source: 2, row: 'a' }), 2)).toBe('foreign');
    expect(decodeVersion(Buffer.alloc(33), 2)).toBe('foreign');
  });

  it("recognises an earlier version's readable resourceVersions (answered 410, never 400)", () => {
    expect(EARLIER_FORMAT.test('812-3fa4c0de11b2a7e9.790-0000000000000000.AbCdEfGhIjKlMnOpQrStUv')).toBe(true);
    expect(EARLIER_FORMAT.test('812-3fa4c0de11b2a7e9~0~oil-a.AbCdEfGhIjKlMnOpQrStUv')).toBe(true);
    for (const other of ['abc', '12345', '812-3fa4c0de11b2a7e9', '1.5']) expect(EARLIER_FORMAT.test(other)).toBe(false);
  });
});
