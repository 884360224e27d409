import type { Response } from 'express';
import { checkTargetFits } from '../../negotiation';
import { resourceVersionOfContinue } from '../../request/continue-token';
import type { ListOptions } from '../../request/list-options';
import { sendStream } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import { listRows } from '../../serving/rows';
import { renderList } from '../../serving/render';
import { RESOURCE_VERSION_WAIT_MS } from '../../storage/change-log';
import type { Req } from '../filters/authentication';
import { negotiate, type HandlerContext } from './context';

/** `GET /apis/<group>/<version>/<resource>`: the caller's rows, paged, streamed from their cached encodings. */
export async function list(ctx: HandlerContext, resource: ServedResource, req: Req, res: Response, options: ListOptions): Promise<void> {
  ctx.limits.requireSynced();
  // A resourceVersion (or a continue token) another replica issued and this one has not reached yet:
  // wait for it, as kube-apiserver waits for a revision its watch cache has not seen — then 504, or 410
  // for the token, if it never comes. Only a caller allowed to list waits, and waiting holds no
  // in-flight slot (the view bounds how many wait at once).
  const awaited = options.resourceVersion || (options.continueToken && resourceVersionOfContinue(options.continueToken));
  if (awaited && resource.storage.locate(awaited) === 'ahead') {
    checkTargetFits(negotiate(req, false).negotiated, 'list');
    await ctx.access.authorize(resource, req.user!, 'list');
    await resource.storage.whenReached(awaited, RESOURCE_VERSION_WAIT_MS);
  }
  await ctx.limits.bounded(async () => {
    const { negotiated, includeObject, pretty } = negotiate(req, false);
    checkTargetFits(negotiated, 'list');
    await ctx.access.authorize(resource, req.user!, 'list');
    const result = listRows(resource, await ctx.access.viewer(resource, req.user!), options, ctx.snapshots);
    // Streamed in chunks from each row's cached encodings, as the connection takes them.
    await sendStream(res, 200, negotiated.contentType, renderList(resource, result.items, result.metadata, { negotiated, includeObject, pretty, now: new Date() }));
  });
}
