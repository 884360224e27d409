import { prepareForCache, shareUnchanged } from './transform';

describe('shareUnchanged', () => {
  const previous = Object.freeze({
    metadata: Object.freeze({ name: 'a', uid: 'u-1', resourceVersion: '1', labels: Object.freeze({ x: 'y' }) }),
    spec: Object.freeze({ owners: Object.freeze([Object.freeze({ kind: 'User', name: 'alice' })]) }),
    status: Object.freeze({ phase: 'Active' }),
  });

  it('keeps the parts of the previous version that did not change, and the new ones that did', () => {
    const next = { metadata: { name: 'a', uid: 'u-1', resourceVersion: '2', labels: { x: 'y' } }, spec: { owners: [{ kind: 'User', name: 'alice' }] }, status: { phase: 'Terminating' } };
    const shared = shareUnchanged(previous, next) as typeof next;
    expect(shared).toBe(next);
    expect(shared.metadata.labels).toBe(previous.metadata.labels);
    expect(shared.spec).toBe(previous.spec);
    expect(shared.status).not.toBe(previous.status);
    expect(shared).toEqual({ metadata: { name: 'a', uid: 'u-1', resourceVersion: '2', labels: { x: 'y' } }, spec: { owners: [{ kind: 'User', name: 'alice' }] }, status: { phase: 'Terminating' } });
  });

  it('tells a removed or added key, an array of another length and a changed type apart', () => {
    expect(shareUnchanged({ a: 1, b: 2 }, { a: 1 })).toEqual({ a: 1 });
    expect(shareUnchanged({ a: 1 }, { a: 1, b: undefined })).not.toBe(undefined);
    const grown = { list: [1, 2, 3] };
    expect((shareUnchanged({ list: [1, 2] }, grown) as typeof grown).list).toEqual([1, 2, 3]);
    const typed = { v: [1] };
    expect((shareUnchanged({ v: { 0: 1 } }, typed) as typeof typed).v).toEqual([1]);
  });

  it('returns the previous version when everything is equal', () => {
    const same = { metadata: { name: 'a', uid: 'u-1', resourceVersion: '1', labels: { x: 'y' } }, spec: { owners: [{ kind: 'User', name: 'alice' }] }, status: { phase: 'Active' } };
    expect(shareUnchanged(previous, same)).toBe(previous);
  });

  it('never modifies a frozen part of the new version', () => {
    const child = { x: 'y' };
    const interned = Object.freeze({ child, z: '1' });
    const next = { metadata: { name: 'a', labels: interned } };
    shareUnchanged({ metadata: { name: 'a', labels: { child: { x: 'y' }, z: '2' } } }, next);
    expect(next.metadata.labels).toBe(interned);
    expect(interned.child).toBe(child);
  });
});

describe('prepareForCache', () => {
  it('shares with the cached version and freezes the result', () => {
    const old = prepareForCache({ metadata: { name: 'a', resourceVersion: '1', labels: { x: 'y' } } });
    const next = prepareForCache({ metadata: { name: 'a', resourceVersion: '2', labels: { x: 'y' } } }, undefined, old);
    expect(next.metadata.labels).toBe(old.metadata.labels);
    expect(Object.isFrozen(next.metadata)).toBe(true);
    expect(next.metadata.resourceVersion).toBe('2');
  });
});
