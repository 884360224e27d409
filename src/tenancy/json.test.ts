import { diffJson, jsonEqual, normalizeJson } from './json';

describe('normalizeJson', () => {
  it('drops empty maps, lists and nulls under keys, as omitempty does', () => {
    expect(normalizeJson({ a: {}, b: [], c: null, d: { e: {} }, f: 1 })).toEqual({ f: 1 });
  });

  it('keeps list elements even when they are empty', () => {
    expect(normalizeJson({ ingress: [{}] })).toEqual({ ingress: [{}] });
  });
});

describe('diffJson', () => {
  it('reports the paths of differing leaves', () => {
    expect(diffJson('spec', { a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'y' } })).toEqual([{ path: 'spec.b.c', live: 'x', desired: 'y' }]);
  });

  it('reports a missing key', () => {
    expect(diffJson('spec', {}, { a: 1 })).toEqual([{ path: 'spec.a', live: undefined, desired: 1 }]);
  });

  it('reports lists of different lengths as a whole', () => {
    expect(diffJson('spec', { l: [1] }, { l: [1, 2] })).toEqual([{ path: 'spec.l', live: [1], desired: [1, 2] }]);
  });

  it('tells an allow-all rule from no rule', () => {
    expect(jsonEqual({ ingress: [{}] }, { ingress: [] })).toBe(false);
  });

  it('treats an absent field and an empty one alike', () => {
    expect(jsonEqual({ podSelector: {} }, {})).toBe(true);
    expect(jsonEqual({ from: [] }, { from: undefined })).toBe(true);
  });
});
