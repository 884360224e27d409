import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Collects every object nothing strongly refers to, so a weak reference to one reads `undefined` from
 * then on. It first lets the current job end (a weak reference keeps its target alive until the job
 * that made or read it has ended), then runs two full collections: an object allocated while
 * incremental marking was under way is marked live by the collection that finishes that marking, and
 * only the next one can free it.
 */
export async function collectGarbage(): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
}

/** How many of the references' targets are still alive. */
export function alive(refs: readonly WeakRef<object>[]): number {
  return refs.filter((ref) => ref.deref() !== undefined).length;
}
