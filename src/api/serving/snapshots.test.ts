import type { TenantNamespace } from '../../kube/types';
import { ListSnapshots } from './snapshots';

const rows: TenantNamespace[] = [];

describe('ListSnapshots', () => {
  it('keeps other callers\' snapshots when one caller pages in a loop', () => {
    const snapshots = new ListSnapshots(64, 60_000, () => 0, 8);
    const alice = snapshots.put('alice', rows);
    const bob = snapshots.put('bob', rows);
    for (let i = 0; i < 1000; i++) snapshots.put('mallory', rows);
    expect(snapshots.get(alice, 'alice')).toBe(rows);
    expect(snapshots.get(bob, 'bob')).toBe(rows);
    expect(snapshots.size).toBe(10);
  });

  it('evicts a caller\'s own oldest snapshot past its share', () => {
    const snapshots = new ListSnapshots(64, 60_000, () => 0, 2);
    const first = snapshots.put('alice', rows);
    const second = snapshots.put('alice', rows);
    const third = snapshots.put('alice', rows);
    expect(snapshots.get(first, 'alice')).toBeUndefined();
    expect(snapshots.get(second, 'alice')).toBe(rows);
    expect(snapshots.get(third, 'alice')).toBe(rows);
  });

  it('still bounds the total and expires by age', () => {
    let now = 0;
    const snapshots = new ListSnapshots(4, 1000, () => now, 2);
    for (const user of ['a', 'b', 'c', 'd', 'e']) snapshots.put(user, rows);
    expect(snapshots.size).toBe(4);
    now = 2000;
    const fresh = snapshots.put('a', rows);
    expect(snapshots.size).toBe(1);
    expect(snapshots.get(fresh, 'a')).toBe(rows);
    expect(snapshots.get(fresh, 'b')).toBeUndefined();
  });

  it('lets a snapshot go when it expires, without waiting for the next list', () => {
    jest.useFakeTimers();
    try {
      const snapshots = new ListSnapshots(64, 1000);
      snapshots.put('alice', rows);
      jest.advanceTimersByTime(500);
      snapshots.put('bob', rows);
      jest.advanceTimersByTime(600);
      expect(snapshots.size).toBe(1);
      jest.advanceTimersByTime(600);
      expect(snapshots.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
