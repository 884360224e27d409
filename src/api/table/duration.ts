/**
 * Ages as kube-apiserver prints them in Table cells (k8s.io/apimachinery util/duration HumanDuration,
 * used by the built-in printers' AGE column): two significant units at most — `45s`, `5m30s`, `25m`,
 * `3h5m`, `20h`, `3d4h`, `45d`, `2y30d`, `9y`.
 */
export function humanDuration(milliseconds: number): string {
  const seconds = Math.trunc(milliseconds / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(seconds / 3600);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const days = Math.trunc(hours / 24) % 365;
    const years = Math.trunc(hours / 24 / 365);
    return days === 0 ? `${years}y` : `${years}y${days}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/**
 * The span [from, until) of durations, around `milliseconds`, over which humanDuration reads the same.
 * Its text changes only at whole units — a second under 10 minutes, a minute under 8 hours, an hour under
 * 8 days, then a day (a year's text changes less often) — and each range begins at a whole unit of its
 * own, so the unit's multiples around `milliseconds` bound it. Empty under 0 (`<invalid>` and `0s`, clock
 * skew), where the bounds are not whole units.
 */
export function humanDurationSpan(milliseconds: number): [from: number, until: number] {
  if (!(milliseconds >= 0)) return [milliseconds, milliseconds];
  const unit = milliseconds < 600_000 ? 1000 : milliseconds < 8 * 3_600_000 ? 60_000 : milliseconds < 8 * 86_400_000 ? 3_600_000 : 86_400_000;
  const from = Math.floor(milliseconds / unit) * unit;
  return [from, from + unit];
}

/** The AGE cell of an object created at `timestamp` (RFC 3339): `<unknown>` when there is none. */
export function translateTimestampSince(timestamp: string | undefined, now: Date): string {
  if (!timestamp) return '<unknown>';
  const created = Date.parse(timestamp);
  if (Number.isNaN(created)) return '<unknown>';
  return humanDuration(now.getTime() - created);
}
