import type { ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { registry } from '../../../metrics/registry';
import type { Authorizer } from '../../auth';
import { serveDiscovery, DISCOVERY_PATHS, type DiscoveryDocuments } from '../../discovery';
import { serveOpenAPI, type OpenAPIDocuments } from '../../openapi';
import type { StaticResponse } from '../../static/document';
import { failure, forbiddenPath } from '../../status';
import type { Req } from '../filters/authentication';

function sendStatic(res: ServerResponse, r: StaticResponse): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

/** `/healthz`, `/livez`, `/readyz`: 200 `ok` while `ready`, else 500. */
export function health(ready: () => boolean) {
  return (_req: Request, res: Response): void => {
    const ok = ready();
    res.status(ok ? 200 : 500).type('text/plain').send(ok ? 'ok' : 'caches not synced');
  };
}

/** `/metrics`, for a caller allowed to get that path (a non-resource SubjectAccessReview). */
export async function metrics(authorizer: Authorizer, req: Req, res: Response): Promise<void> {
  const d = await authorizer.authorize(req.user!, { path: '/metrics', verb: 'get' });
  if (!d.allowed) throw forbiddenPath(req.user!.name, 'get', '/metrics');
  res.status(200).type(registry.contentType).send(await registry.metrics());
}

/** `/apis`, the group and the group version: aggregated or legacy discovery, by Accept. */
export function discovery(documents: DiscoveryDocuments, req: Request, res: Response): void {
  const path = req.path.replace(/\/$/, '') || DISCOVERY_PATHS.apis;
  const r = serveDiscovery(documents, { path, accept: req.get('accept'), ifNoneMatch: req.get('if-none-match') });
  if (!r) throw failure('NotFound', 'the server could not find the requested resource');
  sendStatic(res, r);
}

/** `/openapi/v2` and `/openapi/v3[/...]`. */
export function openapi(documents: OpenAPIDocuments, req: Request, res: Response): void {
  const r = serveOpenAPI(documents, { path: req.path, hash: new URL(req.originalUrl, 'https://x').searchParams.get('hash'), accept: req.get('accept'), ifNoneMatch: req.get('if-none-match') });
  if (!r) throw failure('NotFound', 'the server could not find the requested resource');
  sendStatic(res, r);
}
