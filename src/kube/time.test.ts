import { metaTime, microTime } from './time';

describe('Kubernetes timestamps', () => {
  it('formats metav1.Time as RFC 3339 in UTC with whole seconds (the fraction is dropped, not rounded)', () => {
    expect(metaTime(Date.UTC(2026, 10, 22, 10, 0, 0, 999))).toBe('2026-11-22T10:00:00Z');
    expect(metaTime(new Date('2026-11-22T10:00:00.000Z'))).toBe('2026-11-22T10:00:00Z');
    expect(metaTime(Date.UTC(2026, 0, 1, 0, 0, 59, 500))).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('formats metav1.MicroTime with exactly six fractional digits', () => {
    expect(microTime(Date.UTC(2026, 10, 22, 10, 0, 0, 7))).toBe('2026-11-22T10:00:00.007000Z');
    expect(microTime(Date.UTC(2026, 10, 22, 10, 0, 0, 0))).toBe('2026-11-22T10:00:00.000000Z');
    expect(microTime(new Date('2026-11-22T10:00:00.123Z'))).toBe('2026-11-22T10:00:00.123000Z');
  });
});
