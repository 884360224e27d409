import { ChangeLog, type Change, type RowState } from './changelog';
import { ResourceVersions } from './resource-version';
import { eventFor, sees, type Sight } from './visibility';

interface Obj { name: string; v: number; tier: string; rv?: string }

const restamp = (o: Obj, rv: string): Obj => ({ ...o, rv });
const state = (name: string, v: number, tier: string, ...owners: string[]): RowState<Obj> => ({ object: { name, v, tier }, audience: new Set(owners) });
/** alice's watch of rows labelled tier=prod. */
const alicesProd: Sight<Obj> = { admits: (a) => a.has('User:alice'), matches: (o) => o.tier === 'prod' };

describe('eventFor', () => {
  const log = () => new ChangeLog<Obj>(new ResourceVersions(2), 1000, restamp);

  it.each([
    // before (owners, tier) → after (owners, tier): the event alice's tier=prod watch gets
    ['created, visible', undefined, ['alice', 'prod'], 'ADDED v2'],
    ['created, another owner', undefined, ['bob', 'prod'], undefined],
    ['created, not matching', undefined, ['alice', 'dev'], undefined],
    ['changed, visible throughout', ['alice', 'prod'], ['alice', 'prod'], 'MODIFIED v2'],
    ['granted to alice', ['bob', 'prod'], ['alice', 'prod'], 'ADDED v2'],
    ['now matching', ['alice', 'dev'], ['alice', 'prod'], 'ADDED v2'],
    ['moved to bob', ['alice', 'prod'], ['bob', 'prod'], 'DELETED v1'],
    ['no longer matching', ['alice', 'prod'], ['alice', 'dev'], 'DELETED v1'],
    ['deleted', ['alice', 'prod'], undefined, 'DELETED v1'],
    ['deleted, never visible', ['bob', 'prod'], undefined, undefined],
    ['changed, never visible', ['bob', 'prod'], ['alice', 'dev'], undefined],
  ] as const)('%s', (_what, from, to, expected) => {
    const l = log();
    const before = from && state('r', 1, from[1], `User:${from[0]}`);
    if (before) l.append(undefined, before);
    const change = l.append(before, to && state('r', 2, to[1], `User:${to[0]}`));
    const event = eventFor(alicesProd, change);
    expect(event && `${event.type} v${event.object.v}`).toBe(expected);
    if (event?.type === 'DELETED') expect(event.object.rv).toBe(change.rv); // numbered as the change that removed it
  });
});

/** A small deterministic generator, so a failing sequence can be replayed. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
}

describe('replaying a change log from a resourceVersion', () => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('takes a client from the rows it could see then to those it may see now (seed %i)', (seed) => {
    const next = random(seed);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    const l = new ChangeLog<Obj>(new ResourceVersions(2), 10_000, restamp);
    const rows = new Map<string, RowState<Obj>>();
    const owners = [['User:alice'], ['User:bob'], ['User:alice', 'User:bob'], []];
    /** Every state alice was allowed to see after the list, to check that each DELETED carries one of them. */
    const seen = new Set<number>();
    let v = 0;
    const step = () => {
      const name = pick(['a', 'b', 'c', 'd']);
      const before = rows.get(name);
      const after = before && next() < 0.15 ? undefined : state(name, ++v, pick(['prod', 'dev']), ...pick(owners));
      if (after) rows.set(name, after);
      else rows.delete(name);
      if (sees(alicesProd, after)) seen.add(after!.object.v);
      l.append(before, after);
    };
    const visible = () => new Map([...rows].filter(([, s]) => sees(alicesProd, s)).map(([n, s]) => [n, s.object]));

    for (let i = 0; i < 20; i++) step();
    const mark = l.seq;
    const client = visible(); // what a list at `mark` returned
    for (let i = 0; i < 60; i++) step();

    for (const change of l.since(mark) as Change<Obj>[]) {
      const event = eventFor(alicesProd, change);
      if (!event) continue;
      const name = event.object.name;
      if (event.type === 'ADDED') expect(client.has(name)).toBe(false);
      else expect(client.has(name)).toBe(true);
      if (event.type === 'DELETED') {
        expect(event.object.v).toBe(client.get(name)!.v); // the last state the client had
        expect(seen.has(event.object.v)).toBe(true);
        expect(event.object.tier).toBe('prod');
        client.delete(name);
      } else {
        client.set(name, event.object);
      }
    }
    expect(client).toEqual(visible());
  });
});
