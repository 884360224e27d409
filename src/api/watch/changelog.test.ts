import type { RowState } from './changelog';
import { formatResourceVersion, parseResourceVersion } from './resource-version';
import { NumberedFeed } from './testing/numbered-feed';

describe('resourceVersions', () => {
  const positions = [{ rev: 812, fingerprint: '3fa4c0de11b2a7e9' }, { rev: 790, fingerprint: '0000000000000000' }];

  it('name a position in each source and parse back to it', () => {
    const rv = formatResourceVersion(positions);
    expect(rv).toBe('812-3fa4c0de11b2a7e9.790-0000000000000000');
    expect(parseResourceVersion(rv, 2)).toEqual(positions);
  });

  it("tells kube's integers and another view's resourceVersions apart from malformed ones", () => {
    expect(parseResourceVersion('12345', 2)).toBe('foreign');
    expect(parseResourceVersion(formatResourceVersion(positions), 3)).toBe('foreign');
  });

  it.each(['', 'abc', '-1', '1.5', '812-3fa4c0de11b2a7e9.790', '812-3FA4C0DE11B2A7E9.790-0000000000000000', 'x'.repeat(500)])('calls %j invalid', (rv) => {
    expect(parseResourceVersion(rv, 2)).toBe('invalid');
  });
});

describe('Change', () => {
  interface Obj { name: string; rv?: string }
  const log = () => new NumberedFeed<Obj>((o, rv) => ({ ...o, rv }));
  const state = (name: string, rv?: string): RowState<Obj> => ({ object: { name, rv }, audience: new Set(['User:alice']) });

  it('notifies subscribers synchronously and stops after unsubscribe', () => {
    const l = log();
    const seen: number[] = [];
    const off = l.subscribe((c) => seen.push(Number(c.rv)));
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
