import type { RowState } from './change';
import { NumberedFeed } from './testing/numbered-feed';

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
