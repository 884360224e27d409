/**
 * The owner-key rule: who may see a row state. A row state is recorded with its audience — the owner
 * subject keys (`User:alice`, `Group:gas-devs`, ...) that may see it — and a caller is judged against that
 * record, never against the present.
 */
import { subjectKeysOfUser } from '../../tenancy/owner-keys';
import type { Audience } from './change';
import type { Viewer } from './viewer';

/** The audience of no one but the callers that see everything. */
export const NOBODY: Audience = Object.freeze(new Set<string>());

/**
 * The audience made of one list of owner keys: one set per list, shared by every row (of every resource)
 * whose audience is exactly those keys. Lists of a Tenant's owner keys are made once per owner list
 * (see tenancy/owner-keys.ts), so the rows of a tenant, in all resources, share one set.
 */
const audiencesOfKeys = new WeakMap<readonly string[], Audience>();
export function audienceOfKeys(keys: readonly string[]): Audience {
  let audience = audiencesOfKeys.get(keys);
  if (!audience) audiencesOfKeys.set(keys, (audience = Object.freeze(new Set(keys))));
  return audience;
}

export function sameAudience(a: Audience, b: Audience): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  for (const key of a) if (!b.has(key)) return false;
  return true;
}

/** A viewer's owner subject keys, computed once per viewer object (a request's or a watch's). */
const keysOfViewer = new WeakMap<Viewer, ReadonlySet<string>>();
export function viewerKeys(viewer: Viewer): ReadonlySet<string> {
  let keys = keysOfViewer.get(viewer);
  if (!keys) keysOfViewer.set(viewer, (keys = new Set(subjectKeysOfUser(viewer))));
  return keys;
}

/**
 * Whether `viewer` is among those who may see a row state with `audience` (recorded with the state): the
 * owner-key rule. True exactly when the viewer sees all or one of its keys (`viewerKeys`) is in the
 * audience — the watch hub routes the changes of a resource whose rule is this function by those keys
 * alone (watch/routing.ts), so this rule must stay that.
 */
export function admits(viewer: Viewer, audience: Audience): boolean {
  if (viewer.seesAll) return true;
  for (const key of viewerKeys(viewer)) if (audience.has(key)) return true;
  return false;
}
