import { namesDue, resyncSlices, sliceOf } from './resync-slices';

describe('resync slices', () => {
  it('cuts a period into ticks at least a second apart, at most 100 of them', () => {
    expect(resyncSlices(10 * 60_000)).toEqual({ count: 100, tickMs: 6000 });
    expect(resyncSlices(20_000)).toEqual({ count: 20, tickMs: 1000 });
    expect(resyncSlices(1500)).toEqual({ count: 1, tickMs: 1500 });
    expect(resyncSlices(10)).toEqual({ count: 1, tickMs: 10 });
  });

  it('makes every name due exactly once in any run of `count` consecutive ticks', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `tenant-${i}`);
    for (const count of [1, 7, 100]) {
      for (const start of [0, 3, 250]) {
        const due = Array.from({ length: count }, (_, k) => namesDue(names, start + k, count)).flat();
        expect(due.sort()).toEqual([...names].sort());
      }
    }
  });

  it('spreads names evenly enough that no slice holds a burst', () => {
    const names = Array.from({ length: 1000 }, (_, i) => `t${String(i).padStart(5, '0')}`);
    const sizes = Array.from({ length: 100 }, (_, k) => namesDue(names, k, 100).length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(30);
    expect(sliceOf('oil', 100)).toBe(sliceOf('oil', 100));
  });
});
