import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import express, { type NextFunction, type Request, type Response } from 'express';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from '../log/logger';
import { apiInflight, apiRejected, apiRequestDuration } from '../metrics/api';
import { registry } from '../metrics/registry';
import { reloadServingCertificate, reloadTlsOnChange, tlsServerOptions, type AuthConfigSource, type Authenticator, type Authorizer, type ServingCertificate, type UserInfo } from './auth';
import { DISCOVERY_PATHS, serveDiscovery, type DiscoveryDocuments } from './discovery';
import { readBody, type BodyLimits } from './http/body';
import { answerClientError, answerConnect } from './http/client-error';
import { withDeadline } from './http/deadlines';
import { closeGracefully, UndeliveredResponses } from './http/graceful-close';
import { isLingering, unlessLingering } from './http/linger';
import { checkHandshake, selectProtocol } from './http/websocket';
import { checkTargetFits, negotiateOutput, parseIncludeObject, wantsPretty, type IncludeObject, type Negotiated } from './negotiation';
import { serveOpenAPI, type OpenAPIDocuments } from './openapi';
import { parseDeleteOptions } from './request/delete-options';
import { resourceVersionOfContinue } from './request/continue-token';
import { parseListOptions } from './request/list-options';
import { send, sendError, sendStream, sendValue } from './request/respond';
import type { StaticResponse } from './static/document';
import { badRequest, failure, forbidden, isStatusError, forbiddenPath, methodNotSupported, tooManyRequests, unauthorized } from './status';
import { getRow, listRows } from './serving/list';
import { RESOURCE_VERSION_WAIT_MS } from './storage/change-log';
import { renderList, renderObject } from './serving/render';
import type { AnyServedResource, ServedResource, Viewer } from './serving/registration';
import { ListSnapshots } from './serving/snapshots';
import type { WatchHub } from './watch/handler';
import type { WatchSink } from './watch/watcher';

export interface ApiServerLimits {
  maxRequestsInflight: number;
  maxWatchersPerUser: number;
  maxBodyBytes: number;
  /** Overall deadline of a non-watch request (504 past it); default 60 s as kube-apiserver. */
  requestTimeoutMs?: number;
  /** Deadline for a request body once reading starts (408 past it); default 30 s. */
  requestBodyTimeoutMs?: number;
  /** Deadline for request headers (408); default 32 s as kube-apiserver's ReadHeaderTimeout. */
  headerTimeoutMs?: number;
  /** Idle keep-alive connections close after this; default 90 s as kube-apiserver's IdleTimeout. */
  idleTimeoutMs?: number;
}

/** A served resource and the hub that serves its watches. */
export interface Served {
  resource: AnyServedResource;
  hub: WatchHub<any>;
}

export interface ApiServerDeps {
  /** Every resource of the group version, each one registration (see serving/resource.ts). */
  served: readonly Served[];
  authSource: AuthConfigSource;
  authenticator: Authenticator;
  authorizer: Authorizer;
  discovery: DiscoveryDocuments;
  openapi: OpenAPIDocuments;
  serving: () => ServingCertificate;
  /** True once every cache has synced (readyz). */
  ready: () => boolean;
  limits: ApiServerLimits;
  log: Logger;
}

/** `/apis/tenancy.paddock.dev/v1alpha1/<resource>` and `.../<resource>/<name>`. */
const COLLECTION_PATH = /^\/apis\/tenancy\.paddock\.dev\/v1alpha1\/([^/]+)$/;
const ITEM_PATH = /^\/apis\/tenancy\.paddock\.dev\/v1alpha1\/([^/]+)\/([^/]+)$/;

interface Authenticated {
  user: UserInfo;
}

type Req = Request & Partial<Authenticated>;

function sendStatic(res: ServerResponse, r: StaticResponse): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

/**
 * The aggregated API server: HTTPS with delegated authentication (front proxy, client certificates,
 * TokenReview) and authorization (SubjectAccessReview), serving discovery, OpenAPI, health, metrics and
 * tenantnamespaces from the view. Every error is a Kubernetes Status; nothing is proxied.
 */
