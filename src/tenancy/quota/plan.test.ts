import type { Amounts } from './amounts';
import { planShares, type NamespaceQuota } from './plan';

const m = (o: Record<string, number>): Amounts => new Map(Object.entries(o).map(([k, v]) => [k, BigInt(v)]));
const ns = (name: string, share: Record<string, number>, used: Record<string, number>): NamespaceQuota => ({ name, share: m(share), used: m(used) });
const shares = (plan: Map<string, Amounts>, resource = 'pods') => Object.fromEntries([...plan].map(([n, a]) => [n, Number(a.get(resource))]));
const sum = (plan: Map<string, Amounts>, resource = 'pods') => [...plan.values()].reduce((s, a) => s + (a.get(resource) ?? 0n), 0n);

describe('planShares', () => {
  it('splits a new budget equally, the remainder to the first namespaces by name', () => {
    const plan = planShares(m({ pods: 10 }), [ns('b', { pods: 0 }, {}), ns('a', { pods: 0 }, {}), ns('c', { pods: 0 }, {})]);
    expect(shares(plan)).toEqual({ a: 4, b: 3, c: 3 });
  });

  it('gives a namespace without a share of a resource its part', () => {
    const plan = planShares(m({ pods: 8 }), [ns('a', {}, {}), ns('b', { pods: 8 }, {})]);
    expect(shares(plan)).toEqual({ a: 4, b: 4 });
  });

  it('moves nothing while every namespace keeps a quarter of its part of the headroom', () => {
    expect(planShares(m({ pods: 20 }), [ns('a', { pods: 5 }, { pods: 3 }), ns('b', { pods: 5 }, {}), ns('c', { pods: 5 }, {}), ns('d', { pods: 5 }, {})]).size).toBe(0);
  });

  it('moves headroom to a namespace that used up its share, each keeping at least its use', () => {
    const plan = planShares(m({ pods: 20 }), [ns('a', { pods: 5 }, { pods: 5 }), ns('b', { pods: 5 }, { pods: 1 }), ns('c', { pods: 5 }, {}), ns('d', { pods: 5 }, {})]);
    expect(shares(plan)).toEqual({ a: 9, b: 5, c: 3, d: 3 }); // headroom 14: 3 each, the remainder 2 to a and b
    expect(sum(plan)).toBe(20n);
  });

  it('is a fixed point once carried out: asked again at the same use, it changes nothing', () => {
    const first = planShares(m({ pods: 20 }), [ns('a', { pods: 5 }, { pods: 5 }), ns('b', { pods: 5 }, { pods: 1 })]);
    const again = planShares(m({ pods: 20 }), [ns('a', { pods: Number(first.get('a')!.get('pods')) }, { pods: 5 }), ns('b', { pods: Number(first.get('b')!.get('pods')) }, { pods: 1 })]);
    expect(again.size === 0 || shares(again)).toEqual(again.size === 0 ? true : shares(first));
  });

  it('at the budget, keeps every share at its use', () => {
    const plan = planShares(m({ pods: 4 }), [ns('a', { pods: 3 }, { pods: 3 }), ns('b', { pods: 1 }, { pods: 1 })]);
    expect(plan.size === 0 || (shares(plan).a === 3 && shares(plan).b === 1)).toBe(true);
  });

  it('brings every share down to its use when the budget falls below the use', () => {
    const plan = planShares(m({ pods: 2 }), [ns('a', { pods: 5 }, { pods: 3 }), ns('b', { pods: 5 }, { pods: 1 })]);
    expect(shares(plan)).toEqual({ a: 3, b: 1 });
  });

  it('drops resources the budget no longer has', () => {
    const plan = planShares(m({ pods: 4 }), [ns('a', { pods: 2, 'count/services': 3 }, {}), ns('b', { pods: 2 }, {})]);
    expect(plan.get('a')!.has('count/services')).toBe(false);
  });

  it('splits CPU in millicores', () => {
    const plan = planShares(m({ 'requests.cpu': 1000 }), [ns('a', {}, {}), ns('b', {}, {}), ns('c', {}, {})]);
    expect(shares(plan, 'requests.cpu')).toEqual({ a: 334, b: 333, c: 333 });
  });
});
