import type { KubeObject } from '../kube/types';
import { NodeSelectorMatches } from './node-selector-matches';

const node = (name: string, labels: Record<string, string>): KubeObject => ({ metadata: { name, labels } });

describe('NodeSelectorMatches', () => {
  it('answers whether some node carries every label of the selector', () => {
    const m = new NodeSelectorMatches(() => [node('a', { os: 'linux', pool: 'gas' }), node('b', { os: 'linux' })]);
    expect(m.matches({ os: 'linux' })).toBe(true);
    expect(m.matches({ os: 'linux', pool: 'gas' })).toBe(true);
    expect(m.matches({ os: 'linux', pool: 'oil' })).toBe(false);
  });

  it('scans the nodes once per selector (in any key order) until cleared, then sees the nodes as they are', () => {
    let nodes = [node('a', { os: 'linux' })];
    let scans = 0;
    const m = new NodeSelectorMatches(() => {
      scans++;
      return nodes;
    });
    expect(m.matches({ os: 'linux', pool: 'oil' })).toBe(false);
    expect(m.matches({ pool: 'oil', os: 'linux' })).toBe(false);
    expect(scans).toBe(1);
    nodes = [node('a', { os: 'linux', pool: 'oil' })];
    m.clear();
    expect(m.matches({ pool: 'oil', os: 'linux' })).toBe(true);
    expect(scans).toBe(2);
  });
});
