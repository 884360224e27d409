import type { Response } from 'express';
import { checkTargetFits } from '../../negotiation';
import type { GetOptions } from '../../request/get-options';
import { send } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import { getRow } from '../../serving/rows';
import { renderObject } from '../../serving/render';
import type { Req } from '../filters/authentication';
import { negotiate, type HandlerContext } from './context';
import { awaitResourceVersion } from './resource-version';

/**
 * `GET /apis/<group>/<version>/<resource>/<name>`: one row the caller may see (404 for any other), at a
 * state not older than the resourceVersion asked for (waited for when this replica has not reached it).
 */
export async function get(ctx: HandlerContext, resource: ServedResource, name: string, req: Req, res: Response, options: GetOptions): Promise<void> {
  ctx.limits.requireSynced();
  await awaitResourceVersion(ctx, resource, options.resourceVersion, res, async () => {
    checkTargetFits(negotiate(req, false).negotiated, 'object');
    // Both reviews, at once: the read after the wait finds their answers kept.
    await ctx.access.authorizedViewer(resource, req.user!, 'get', name);
  });
  await ctx.limits.bounded(async () => {
    const { negotiated, includeObject, pretty } = negotiate(req, false);
    checkTargetFits(negotiated, 'object');
    const row = getRow(resource, await ctx.access.authorizedViewer(resource, req.user!, 'get', name), name, options);
    send(res, 200, negotiated.contentType, renderObject(resource, row, { negotiated, includeObject, pretty, now: new Date() }));
  });
}
