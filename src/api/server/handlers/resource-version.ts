import type { Response } from 'express';
import type { ServedResource } from '../../registration/served-resource';
import { RESOURCE_VERSION_WAIT_MS } from '../../storage/change-log';
import type { HandlerContext } from './context';

/**
 * A resourceVersion another replica issued and this one has not reached yet is waited for (up to
 * RESOURCE_VERSION_WAIT_MS), as kube-apiserver waits for a revision its watch cache has not seen. Only a
 * caller that passes `admit` (the verb's own checks, made under the in-flight bound like any request's)
 * waits. The wait itself holds no in-flight slot: the change log bounds how many wait at once, and a
 * client that goes away gives its place back at once. The read that follows places `rv` again: still
 * ahead is 504.
 */
export async function awaitResourceVersion(
  ctx: HandlerContext, resource: ServedResource, rv: string | undefined, res: Response, admit: () => Promise<void>,
): Promise<void> {
  if (!rv || resource.storage.locate(rv) !== 'ahead') return;
  await ctx.limits.bounded(admit);
  const gone = new AbortController();
  const abort = () => gone.abort();
  res.once('close', abort);
  try {
    await resource.storage.whenReached(rv, RESOURCE_VERSION_WAIT_MS, gone.signal);
  } finally {
    res.off('close', abort);
  }
}
