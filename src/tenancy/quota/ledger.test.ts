import type { Amounts } from './amounts';
import { afterLowering, grantRaises, recordOf, withoutNamespaces, type Allocations } from './ledger';

const m = (o: Record<string, number>): Amounts => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)]));
const alloc = (o: Record<string, Record<string, number>>): Allocations => new Map(Object.entries(o).map(([k, v]) => [k, m(v)]));

describe('the quota ledger', () => {
  it('grants raises only as far as the budget leaves (invariant A)', () => {
    const { allocations, granted } = grantRaises(m({ pods: 20 }), alloc({ a: { pods: 5 }, b: { pods: 10 } }), new Map([['a', m({ pods: 12 })]]));
    expect(recordOf(allocations)).toEqual({ a: { pods: '10' }, b: { pods: '10' } });
    expect(granted.get('a')!.get('pods')).toBe(10n);
  });

  it('serves namespaces in order until the budget is spent', () => {
    const { allocations, granted } = grantRaises(m({ pods: 10 }), alloc({}), new Map([['a', m({ pods: 6 })], ['b', m({ pods: 6 })]]));
    expect(recordOf(allocations)).toEqual({ a: { pods: '6' }, b: { pods: '4' } });
    expect(granted.get('b')!.get('pods')).toBe(4n);
  });

  it('grants nothing while the allocations are above a lowered budget', () => {
    const { allocations, granted } = grantRaises(m({ pods: 5 }), alloc({ a: { pods: 6 } }), new Map([['b', m({ pods: 2 })]]));
    expect(recordOf(allocations)).toEqual({ a: { pods: '6' } });
    expect(granted.get('b')!.get('pods')).toBe(0n);
  });

  it('never grants a share above what is wanted, nor above its allocation', () => {
    const { granted } = grantRaises(m({ pods: 20 }), alloc({ a: { pods: 8 } }), new Map([['a', m({ pods: 3 })]]));
    expect(granted.get('a')!.get('pods')).toBe(3n);
  });

  it('records a lowered share as its allocation, and forgets namespaces that are gone', () => {
    const lowered = afterLowering(alloc({ a: { pods: 9 }, b: { pods: 5 } }), new Map([['a', m({ pods: 4 })]]));
    expect(recordOf(withoutNamespaces(lowered, ['b']))).toEqual({ a: { pods: '4' } });
  });

  it('keeps the sum of allocations within the budget over any sequence of grants and lowerings', () => {
    let allocations: Allocations = new Map();
    const budget = m({ pods: 20 });
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 2000; i++) {
      const ns = `n${rand(5)}`;
      if (rand(2) === 0) allocations = grantRaises(budget, allocations, new Map([[ns, m({ pods: rand(25) })]])).allocations;
      else {
        const current = Number(allocations.get(ns)?.get('pods') ?? 0n);
        allocations = afterLowering(allocations, new Map([[ns, m({ pods: rand(current + 1) })]]));
      }
      const total = [...allocations.values()].reduce((s, a) => s + (a.get('pods') ?? 0n), 0n);
      expect(total).toBeLessThanOrEqual(20n);
    }
  });
});
