import { addKey, keysIn, removeKey, type KeySet } from './key-sets';

describe('key sets', () => {
  it('holds one key as a string, a few as an array, more as a Set, and shrinks back', () => {
    const index = new Map<string, KeySet>();
    addKey(index, 'oil', 'a');
    expect(index.get('oil')).toBe('a');
    addKey(index, 'oil', 'a');
    expect(index.get('oil')).toBe('a');
    addKey(index, 'oil', 'b');
    expect(index.get('oil')).toEqual(['a', 'b']);
    const many = ['c', 'd', 'e', 'f', 'g', 'h'];
    for (const k of many) addKey(index, 'oil', k);
    expect(Array.isArray(index.get('oil'))).toBe(true);
    addKey(index, 'oil', 'b');
    addKey(index, 'oil', 'i');
    expect(index.get('oil')).toBeInstanceOf(Set);
    expect([...keysIn(index.get('oil'))]).toEqual(['a', 'b', ...many, 'i']);
    for (const k of ['b', ...many, 'i']) removeKey(index, 'oil', k);
    expect(index.get('oil')).toBe('a');
    removeKey(index, 'oil', 'x');
    removeKey(index, 'oil', 'a');
    expect(index.has('oil')).toBe(false);
    expect([...keysIn(index.get('oil'))]).toEqual([]);
  });

  it('removes from an array and keeps the order of the rest', () => {
    const index = new Map<string, KeySet>();
    for (const k of ['a', 'b', 'c']) addKey(index, 'v', k);
    removeKey(index, 'v', 'b');
    expect(index.get('v')).toEqual(['a', 'c']);
    removeKey(index, 'v', 'a');
    expect(index.get('v')).toBe('c');
  });
});
