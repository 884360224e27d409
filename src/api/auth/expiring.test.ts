import { ExpiringCache } from './expiring';

describe('ExpiringCache', () => {
  it('forgets an entry once its time to live has passed', () => {
    let now = 1000;
    const cache = new ExpiringCache<string>(10, () => now);
    cache.set('a', 'x', 50);
    now += 49;
    expect(cache.get('a')).toBe('x');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('never holds more than its bound, evicting the oldest insertion', () => {
    const cache = new ExpiringCache<number>(3);
    for (let i = 0; i < 5; i++) cache.set(`k${i}`, i, 60_000);
    expect(cache.size).toBe(3);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k4')).toBe(4);
    cache.set('k2', 22, 60_000); // refreshed keys move to the end
    cache.set('k5', 5, 60_000);
    expect(cache.get('k3')).toBeUndefined();
    expect(cache.get('k2')).toBe(22);
  });

  it('stores nothing for a non-positive time to live', () => {
    const cache = new ExpiringCache<number>(3);
    cache.set('a', 1, 0);
    expect(cache.get('a')).toBeUndefined();
  });
});
