import type { KubeObject } from '../../kube/types';
import { sameContent, sameJson } from './same-content';

const row = (rv: string, extra: Record<string, unknown> = {}): KubeObject =>
  ({ kind: 'K', metadata: { name: 'a', uid: 'u', resourceVersion: rv, labels: { x: '1' } }, status: { phase: 'Active', quota: undefined, owners: [{ kind: 'User', name: 'alice' }] }, ...extra }) as KubeObject;

describe('sameContent', () => {
  it('agrees with comparing JSON texts, apart from metadata.resourceVersion', () => {
    expect(sameContent(row(''), row('5.abc'))).toBe(true);
    expect(sameContent(row(''), row('', { spec: { tenant: 'oil' } }))).toBe(false);
    const moved = row('');
    (moved.metadata as unknown as Record<string, unknown>).labels = { x: '2' };
    expect(sameContent(row(''), moved)).toBe(false);
  });

  it('reads a missing metadata.resourceVersion as an ignored one', () => {
    const { resourceVersion: _rv, ...metadata } = row('').metadata;
    expect(sameContent({ ...row(''), metadata }, row('7'))).toBe(true);
  });

  const cases: [unknown, unknown][] = [
    [{ a: 1, b: undefined }, { a: 1 }],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }],
    [[1, undefined], [1, null]],
    [[1, 2], [1, 2, 3]],
    [{ a: [{ b: 'x' }] }, { a: [{ b: 'x' }] }],
    [{ a: '1' }, { a: 1 }],
    [{ a: null }, { a: {} }],
    [{ a: [] }, { a: {} }],
    [{ a: true }, { a: true }],
    [{ a: () => 1 }, {}],
  ];
  it.each(cases)('%j and %j: as their JSON texts', (a, b) => {
    expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});

describe('values with toJSON', () => {
  it.each([
    [{ t: new Date(0) }, { t: new Date(0) }],
    [{ t: new Date(0) }, { t: '1970-01-01T00:00:00.000Z' }],
    [{ t: new Date(0) }, { t: new Date(1) }],
    [{ toJSON: () => 'x' }, 'x'],
    [{ a: { toJSON: () => undefined } }, {}],
    [[{ toJSON: () => undefined }], [null]],
  ])('compare as JSON writes them (%j, %j)', (a, b) => {
    expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
  });
});
