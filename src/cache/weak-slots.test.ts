import { WeakSlots } from './weak-slots';
import { alive, collectGarbage } from '../testing/collect';

interface Box {
  n: number;
}

const same = (n: number) => (candidate: object) => (candidate as Box).n === n;

describe('weak slots', () => {
  it('finds each object by its hash and what matches it, through growth and shared hashes', () => {
    const slots = new WeakSlots();
    const kept: Box[] = [];
    // Hashes shared by ten objects each, and hashes that are equal in their low bits (one home slot).
    const hashOf = (n: number) => (n % 10 === 0 ? n << 16 : Math.floor(n / 10));
    for (let n = 0; n < 2_000; n++) kept.push(slots.findOrAdd(hashOf(n), same(n), () => ({ n })));
    expect(slots.size).toBe(2_000);
    for (let n = 0; n < 2_000; n++) expect(slots.findOrAdd(hashOf(n), same(n), () => ({ n: -1 }))).toBe(kept[n]);
    expect(slots.size).toBe(2_000);
  });

  it('reuses the slot of a collected object for the next object of its hash, and sweeps the rest', async () => {
    const slots = new WeakSlots();
    const live = slots.findOrAdd(1, same(1), () => ({ n: 1 }));
    const gone: WeakRef<object>[] = [];
    for (let n = 2; n < 100; n++) gone.push(new WeakRef(slots.findOrAdd(7, same(n), () => ({ n }))));
    await collectGarbage();
    expect(slots.size).toBe(99);
    const survivors = alive(gone); // none, unless the collector kept some
    expect(survivors).toBeLessThan(98);
    const back = slots.findOrAdd(7, same(500), () => ({ n: 500 }));
    expect(slots.size).toBe(99); // in a collected one's slot
    slots.sweep();
    expect(slots.size).toBe(survivors + 2);
    expect(slots.findOrAdd(1, same(1), () => ({ n: -1 }))).toBe(live);
    expect(slots.findOrAdd(7, same(500), () => ({ n: -1 }))).toBe(back);
  }, 60_000);
});
