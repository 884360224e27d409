import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Response } from 'express';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Authenticator } from '../../auth';
import { checkHandshake } from '../../http/websocket';
import { negotiateOutput, parseIncludeObject } from '../../negotiation';
import { parseListOptions, type ListOptions } from '../../request/list-options';
import type { ServedResource } from '../../registration/served-resource';
import { failure, unauthorized } from '../../status';
import type { WatchHub } from '../../watch/hub';
import { httpSink, webSocketSink } from '../../watch/sinks';
import type { Served } from '../server-config';
import { clientErrorOf, sendErrorToSocket } from '../errors';
import type { Req } from '../filters/authentication';
import { negotiate, type HandlerContext } from './context';

/** `GET .../<resource>?watch=1` over chunked HTTP: one JSON line per event, until either side ends it. */
export async function watchOverHttp(ctx: HandlerContext, resource: ServedResource, hub: WatchHub, req: Req, res: Response, options: ListOptions): Promise<void> {
  ctx.limits.requireSynced();
  const { negotiated, includeObject } = negotiate(req, true);
  const viewer = await ctx.access.authorizedViewer(resource, req.user!, 'watch');
  const release = ctx.limits.admitWatcher(req.user!.name);
  res.writeHead(200, { 'Content-Type': negotiated.contentType, 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  let watcher: ReturnType<WatchHub['serve']>;
  try {
    watcher = hub.serve(httpSink(res), { viewer, options, negotiated, includeObject, transport: 'http' }, release);
  } catch (err) {
    release();
    throw err;
  }
  res.on('close', () => watcher.close('client'));
  if (res.destroyed || req.socket.destroyed) watcher.close('client'); // gone before the listener was there
}

/** What a WebSocket watch needs besides the handlers' context: who asks, and what is served where. */
export interface UpgradeContext extends HandlerContext {
  authenticator: Authenticator;
  wss: WebSocketServer;
  /** The registration a collection path names, if any. */
  servedAt(pathname: string): Served | undefined;
}

/**
 * The same watch over a WebSocket: one text message per event. The caller's watch slot is taken only
 * once the handshake is known to be acceptable, and given back on every path: by the watcher when it
 * ends, or by the socket's close when no watcher ever took it over.
 */
export async function watchOverWebSocket(ctx: UpgradeContext, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  const refuse = (err: unknown) => {
    if (socket.destroyed) return;
    const status = sendErrorToSocket(socket, clientErrorOf(err) ?? err, /Version/.test((err as Error)?.message ?? '') ? { 'Sec-WebSocket-Version': '13' } : {});
    if (status >= 500) ctx.log.error('websocket upgrade failed', { err });
  };
  try {
    // Who asks comes first, as on the plain HTTP path: nothing about paths is answered to nobody.
    const auth = await ctx.authenticator.authenticate(req);
    if (!auth.ok) throw unauthorized();
    const url = new URL(req.url ?? '/', 'https://x');
    const served = ctx.servedAt(url.pathname);
    if (!served) throw failure('NotFound', 'the server could not find the requested resource');
    ctx.limits.requireSynced();
    const { resource, hub } = served;
    const options = parseListOptions(url.searchParams, resource.fields.labels);
    options.watch = true;
    const negotiated = negotiateOutput(req.headers.accept, { watch: true });
    const includeObject = negotiated.target === 'Table' ? parseIncludeObject(url.searchParams.get('includeObject') ?? undefined) : 'Metadata';
    const viewer = await ctx.access.authorizedViewer(resource, auth.user, 'watch');
    checkHandshake(req);
    if (socket.destroyed) return;
    const release = ctx.limits.admitWatcher(auth.user.name);
    let adopted = false;
    socket.once('close', () => {
      if (!adopted) release();
    });
    ctx.wss.handleUpgrade(req, socket, head, (ws: WebSocket) => {
      adopted = true;
      let watcher: ReturnType<WatchHub['serve']>;
      try {
        watcher = hub.serve(webSocketSink(ws), { viewer, options, negotiated, includeObject, transport: 'websocket' }, release);
      } catch (err) {
        release();
        ws.terminate();
        ctx.log.error('websocket watch failed', { err });
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
