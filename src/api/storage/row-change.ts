import type { KubeObject } from '../../kube/types';
import { sameAudience } from './audience';
import type { RowState } from './change';
import { sameContent } from './same-content';

/**
 * What a row's newly computed state is to its state before (both present):
 * - `'none'`: the same content (JSON apart from the resourceVersion) and audience — nothing to log;
 * - `'audience'`: the same content, seen by others — the row keeps its object and resourceVersion, and
 *   only the callers who gain or lose it are told (see Change.audienceOnly);
 * - `'content'`: a new state, with a resourceVersion of its own.
 * Every resource is judged by this one rule, live and in a replay alike.
 */
export function rowChange<T extends KubeObject>(before: RowState<T>, after: RowState<T>): 'none' | 'audience' | 'content' {
  if (!sameContent(before.object, after.object)) return 'content';
  return sameAudience(before.audience, after.audience) ? 'none' : 'audience';
}
