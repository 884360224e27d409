import { parseDeleteOptions } from './delete-options';

const q = (s = '') => new URLSearchParams(s);
const code = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    return (err as { status: { code: number } }).status.code;
  }
  return 200;
};

describe('parseDeleteOptions', () => {
  it('reads dryRun from the query or from the body', () => {
    expect(parseDeleteOptions(q('dryRun=All'), undefined).dryRun).toBe(true);
    expect(parseDeleteOptions(q(), { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }).dryRun).toBe(true);
    expect(parseDeleteOptions(q(), undefined).dryRun).toBe(false);
    expect(parseDeleteOptions(q(), { kind: 'DeleteOptions', dryRun: [] }).dryRun).toBe(false);
  });

  it('refuses any dryRun value but All with 400, so a misspelt dry-run never deletes', () => {
    expect(code(() => parseDeleteOptions(q('dryRun=Bogus'), undefined))).toBe(400);
    expect(code(() => parseDeleteOptions(q('dryRun='), undefined))).toBe(400);
    expect(code(() => parseDeleteOptions(q('dryRun=All&dryRun=x'), undefined))).toBe(400);
    expect(code(() => parseDeleteOptions(q(), { dryRun: ['all'] }))).toBe(400);
    expect(code(() => parseDeleteOptions(q(), { dryRun: 'All' }))).toBe(400);
  });

  it('reads preconditions and the propagation policy', () => {
    const o = parseDeleteOptions(q('propagationPolicy=Foreground'), { preconditions: { uid: 'u1', resourceVersion: '7' } });
    expect(o).toEqual({ dryRun: false, preconditions: { uid: 'u1', resourceVersion: '7' }, propagationPolicy: 'Foreground' });
    expect(parseDeleteOptions(q(), { orphanDependents: true }).propagationPolicy).toBe('Orphan');
  });

  it.each([
    ['a non-object body', [1, 2]],
    ['another kind', { kind: 'Pod' }],
    ['a bad policy', { propagationPolicy: 'Sideways' }],
    ['a non-string uid', { preconditions: { uid: 5 } }],
    ['preconditions of the wrong type', { preconditions: 'x' }],
    ['a negative grace period', { gracePeriodSeconds: -1 }],
    ['both orphanDependents and a policy', { orphanDependents: true, propagationPolicy: 'Background' }],
  ])('refuses %s with 400', (_what, body) => {
    expect(code(() => parseDeleteOptions(q(), body))).toBe(400);
  });

  it('never echoes unbounded input', () => {
    try {
      parseDeleteOptions(q(`dryRun=${'x'.repeat(100_000)}`), undefined);
    } catch (err) {
      expect((err as { status: { message: string } }).status.message.length).toBeLessThan(200);
    }
    expect.assertions(1);
  });
});
