import { isQuantity, quantityEqual } from './quantity-equal';

describe('quantityEqual', () => {
  it.each([
    ['1000m', '1'],
    ['1', 1],
    ['0.5', '500m'],
    ['1024Mi', '1Gi'],
    ['1Gi', 1073741824],
    ['1k', '1000'],
    ['1e3', '1k'],
    ['1E3', '1000'],
    ['2E', '2000P'],
    ['.5', '500m'],
    ['1.5Ki', '1536'],
    ['0.1n', '1n'],
  ])('treats %p and %p as the same amount', (a, b) => {
    expect(quantityEqual(a, b)).toBe(true);
  });

  it.each([
    ['1', '2'],
    ['1G', '1Gi'],
    ['100m', '1'],
    ['1Mi', '1M'],
    ['-1', '1'],
  ])('tells %p from %p', (a, b) => {
    expect(quantityEqual(a, b)).toBe(false);
  });

  it('compares what does not parse as text', () => {
    expect(quantityEqual('lots', 'lots')).toBe(true);
    expect(quantityEqual('lots', 'many')).toBe(false);
    expect(quantityEqual('lots', '1')).toBe(false);
  });
});

describe('isQuantity', () => {
  it.each(['1', '250m', '16Gi', '1e3', '0', '+1', '-1', '1.', '.5'])('accepts %p', (q) => {
    expect(isQuantity(q)).toBe(true);
  });

  it.each(['', 'abc', '1GB', '1 Gi', '1e', '1.2.3', '--1'])('refuses %p', (q) => {
    expect(isQuantity(q)).toBe(false);
  });

  it.each(['Gi', '1e999'])('accepts %p, as kube-apiserver does', (q) => {
    expect(isQuantity(q)).toBe(true);
  });
});
