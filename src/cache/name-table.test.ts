import { hashName, NameTable } from './name-table';

interface Item {
  name: string;
  n: number;
}

const table = () => new NameTable<Item>((i) => i.name);

/** A deterministic pseudo-random sequence (xorshift32), so a failure replays. */
function random(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** Whether `t` holds exactly what `reference` holds (one expectation, not one per entry: thousands of them are slow). */
function agrees(t: NameTable<Item>, reference: Map<string, Item>): boolean {
  if (t.size !== reference.size) return false;
  for (const [k, v] of reference) if (t.get(k) !== v) return false;
  let seen = 0;
  for (const [k, v] of t) if (reference.get(k) === v) seen++;
  return seen === reference.size;
}

describe('name table', () => {
  it('gets, replaces and deletes values by the name they carry', () => {
    const t = table();
    expect(t.get('a')).toBeUndefined();
    t.set('a', { name: 'a', n: 1 }).set('b', { name: 'b', n: 2 });
    expect(t.size).toBe(2);
    expect(t.get('a')).toEqual({ name: 'a', n: 1 });
    t.set('a', { name: 'a', n: 3 });
    expect(t.size).toBe(2);
    expect(t.get('a')?.n).toBe(3);
    expect(t.delete('a')).toBe(true);
    expect(t.delete('a')).toBe(false);
    expect(t.has('a')).toBe(false);
    expect([...t.entries()]).toEqual([['b', { name: 'b', n: 2 }]]);
  });

  it('refuses a value set under a name that is not its own', () => {
    expect(() => table().set('a', { name: 'b', n: 0 })).toThrow(/named "b" set under "a"/);
  });

  it('agrees with a Map through random inserts, replacements and deletes, growing and shrinking', () => {
    for (const seed of [1, 7, 42, 2026]) {
      const next = random(seed);
      const t = table();
      const reference = new Map<string, Item>();
      for (let step = 0; step < 12_000; step++) {
        // Phases: mostly inserts, then mostly deletes, so the table grows to thousands and shrinks back.
        const inserting = Math.floor(step / 3_000) % 2 === 0 ? next() < 0.8 : next() < 0.2;
        const name = `ns-${Math.floor(next() * 3_000)}`;
        if (inserting) {
          const item = { name, n: step };
          t.set(name, item);
          reference.set(name, item);
        } else expect(t.delete(name)).toBe(reference.delete(name));
        if (step % 997 === 0) expect(agrees(t, reference)).toBe(true);
      }
      expect(agrees(t, reference)).toBe(true);
      for (const k of [...reference.keys()]) t.delete(k);
      expect(t.size).toBe(0);
      expect([...t.values()]).toEqual([]);
    }
  });

  it('finds every value after a deletion from a run that wraps around the end of the slots', () => {
    // Names whose home is slot 0, 14 or 15 of 16, inserted in that order: slots 0–2 are taken first, so
    // the run from 14 wraps past them, and a deletion at 14 must leave the values at home in 0–2 alone.
    const homes = new Map<number, string[]>([[0, []], [14, []], [15, []]]);
    for (let i = 0; [...homes.values()].some((v) => v.length < 3); i++) {
      const name = `w${i}`;
      const names = homes.get(hashName(name) & 15);
      if (names && names.length < 3) names.push(name);
    }
    const names = [...homes.values()].flat();
    for (const removed of names) {
      const t = new NameTable<Item>((i) => i.name, 16);
      for (const name of names) t.set(name, { name, n: 0 });
      t.delete(removed);
      for (const name of names) expect(t.has(name)).toBe(name !== removed);
    }
  });

  it('lets a value of a name already held be replaced while the table is iterated', () => {
    const t = table();
    for (let i = 0; i < 100; i++) t.set(`n${i}`, { name: `n${i}`, n: i });
    for (const [name, item] of t) t.set(name, { name, n: item.n + 1000 });
    expect([...t.values()].map((i) => i.n).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1000));
  });
});
