/**
 * A periodic resync spread over its period. Re-enqueuing every Tenant at once, every period, is a burst:
 * at 1,000 Tenants of 10 namespaces each, seconds of back-to-back reconciles whose garbage, alive across
 * their awaits, survives into the old generation and brings major GCs one after another (six in 4.6 s,
 * 11–21 ms pauses each, measured), delaying every watch event and request served meanwhile. Instead the
 * period is cut into slices, and each tick re-enqueues the Tenants of one slice: every Tenant still once
 * per period, the same work in all, at an even pace.
 *
 * Invariants: a name's slice depends only on the name and the number of slices, so over any `count`
 * consecutive ticks every name is due exactly once; a tick is at least MIN_TICK_MS apart.
 */

/** The most slices a period is cut into. */
const MAX_SLICES = 100;
/** The shortest time between two ticks. */
const MIN_TICK_MS = 1000;

export interface ResyncSlices {
  /** How many slices the period is cut into (1: the whole period at once). */
  readonly count: number;
  /** The time between two ticks: the period ÷ count. */
  readonly tickMs: number;
}

/** The slices of a resync period of `periodMs`: as many as fit MIN_TICK_MS apart, at most MAX_SLICES. */
export function resyncSlices(periodMs: number): ResyncSlices {
  const count = Math.max(1, Math.min(MAX_SLICES, Math.floor(periodMs / MIN_TICK_MS)));
  return { count, tickMs: periodMs / count };
}

/** The slice of `name` (0 ≤ slice < count): FNV-1a of its UTF-16 code units. Not a secret: a skew costs only evenness. */
export function sliceOf(name: string, count: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return (h >>> 0) % count;
}

/** The names due at tick `tick` (ticks count from 0, and wrap every `count`). */
export function namesDue(names: Iterable<string>, tick: number, count: number): string[] {
  const slice = tick % count;
  const due: string[] = [];
  for (const name of names) if (sliceOf(name, count) === slice) due.push(name);
  return due;
}
