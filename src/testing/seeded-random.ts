/** A seeded generator (mulberry32) for randomized tests: each seed is one reproducible history. */
export function seededRandom(seed: number) {
  let a = seed;
  const next = (): number => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  return { next, int, pick: <X>(xs: readonly X[]): X => xs[int(xs.length)], chance: (p: number): boolean => next() < p };
}
