/**
 * The two timestamp formats of the Kubernetes API. Every time Paddock writes into an object goes through
 * one of these; `Date.prototype.toISOString()` (milliseconds) is neither.
 */

/** metav1.Time: RFC 3339 in UTC with whole seconds, `2006-01-02T15:04:05Z` (the fraction is dropped, as Go's marshaller does). */
export function metaTime(t: Date | number | string): string {
  const ms = typeof t === 'number' ? t : typeof t === 'string' ? Date.parse(t) : t.getTime();
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime: RFC 3339 in UTC with exactly six fractional digits, `2006-01-02T15:04:05.000000Z`. */
export function microTime(t: Date | number): string {
  const ms = typeof t === 'number' ? t : t.getTime();
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
