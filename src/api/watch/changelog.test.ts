import { ChangeLog, type Change, type RowState } from './changelog';
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
  interface Obj { name: string; rv?: string }
  const log = () => new ChangeLog<Obj>(new ResourceVersions(3), 4, (o, rv) => ({ ...o, rv }));
  const state = (name: string, rv?: string): RowState<Obj> => ({ object: { name, rv }, audience: new Set(['User:alice']) });

  it('numbers changes consecutively and returns exactly those after a seq', () => {
    const l = log();
    for (const n of ['a', 'b', 'c']) l.append(undefined, state(n));
    expect((l.since(1) as Change<Obj>[]).map((c) => c.object.name)).toEqual(['b', 'c']);
    expect(l.since(3)).toEqual([]);
  });

  it('expires positions whose later changes are no longer retained', () => {
    const l = log();
    for (let i = 0; i < 6; i++) l.append(undefined, state(`n${i}`));
    expect(l.oldestResumable).toBe(2);
    expect(l.since(1)).toBe('expired');
    expect((l.since(2) as Change<Obj>[]).map((c) => c.seq)).toEqual([3, 4, 5, 6]);
  });

  it('notifies subscribers synchronously and stops after unsubscribe', () => {
    const l = log();
    const seen: number[] = [];
    const off = l.subscribe((c) => seen.push(c.seq));
    l.append(undefined, state('a'));
    off();
    l.append(undefined, state('b'));
    expect(seen).toEqual([1]);
  });

  it('encodes each form of a change once', () => {
    const change = log().append(undefined, state('a'));
    let builds = 0;
    const build = () => (builds++, Buffer.from('x'));
    change.encoded('json', build);
    change.encoded('json', build);
    change.encoded('table', build);
    expect(builds).toBe(2);
  });

  it('keeps the states before and after each change and names its type after them', () => {
    const l = log();
    const a1 = state('a', 'x1');
    const a2 = state('a', 'x2');
    const added = l.append(undefined, a1);
    const modified = l.append(a1, a2);
    const deleted = l.append(a2, undefined);
    expect([added.type, modified.type, deleted.type]).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    expect(modified.before).toBe(a1);
    expect(modified.after).toBe(a2);
    expect(modified.previous).toBe(a1.object);
    expect(() => l.append(undefined, undefined)).toThrow(TypeError);
  });

  it("carries a row's state before a change, numbered as that change, as what it departed from", () => {
    const l = log();
    const a1 = state('a', 'x1');
    const added = l.append(undefined, a1);
    expect(() => added.departed).toThrow(TypeError); // nothing before an ADDED
    const modified = l.append(a1, state('a', 'x2'));
    expect(modified.departed).toEqual({ name: 'a', rv: modified.rv });
    expect(modified.departed).toBe(modified.departed); // made once
    expect(a1.object.rv).toBe('x1'); // the recorded state itself is untouched
    const deleted = l.append(modified.after, undefined);
    expect(deleted.object).toEqual({ name: 'a', rv: deleted.rv });
  });
});
