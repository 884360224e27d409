import type { RowState } from './change';
import { NumberedFeed } from './testing/numbered-feed';
import { eventFor, type Sight } from './visibility';

interface Obj { name: string; v: number; tier: string; rv?: string }

const restamp = (o: Obj, rv: string): Obj => ({ ...o, rv });
const state = (name: string, v: number, tier: string, ...owners: string[]): RowState<Obj> => ({ object: { name, v, tier }, audience: new Set(owners) });
/** alice's watch of rows labelled tier=prod. */
const alicesProd: Sight<Obj> = { admits: (a) => a.has('User:alice'), matches: (o) => o.tier === 'prod' };

describe('eventFor', () => {
  const log = () => new NumberedFeed<Obj>(restamp);

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
