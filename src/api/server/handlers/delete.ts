import type { Response } from 'express';
import { readBody } from '../../http/body';
import { parseDeleteOptions } from '../../request/delete-options';
import { sendValue } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import type { Req } from '../filters/authentication';
import { negotiate, queryOf, type HandlerContext } from './context';

/** `DELETE /apis/<group>/<version>/<resource>/<name>` of a resource that deletes: 200 with a Status. */
export async function del(ctx: HandlerContext, resource: ServedResource & Required<Pick<ServedResource, 'delete'>>, name: string, req: Req, res: Response): Promise<void> {
  ctx.limits.requireSynced();
  const { negotiated } = negotiate(req, false);
  const viewer = await ctx.access.authorizedViewer(resource, req.user!, 'delete', name);
  const options = parseDeleteOptions(queryOf(req), await readBody(req, ctx.body));
  const status = await resource.delete(viewer, name, options);
  sendValue(res, 200, status, negotiated);
}