export class ApiServer {
  readonly server: Server;
  readonly #deps: ApiServerDeps;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: selectProtocol });
  readonly #watchersPerUser = new Map<string, number>();
  readonly #snapshots = new ListSnapshots();
  #inflight = 0;
  readonly #requestTimeoutMs: number;
  readonly #body: BodyLimits;
  #stopServingReload = () => {};
  readonly #responses: UndeliveredResponses;
  /** Set by close(): the replica is going away and takes no more requests. */
  #closing = false;

  constructor(deps: ApiServerDeps) {
    this.#deps = deps;
    const { limits } = deps;
    this.#requestTimeoutMs = limits.requestTimeoutMs ?? 60_000;
    this.#body = { maxBytes: limits.maxBodyBytes, timeoutMs: limits.requestBodyTimeoutMs ?? 30_000 };
    const headersTimeout = limits.headerTimeoutMs ?? 32_000;
    // Node's own bound on receiving a whole request is a backstop behind the handlers' deadlines (a body
    // nobody reads); watches are whole requests once their headers are in, so it never ends them.
    const requestTimeout = Math.max(this.#requestTimeoutMs, this.#body.timeoutMs, headersTimeout) + 5_000;
    this.server = createServer({
      ...tlsServerOptions(deps.authSource.current, deps.serving()),
      headersTimeout, requestTimeout, keepAliveTimeout: limits.idleTimeoutMs ?? 90_000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(headersTimeout / 4))),
    }, unlessLingering(this.#app()));
    this.#responses = new UndeliveredResponses(this.server);
    reloadTlsOnChange(this.server, deps.authSource, deps.serving);
    this.#stopServingReload = reloadServingCertificate(this.server, deps.authSource, deps.serving, {
      onError: (err) => deps.log.warn('the serving certificate could not be loaded; serving the previous one', { err }),
    });
    this.server.on('upgrade', (req, socket, head) => void this.#upgrade(req, socket, head));
    this.server.on('clientError', answerClientError);
    this.server.on('connect', answerConnect);
  }

