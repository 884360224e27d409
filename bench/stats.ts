/** Latency summary of one measured target, in milliseconds. */
export interface LatencySummary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** The `q`-quantile (0..1) by nearest rank of an ascending array. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarize(samples: readonly number[]): LatencySummary {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.reduce((a, b) => a + b, 0) / (s.length || 1);
  return { n: s.length, p50: quantile(s, 0.5), p90: quantile(s, 0.9), p99: quantile(s, 0.99), max: s[s.length - 1] ?? NaN, mean };
}

export const median = (xs: readonly number[]): number => quantile([...xs].sort((a, b) => a - b), 0.5);

/** Rounds for reports: 3 significant digits below 100, integers above. */
export function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  if (Math.abs(x) >= 100) return Math.round(x);
  return Number(x.toPrecision(3));
}

/** `a / b` rounded, for "× faster" columns. */
export function ratio(a: number, b: number): number {
  return b > 0 ? round(a / b) : NaN;
}
