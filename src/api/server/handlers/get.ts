import type { Response } from 'express';
import { checkTargetFits } from '../../negotiation';
import { send } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import { getRow } from '../../serving/rows';
import { renderObject } from '../../serving/render';
import type { Req } from '../filters/authentication';
import { negotiate, type HandlerContext } from './context';

/** `GET /apis/<group>/<version>/<resource>/<name>`: one row the caller may see (404 for any other). */
export async function get(ctx: HandlerContext, resource: ServedResource, name: string, req: Req, res: Response): Promise<void> {
  ctx.limits.requireSynced();
  const { negotiated, includeObject, pretty } = negotiate(req, false);
  checkTargetFits(negotiated, 'object');
  await ctx.access.authorize(resource, req.user!, 'get', name);
  const row = getRow(resource, await ctx.access.viewer(resource, req.user!), name);
  send(res, 200, negotiated.contentType, renderObject(resource, row, { negotiated, includeObject, pretty, now: new Date() }));
}
