import express, { type NextFunction, type Request, type Response } from 'express';
import { apiRequestDuration } from '../../metrics/api';
import { GROUP_VERSION } from '../group-version';
import { parseGetOptions } from '../request/get-options';
import { parseListOptions } from '../request/list-options';
import { sendError } from '../request/respond';
import { failure, methodNotSupported } from '../status';
import type { CompletedConfig, Served } from './server-config';
import { clientErrorOf } from './errors';
import { authentication, type Req } from './filters/authentication';
import { queryOf, type HandlerContext } from './handlers/context';
import { create } from './handlers/create';
import { del } from './handlers/delete';
import { get } from './handlers/get';
import { list } from './handlers/list';
import { discovery, health, metrics, openapi } from './handlers/non-resource';
import { watchOverHttp } from './handlers/watch';

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** `/apis/tenancy.paddock.dev/v1alpha1/<resource>` and `.../<resource>/<name>`. */
export const COLLECTION_PATH = new RegExp(`^${escaped(GROUP_VERSION.path)}/([^/]+)$`);
const ITEM_PATH = new RegExp(`^${escaped(GROUP_VERSION.path)}/([^/]+)/([^/]+)$`);
/** `/apis/tenancy.paddock.dev` and `/apis/tenancy.paddock.dev/v1alpha1`, with or without a trailing slash. */
const GROUP_PATH = new RegExp(`^${escaped(`/apis/${GROUP_VERSION.group}`)}(${escaped(`/${GROUP_VERSION.version}`)})?/?$`);

/** The registration of `resource` (a path segment, already decoded). */
export function servedNamed(served: readonly Served[], resource: string): Served | undefined {
  return served.find((s) => s.resource.names.resource === resource);
}

function observe(started: bigint, verb: string, resource: string, code: number): void {
  apiRequestDuration.observe({ verb, resource, code: String(code) }, Number(process.hrtime.bigint() - started) / 1e9);
}

/** A collection: list and watch (GET), create (POST) where the resource creates; any other method is 405. */
async function collection(ctx: HandlerContext, { resource, hub }: Served, req: Req, res: Response): Promise<void> {
  const started = process.hrtime.bigint();
  const { names } = resource;
  const query = queryOf(req);
  let verb = 'list';
  let code = 200;
  try {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const options = parseListOptions(query, resource.fields.labels);
      verb = options.watch ? 'watch' : 'list';
      if (options.watch) return await watchOverHttp(ctx, resource, hub, req, res, options);
      await list(ctx, resource, req, res, options);
    } else if (req.method === 'POST' && resource.create) {
      verb = 'create';
      code = await create(ctx, resource as Parameters<typeof create>[1], req, res);
    } else {
      verb = req.method.toLowerCase();
      throw methodNotSupported(names, req.method === 'DELETE' ? 'deletecollection' : verb === 'post' ? 'create' : verb);
    }
  } catch (err) {
    code = sendError(res, err).code;
  } finally {
    if (verb !== 'watch') observe(started, verb, names.resource, code);
  }
}

/** An item: get (GET), delete (DELETE) where the resource deletes; any other method is 405. */
async function item(ctx: HandlerContext, { resource }: Served, req: Req, res: Response): Promise<void> {
  const started = process.hrtime.bigint();
  const { names } = resource;
  let verb = 'get';
  let code = 200;
  try {
    // The router has already decoded the path (a malformed encoding never gets here: see clientErrorOf).
    const name = decodeURIComponent(ITEM_PATH.exec(req.path)![2]);
    if (req.method === 'GET' || req.method === 'HEAD') {
      // Bounded by the handler itself, after any wait for a resourceVersion (which holds no slot).
      await get(ctx, resource, name, req, res, parseGetOptions(queryOf(req)));
    } else if (req.method === 'DELETE' && resource.delete) {
      verb = 'delete';
      await ctx.limits.bounded(() => del(ctx, resource as Parameters<typeof del>[1], name, req, res));
    } else {
      verb = req.method.toLowerCase();
      throw methodNotSupported(names, verb === 'put' ? 'update' : verb);
    }
  } catch (err) {
    code = sendError(res, err).code;
  } finally {
    observe(started, verb, names.resource, code);
  }
}

/**
 * The filter chain and the routes: a closing replica drops requests; health needs nobody; then
 * authentication, then metrics, discovery, OpenAPI and each served resource's collection and items.
 * Every error is a Kubernetes Status; nothing is proxied.
 */
export function routes(config: CompletedConfig, ctx: HandlerContext, closing: () => boolean) {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use((req, _res, next) => (closing() ? req.socket.destroy() : next()));
  app.get(['/healthz', '/livez'], health(() => true));
  app.get('/readyz', health(() => config.ready() && !closing()));
  app.use(authentication(config.authenticator));
  app.get('/metrics', (req: Req, res, next) => void metrics(config.authorizer, req, res).catch(next));
  app.get(['/apis', '/apis/', GROUP_PATH], (req, res) => discovery(config.discovery, req, res));
  app.get(/^\/openapi\/v[23](\/.*)?$/, (req, res) => openapi(config.openapi, req, res));
  app.all(COLLECTION_PATH, (req: Req, res, next) => {
    const served = servedNamed(config.served, COLLECTION_PATH.exec(req.path)![1]);
    if (served) void collection(ctx, served, req, res).catch(next);
    else next();
  });
  app.all(ITEM_PATH, (req: Req, res, next) => {
    const served = servedNamed(config.served, ITEM_PATH.exec(req.path)![1]);
    if (served) void item(ctx, served, req, res).catch(next);
    else next();
  });
  app.use((_req: Req, res) => {
    sendError(res, failure('NotFound', 'the server could not find the requested resource'));
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = sendError(res, clientErrorOf(err) ?? err);
    if (status.code >= 500) config.log.error('request failed', { err });
  });
  return app;
}
