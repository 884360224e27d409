import type { Response } from 'express';
import { checkTargetFits } from '../../negotiation';
import { resourceVersionOfContinue } from '../../request/continue-token';
import type { ListOptions } from '../../request/list-options';
import { sendStream } from '../../request/respond';
import type { ServedResource } from '../../registration/served-resource';
import { listRows } from '../../serving/rows';
import { renderList } from '../../serving/render';
import type { Req } from '../filters/authentication';
import { negotiate, type HandlerContext } from './context';
import { awaitResourceVersion } from './resource-version';

/** `GET /apis/<group>/<version>/<resource>`: the caller's rows, paged, streamed from their cached encodings. */
export async function list(ctx: HandlerContext, resource: ServedResource, req: Req, res: Response, options: ListOptions): Promise<void> {
  ctx.limits.requireSynced();
  // A resourceVersion (or a continue token's) another replica issued and this one has not reached yet is
  // waited for; if it never comes, the list is 504 (410 for a token).
  const awaited = options.resourceVersion || (options.continueToken && resourceVersionOfContinue(options.continueToken));
  await awaitResourceVersion(ctx, resource, awaited || undefined, res, async () => {
    checkTargetFits(negotiate(req, false).negotiated, 'list');
    // Both reviews, at once: the read after the wait finds their answers kept.
    await ctx.access.authorizedViewer(resource, req.user!, 'list');
  });
  await ctx.limits.bounded(async () => {
    const { negotiated, includeObject, pretty } = negotiate(req, false);
    checkTargetFits(negotiated, 'list');
    const result = listRows(resource, await ctx.access.authorizedViewer(resource, req.user!, 'list'), options, ctx.snapshots);
    // Streamed in chunks from each row's cached encodings, as the connection takes them.
    await sendStream(res, 200, negotiated.contentType, renderList(resource, result.items, result.metadata, { negotiated, includeObject, pretty, now: new Date() }));
  });
}
