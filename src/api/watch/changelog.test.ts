import { ChangeLog, type Change } from './changelog';
import { ResourceVersions } from './resource-version';

describe('ResourceVersions', () => {
  const rvs = new ResourceVersions(7);

  it('formats decimal integers below 2^63 that parse back to their seq', () => {
    const rv = rvs.format(12345);
    expect(rv).toMatch(/^\d+$/);
    expect(BigInt(rv) < 2n ** 63n).toBe(true);
    expect(rvs.parse(rv)).toEqual({ seq: 12345 });
  });

  it("tells another replica's or an earlier process's resourceVersion apart", () => {
    expect(rvs.parse(new ResourceVersions(8).format(12345))).toBe('foreign');
    expect(rvs.parse('12345')).toBe('foreign');
  });

  it.each(['', 'abc', '-1', '1.5', '99999999999999999999'])('calls %j invalid', (rv) => {
    expect(rvs.parse(rv)).toBe('invalid');
  });
});

describe('ChangeLog', () => {
  const log = () => new ChangeLog<{ name: string }>(new ResourceVersions(3), 4);

  it('numbers changes consecutively and returns exactly those after a seq', () => {
    const l = log();
    for (const n of ['a', 'b', 'c']) l.append('ADDED', { name: n }, undefined);
    expect((l.since(1) as Change<{ name: string }>[]).map((c) => c.object.name)).toEqual(['b', 'c']);
    expect(l.since(3)).toEqual([]);
  });

  it('expires positions whose later changes are no longer retained', () => {
    const l = log();
    for (let i = 0; i < 6; i++) l.append('ADDED', { name: `n${i}` }, undefined);
    expect(l.oldestResumable).toBe(2);
    expect(l.since(1)).toBe('expired');
    expect((l.since(2) as Change<{ name: string }>[]).map((c) => c.seq)).toEqual([3, 4, 5, 6]);
  });

  it('notifies subscribers synchronously and stops after unsubscribe', () => {
    const l = log();
    const seen: number[] = [];
    const off = l.subscribe((c) => seen.push(c.seq));
    l.append('ADDED', { name: 'a' }, undefined);
    off();
    l.append('ADDED', { name: 'b' }, undefined);
    expect(seen).toEqual([1]);
  });

  it('encodes each form of a change once', () => {
    const change = log().append('ADDED', { name: 'a' }, undefined);
    let builds = 0;
    const build = () => (builds++, Buffer.from('x'));
    change.encoded('json', build);
    change.encoded('json', build);
    change.encoded('table', build);
    expect(builds).toBe(2);
  });
});