  listen(port: number, host: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        const addr = this.server.address();
        resolve(typeof addr === 'object' && addr ? addr.port : port);
      });
    });
  }

  /**
   * Stops serving without cutting anyone off mid-answer, so that a rolling restart costs clients nothing:
   * readiness fails; every watch ends cleanly, and its client watches again from its resourceVersion
   * (which every replica resumes); a request that arrives afterwards on a connection already open is
   * dropped unanswered, so that the client's transport sends it again on a new connection — to another
   * replica (Go's does for a GET on a reused connection; kube-apiserver's proxy is Go's); new connections
   * are refused; once every response under way has been delivered whole, connections close. Resolves once
   * every connection has closed, or after `graceMs`.
   */
  async close(graceMs = 10_000): Promise<void> {
    this.#closing = true;
    this.#stopServingReload();
    for (const s of this.#deps.served) s.hub.closeAll();
    await closeGracefully(this.server, this.#responses, graceMs);
  }

  #app() {
    const app = express();
    app.disable('x-powered-by');
    app.set('etag', false);
    app.set('query parser', 'simple');
    app.use((req, _res, next) => (this.#closing ? req.socket.destroy() : next()));
    const health = (ready: () => boolean) => (_req: Request, res: Response) => {
      const ok = ready();
      res.status(ok ? 200 : 500).type('text/plain').send(ok ? 'ok' : 'caches not synced');
    };
    app.get(['/healthz', '/livez'], health(() => true));
    app.get('/readyz', health(() => this.#deps.ready() && !this.#closing));
    app.use((req, res, next) => void this.#authenticate(req, res, next));
    app.get('/metrics', (req: Req, res, next) => void this.#metrics(req, res).catch(next));
    app.get(['/apis', '/apis/', /^\/apis\/tenancy\.paddock\.dev(\/v1alpha1)?\/?$/], (req, res) => this.#discovery(req, res));
    app.get(/^\/openapi\/v[23](\/.*)?$/, (req, res) => this.#openapi(req, res));
    app.all(COLLECTION_PATH, (req: Req, res, next) => {
      const served = this.#served(COLLECTION_PATH.exec(req.path)![1]);
      if (served) void this.#collection(served, req, res).catch(next);
      else next();
    });
    app.all(ITEM_PATH, (req: Req, res, next) => {
      const served = this.#served(ITEM_PATH.exec(req.path)![1]);
      if (served) void this.#item(served, req, res).catch(next);
      else next();
    });
    app.use((_req: Req, res) => {
      sendError(res, failure('NotFound', 'the server could not find the requested resource'));
    });
    app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
      const status = sendError(res, clientErrorOf(err) ?? err);
      if (status.code >= 500) this.#deps.log.error('request failed', { err });
    });
    return app;
  }

  async #authenticate(req: Req, res: Response, next: NextFunction): Promise<void> {
    try {
      const result = await this.#deps.authenticator.authenticate(req);
      if (!result.ok) {
        sendError(res, unauthorized());
        return;
      }
      req.user = result.user;
      next();
    } catch (err) {
      next(err);
    }
  }

  /** The registration of `resource` (a path segment, already decoded by the router). */
  #served(resource: string): Served | undefined {
    return this.#deps.served.find((s) => s.resource.names.resource === resource);
  }

  /** The caller as the resource's view needs it; it sees every row when it may list the source kind cluster-wide. */
  async #viewer(resource: ServedResource, user: UserInfo): Promise<Viewer> {
    return { name: user.name, groups: user.groups, seesAll: await this.#deps.authorizer.canListAll(user, resource.seesAllWith) };
  }

  async #authorize(resource: ServedResource, user: UserInfo, verb: string, name?: string): Promise<void> {
    const { names } = resource;
    const d = await this.#deps.authorizer.authorize(user, { verb, group: names.group, version: names.version, resource: names.resource, name });
    if (!d.allowed) throw forbidden(names, name ?? '', user.name, verb, d.reason || undefined);
  }

  async #metrics(req: Req, res: Response): Promise<void> {
    const d = await this.#deps.authorizer.authorize(req.user!, { path: '/metrics', verb: 'get' });
    if (!d.allowed) throw forbiddenPath(req.user!.name, 'get', '/metrics');
    res.status(200).type(registry.contentType).send(await registry.metrics());
  }

  #discovery(req: Request, res: Response): void {
    const path = req.path.replace(/\/$/, '') || DISCOVERY_PATHS.apis;
    const r = serveDiscovery(this.#deps.discovery, { path, accept: req.get('accept'), ifNoneMatch: req.get('if-none-match') });
    if (!r) throw failure('NotFound', 'the server could not find the requested resource');
    sendStatic(res, r);
  }

  #openapi(req: Request, res: Response): void {
    const r = serveOpenAPI(this.#deps.openapi, { path: req.path, hash: new URL(req.originalUrl, 'https://x').searchParams.get('hash'), accept: req.get('accept'), ifNoneMatch: req.get('if-none-match') });
    if (!r) throw failure('NotFound', 'the server could not find the requested resource');
    sendStatic(res, r);
  }

  /**
   * Every request for a served resource needs every cache listed: before that a list or get would answer
   * from a half-filled cache, a watch would start from it, and a create would count a tenant's namespaces
   * short (quota). Readiness keeps a Service from sending requests here, but not a client that dials the
   * port: it gets 429 with Retry-After, as kube-apiserver answers while its watch cache initializes, and
   * clients (client-go, kubectl) retry.
   */
  #requireSynced(): void {
    if (!this.#deps.ready()) {
      apiRejected.inc({ reason: 'not-synced' });
      throw tooManyRequests(1, 'storage is (re)initializing');
    }
  }

  /**
   * Admission of a non-watch request: the inflight bound (429 with Retry-After past it), and the request
   * deadline (504 Timeout past it), after which the slot is free again whatever the work is waiting for.
   */
  async #bounded<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#inflight >= this.#deps.limits.maxRequestsInflight) {
      apiRejected.inc({ reason: 'inflight' });
      throw tooManyRequests(1);
    }
    this.#inflight++;
    apiInflight.set(this.#inflight);
    try {
      return await withDeadline(this.#requestTimeoutMs, fn);
    } finally {
      this.#inflight--;
      apiInflight.set(this.#inflight);
    }
  }

  #negotiate(req: Request, watch: boolean): { negotiated: Negotiated; includeObject: IncludeObject; pretty: boolean } {
    const negotiated = negotiateOutput(req.get('accept'), { watch });
    const query = new URL(req.originalUrl, 'https://x').searchParams;
    const includeObject = negotiated.target === 'Table' ? parseIncludeObject(query.get('includeObject') ?? undefined) : 'Metadata';
    return { negotiated, includeObject, pretty: wantsPretty(negotiated, query.get('pretty'), req.get('user-agent')) };
  }

  async #collection({ resource, hub }: Served, req: Req, res: Response): Promise<void> {
    const started = process.hrtime.bigint();
    const query = new URL(req.originalUrl, 'https://x').searchParams;
    const { names } = resource;
    let verb = 'list';
    let code = 200;
    try {
      if (req.method === 'GET' || req.method === 'HEAD') {
        const options = parseListOptions(query, resource.fields.labels);
        verb = options.watch ? 'watch' : 'list';
        this.#requireSynced();
        if (options.watch) return await this.#watch(resource, hub, req, res, options);
        // A resourceVersion (or a continue token) another replica issued and this one has not reached yet:
        // wait for it, as kube-apiserver waits for a revision its watch cache has not seen — then 504, or 410
        // for the token, if it never comes. Only a caller allowed to list waits, and waiting holds no
        // in-flight slot (the view bounds how many wait at once).
        const awaited = options.resourceVersion || (options.continueToken && resourceVersionOfContinue(options.continueToken));
        if (awaited && resource.storage.locate(awaited) === 'ahead') {
          checkTargetFits(this.#negotiate(req, false).negotiated, 'list');
          await this.#authorize(resource, req.user!, 'list');
          await resource.storage.whenReached(awaited, RESOURCE_VERSION_WAIT_MS);
        }
        await this.#bounded(async () => {
          const { negotiated, includeObject, pretty } = this.#negotiate(req, false);
          checkTargetFits(negotiated, 'list');
          await this.#authorize(resource, req.user!, 'list');
          const result = listRows(resource, await this.#viewer(resource, req.user!), options, this.#snapshots);
          // Streamed in chunks from each row's cached encodings, as the connection takes them.
          await sendStream(res, 200, negotiated.contentType, renderList(resource, result.items, result.metadata, { negotiated, includeObject, pretty, now: new Date() }));
        });
      } else if (req.method === 'POST' && resource.create) {
        verb = 'create';
        this.#requireSynced();
        const create = resource.create.bind(resource);
        await this.#bounded(async () => {
          const { negotiated, includeObject, pretty } = this.#negotiate(req, false);
          await this.#authorize(resource, req.user!, 'create');
          const body = await readBody(req, this.#body);
          const dryRun = query.getAll('dryRun');
          const bad = dryRun.find((d) => d !== 'All');
          if (bad !== undefined) throw badRequest(`dryRun: Unsupported value: ${JSON.stringify(bad.slice(0, 64))}: supported values: "All"`);
          const fieldValidation = query.get('fieldValidation') ?? 'Warn';
          if (!['Ignore', 'Warn', 'Strict'].includes(fieldValidation)) throw badRequest(`fieldValidation: Unsupported value: ${JSON.stringify(fieldValidation.slice(0, 64))}: supported values: "Ignore", "Strict", "Warn"`);
          const created = await create(await this.#viewer(resource, req.user!), body, dryRun.length > 0, fieldValidation === 'Strict');
          code = 201;
          send(res, 201, negotiated.contentType, renderObject(resource, created, { negotiated, includeObject, pretty, now: new Date() }));
        });
      } else {
        verb = req.method.toLowerCase();
        throw methodNotSupported(names, req.method === 'DELETE' ? 'deletecollection' : verb === 'post' ? 'create' : verb);
      }
    } catch (err) {
      code = sendError(res, err).code;
    } finally {
      if (verb !== 'watch') apiRequestDuration.observe({ verb, resource: names.resource, code: String(code) }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  async #item({ resource }: Served, req: Req, res: Response): Promise<void> {
    const started = process.hrtime.bigint();
    const { names } = resource;
    let verb = 'get';
    let code = 200;
    try {
      // The router has already decoded the path (a malformed encoding never gets here: see clientErrorOf).
      const name = decodeURIComponent(ITEM_PATH.exec(req.path)![2]);
      await this.#bounded(async () => {
        if (req.method === 'GET' || req.method === 'HEAD') {
          this.#requireSynced();
          const { negotiated, includeObject, pretty } = this.#negotiate(req, false);
          checkTargetFits(negotiated, 'object');
          await this.#authorize(resource, req.user!, 'get', name);
          const row = getRow(resource, await this.#viewer(resource, req.user!), name);
          send(res, 200, negotiated.contentType, renderObject(resource, row, { negotiated, includeObject, pretty, now: new Date() }));
        } else if (req.method === 'DELETE' && resource.delete) {
          verb = 'delete';
          this.#requireSynced();
          const { negotiated } = this.#negotiate(req, false);
          await this.#authorize(resource, req.user!, 'delete', name);
          const options = parseDeleteOptions(new URL(req.originalUrl, 'https://x').searchParams, await readBody(req, this.#body));
          const status = await resource.delete(await this.#viewer(resource, req.user!), name, options);
          sendValue(res, 200, status, negotiated);
        } else {
          verb = req.method.toLowerCase();
          throw methodNotSupported(names, verb === 'put' ? 'update' : verb);
        }
      });
    } catch (err) {
      code = sendError(res, err).code;
    } finally {
      apiRequestDuration.observe({ verb, resource: names.resource, code: String(code) }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  #admitWatcher(user: string): () => void {
    const n = this.#watchersPerUser.get(user) ?? 0;
    if (n >= this.#deps.limits.maxWatchersPerUser) {
      apiRejected.inc({ reason: 'watchers-per-user' });
      throw tooManyRequests(5, `too many open watches for user ${JSON.stringify(user)}`);
    }
    this.#watchersPerUser.set(user, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#watchersPerUser.get(user) ?? 1) - 1;
      if (left <= 0) this.#watchersPerUser.delete(user);
      else this.#watchersPerUser.set(user, left);
    };
  }

  async #watch(resource: ServedResource, hub: WatchHub, req: Req, res: Response, options: ReturnType<typeof parseListOptions>): Promise<void> {
    const { negotiated, includeObject } = this.#negotiate(req, true);
    await this.#authorize(resource, req.user!, 'watch');
    const viewer = await this.#viewer(resource, req.user!);
    const release = this.#admitWatcher(req.user!.name);
    res.writeHead(200, { 'Content-Type': negotiated.contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    const sink: WatchSink = {
      write: (b) => res.write(b),
      get bufferedBytes() {
        return res.writableLength;
      },
      end: () => res.end(),
      destroy: () => res.destroy(),
    };
    let watcher: ReturnType<WatchHub['serve']>;
    try {
      watcher = hub.serve(sink, { viewer, options, negotiated, includeObject, transport: 'http' }, release);
    } catch (err) {
      release();
      throw err;
    }
    res.on('close', () => watcher.close('client'));
    if (res.destroyed || req.socket.destroyed) watcher.close('client'); // gone before the listener was there
  }

  /**
   * The same watch over a WebSocket: one text message per event. The caller's watch slot is taken only
   * once the handshake is known to be acceptable, and given back on every path: by the watcher when it
   * ends, or by the socket's close when no watcher ever took it over.
   */
  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (isLingering(socket)) return; // closing after a refused body: the linger ends it
    if (this.#closing) {
      socket.destroy();
      return;
    }
    const refuse = (err: unknown) => {
      if (socket.destroyed) return;
      const status = sendErrorToSocket(socket, clientErrorOf(err) ?? err, /Version/.test((err as Error)?.message ?? '') ? { 'Sec-WebSocket-Version': '13' } : {});
      if (status >= 500) this.#deps.log.error('websocket upgrade failed', { err });
    };
    try {
      // Who asks comes first, as on the plain HTTP path: nothing about paths is answered to nobody.
      const auth = await this.#deps.authenticator.authenticate(req);
      if (!auth.ok) throw unauthorized();
      const url = new URL(req.url ?? '/', 'https://x');
      const match = COLLECTION_PATH.exec(url.pathname);
      const served = match ? this.#served(decodeURIComponent(match[1])) : undefined;
      if (!served) throw failure('NotFound', 'the server could not find the requested resource');
      this.#requireSynced();
      const { resource, hub } = served;
      const options = parseListOptions(url.searchParams, resource.fields.labels);
      options.watch = true;
      const negotiated = negotiateOutput(req.headers.accept, { watch: true });
      const includeObject = negotiated.target === 'Table' ? parseIncludeObject(url.searchParams.get('includeObject') ?? undefined) : 'Metadata';
      await this.#authorize(resource, auth.user, 'watch');
      checkHandshake(req);
      const viewer = await this.#viewer(resource, auth.user);
      if (socket.destroyed) return;
      const release = this.#admitWatcher(auth.user.name);
      let adopted = false;
      socket.once('close', () => {
        if (!adopted) release();
      });
      this.#wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
        adopted = true;
        const sink: WatchSink = {
          write: (b) => {
            ws.send(b.subarray(0, b.length - 1).toString('utf8'));
            return true;
          },
          get bufferedBytes() {
            return ws.bufferedAmount;
          },
          end: () => ws.close(1000),
          destroy: () => ws.terminate(),
        };
        let watcher: ReturnType<WatchHub['serve']>;
        try {
          watcher = hub.serve(sink, { viewer, options, negotiated, includeObject, transport: 'websocket' }, release);
        } catch (err) {
          release();
          ws.terminate();
          this.#deps.log.error('websocket watch failed', { err });
          return;
        }
        ws.on('close', () => watcher.close('client'));
        ws.on('error', () => watcher.close('client'));
        if (ws.readyState !== ws.OPEN) watcher.close('client');
      });
    } catch (err) {
      refuse(err);
    }
  }
}

/** Writes a Status as a plain HTTP response on a socket that asked to upgrade; returns its code. */
function sendErrorToSocket(socket: Duplex, err: unknown, extraHeaders: Record<string, string> = {}): number {
  const chunks: Buffer[] = [];
  const res = {
    headersSent: false,
    writableEnded: false,
    writeHead(status: number, headers: Record<string, string>) {
      const all = { ...headers, ...extraHeaders };
      chunks.push(Buffer.from(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(all).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\nConnection: close\r\n\r\n`));
    },
    end(body: Buffer) {
      chunks.push(body);
      socket.end(Buffer.concat(chunks));
    },
    destroy() {
      socket.destroy();
    },
  } as unknown as ServerResponse;
  return sendError(res, err).code;
}

/**
 * Errors raised by the HTTP layer for the client's mistakes (a malformed percent-encoding in the path,
 * which the router decodes before any handler runs, or any error that carries a 4xx status) are the
 * client's: 400, never a 500.
 */
function clientErrorOf(err: unknown) {
  if (err instanceof URIError) return badRequest(`malformed URL: ${err.message}`);
  const status = (err as { status?: unknown })?.status;
  if (!isStatusError(err) && typeof status === 'number' && status >= 400 && status < 500) return badRequest((err as Error).message);
  return undefined;
}
