import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { reloadServingCertificate, reloadTlsOnChange, tlsServerOptions } from '../auth';
import { answerClientError, answerConnect } from '../http/client-error';
import { closeGracefully, UndeliveredResponses } from '../http/graceful-close';
import { isLingering, unlessLingering } from '../http/linger';
import { selectProtocol } from '../http/websocket';
import { ListSnapshots } from '../serving/snapshots';
import type { CompletedConfig } from './server-config';
import { ResourceAuthorization } from './filters/authorization';
import { RequestLimits } from './filters/limits';
import { watchOverWebSocket, type UpgradeContext } from './handlers/watch';
import { COLLECTION_PATH, routes, servedNamed } from './routes';

/**
 * The aggregated API server: HTTPS with delegated authentication (front proxy, client certificates,
 * TokenReview) and authorization (SubjectAccessReview), serving discovery, OpenAPI, health, metrics and
 * every registered resource. Built from a completed config (see server-config.ts): the filters, the handlers of
 * each verb and the routes are its parts; it knows no resource by name.
 */
export class ApiServer {
  readonly server: Server;
  readonly #config: CompletedConfig;
  readonly #upgrades: UpgradeContext;
  #stopServingReload = () => {};
  readonly #responses: UndeliveredResponses;
  /** Set by close(): the replica is going away and takes no more requests. */
  #closing = false;

  constructor(config: CompletedConfig) {
    this.#config = config;
    const ctx = {
      access: new ResourceAuthorization(config.authorizer),
      limits: new RequestLimits(config.limits, config.ready),
      body: config.body,
      snapshots: new ListSnapshots(),
      log: config.log,
    };
    this.#upgrades = {
      ...ctx,
      authenticator: config.authenticator,
      wss: new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, handleProtocols: selectProtocol }),
      servedAt: (pathname) => {
        const match = COLLECTION_PATH.exec(pathname);
        return match ? servedNamed(config.served, decodeURIComponent(match[1])) : undefined;
      },
    };
    this.server = createServer({
      ...tlsServerOptions(config.authSource.current, config.serving()),
      ...config.connections,
    }, unlessLingering(routes(config, ctx, () => this.#closing)));
    this.#responses = new UndeliveredResponses(this.server);
    reloadTlsOnChange(this.server, config.authSource, config.serving);
    this.#stopServingReload = reloadServingCertificate(this.server, config.authSource, config.serving, {
      onError: (err) => config.log.warn('the serving certificate could not be loaded; serving the previous one', { err }),
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
    for (const s of this.#config.served) s.hub.closeAll();
    await closeGracefully(this.server, this.#responses, graceMs);
  }

  async #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    if (isLingering(socket)) return; // closing after a refused body: the linger ends it
    if (this.#closing) {
      socket.destroy();
      return;
    }
    await watchOverWebSocket(this.#upgrades, req, socket, head);
  }
}
