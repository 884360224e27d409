import type { Response } from 'express';
import { readBody } from '../../http/body';
import { send } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import { renderObject } from '../../serving/render';
import { badRequest } from '../../status';
import type { Req } from '../filters/authentication';
import { negotiate, queryOf, type HandlerContext } from './context';

/** `POST /apis/<group>/<version>/<resource>` of a resource that creates: 201 with the created object. */
export async function create(ctx: HandlerContext, resource: ServedResource & Required<Pick<ServedResource, 'create'>>, req: Req, res: Response): Promise<number> {
  ctx.limits.requireSynced();
  const query = queryOf(req);
  const create = resource.create.bind(resource);
  return await ctx.limits.bounded(async () => {
    const { negotiated, includeObject, pretty } = negotiate(req, false);
    const viewer = await ctx.access.authorizedViewer(resource, req.user!, 'create');
    const body = await readBody(req, ctx.body);
    const dryRun = query.getAll('dryRun');
    const bad = dryRun.find((d) => d !== 'All');
    if (bad !== undefined) throw badRequest(`dryRun: Unsupported value: ${JSON.stringify(bad.slice(0, 64))}: supported values: "All"`);
    const fieldValidation = query.get('fieldValidation') ?? 'Warn';
    if (!['Ignore', 'Warn', 'Strict'].includes(fieldValidation)) throw badRequest(`fieldValidation: Unsupported value: ${JSON.stringify(fieldValidation.slice(0, 64))}: supported values: "Ignore", "Strict", "Warn"`);
    const created = await create(viewer, body, dryRun.length > 0, fieldValidation === 'Strict');
    send(res, 201, negotiated.contentType, renderObject(resource, created, { negotiated, includeObject, pretty, now: new Date() }));
    return 201;
  });
}
