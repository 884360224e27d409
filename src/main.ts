#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { ApiServer, complete } from './api/server';
import { AuthConfigSource, Authenticator, Authorizer, TokenReviewer, type KubeRequester, type ServingCertificate } from './api/auth';
import { buildDiscoveryDocuments } from './api/discovery';
import { buildOpenAPIDocuments } from './api/openapi';
import type { AnyServedResource } from './api/registration/served-resource';
import { tenantNamespacesResource } from './api/resources/tenantnamespaces/registration';
import { SelfService } from './api/resources/tenantnamespaces/self-service';
import { TenantNamespaceView } from './api/resources/tenantnamespaces/view';
import { viewResources } from './api/resources';
import { WatchHub } from './api/watch/hub';
import { SharedInformerFactory } from './cache/factory';
import { useWatchWindowAge } from './cache/history';
import { ServingCertManager } from './certs/serving-cert';
import { checkedPrivateKey } from './certs/x509';
import { ResourceVersionSeal } from './api/storage/version-seal';
import { RESOURCE_VERSION_WAIT_MS } from './api/storage/change-log';
import { PaddockCache } from './cache/paddock-cache';
import { OptionsError, parseOptions, usage, type Options } from './config/options';
import { TenantController } from './controller/controller';
import { TenantQuotaController } from './controller/tenant-quota/quota-controller';
import { EventRecorder } from './controller/events';
import { LeaderElector } from './controller/leader-election';
import { TenantReconciler } from './controller/reconciler';
import { WriteFence } from './controller/write-fence';
import { Writer } from './controller/writer';
import { KubeClient, paddockVersion } from './kube/client';
import { loadConnection } from './kube/connection';
import { PADDOCK } from './kube/types';
import { TENANCY_CACHE } from './tenancy/cache-options';
import { tenantSamples } from './tenancy/tenant-samples';
import { collectRuntimeMetrics } from './metrics/runtime';
import { registerTenantMetrics } from './metrics/tenants';
import { configureLogging, logger } from './log/logger';

/**
 * Paddock: options → one client, one informer factory, one cache → the API server (every replica) and
 * the reconciler (the leader only) → graceful shutdown on SIGTERM/SIGINT.
 */
async function run(options: Options): Promise<void> {
  configureLogging(options.logLevel);
  const log = logger({ component: 'paddock', identity: options.identity });
  const connection = await loadConnection(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {});
  // The identity in the User-Agent lets kube-apiserver's audit log tell replicas apart.
  const userAgent = `paddock/${paddockVersion()} (${options.identity})`;
  // Three clients, three rate limits: a busy reconcile must neither delay what the API asks of
  // kube-apiserver for a caller — reviews (a slow or failed one fails the request) and self-service
  // creates and deletes — nor the Lease renewals (a late renewal ends leadership).
  const client = new KubeClient(connection, { qps: options.qps, burst: options.burst, userAgent });
  const apiClient = new KubeClient(connection, { qps: options.reviewQps, burst: options.reviewBurst, timeoutMs: options.reviewTimeoutMs, userAgent });
  const leaseClient = new KubeClient(connection, { qps: 5, burst: 10, timeoutMs: options.renewDeadlineMs, userAgent });
  const factory = new SharedInformerFactory(client, { logger: logger({ component: 'informer' }) });
  const cache = new PaddockCache(factory, TENANCY_CACHE);
  collectRuntimeMetrics();
  registerTenantMetrics(() => tenantSamples(cache));
  const stop = new AbortController();
  const tasks: Promise<unknown>[] = [];

  let api: ApiServer | undefined;
  if (options.mode !== 'controller') {
    const requester: KubeRequester = { request: (method, path, body) => client.request(method, path, { body }) };
    const reviews: KubeRequester = { request: (method, path, body) => apiClient.request(method, path, { body }) };
    // Renewals of answers in use, which no request waits for: the same budget, told apart in kube-apiserver's audit log.
    const renewalAgent = { 'User-Agent': `${userAgent} review-renewal` };
    const renewals: KubeRequester = { request: (method, path, body) => apiClient.request(method, path, { body, headers: renewalAgent }) };
    const authSource = new AuthConfigSource(requester, { onError: (err) => log.warn('reading extension-apiserver-authentication failed', { err }) });
    await authSource.start();
    let serving: () => ServingCertificate = () => ({ cert: readFileSync(options.tlsCertFile!), key: readFileSync(options.tlsKeyFile!) });
    if (options.manageServingCert) {
      const certs = new ServingCertManager(client, {
        namespace: options.servingCertSecret.namespace, secretName: options.servingCertSecret.name,
        serviceName: options.servingCertService, apiServiceName: options.apiServiceName,
        validityMs: options.servingCertValidityMs, caValidityMs: 10 * options.servingCertValidityMs,
        checkIntervalMs: Math.min(60_000, Math.max(1000, Math.floor(options.servingCertValidityMs / 100))),
      }, logger({ component: 'serving-cert' }));
      await certs.start(stop.signal);
      serving = () => certs.current();
    }
    // resourceVersions are signed with a key derived from the serving key, which every replica shares. A
    // key that does not parse (a file caught empty or half written) is not derived from: the seal keeps
    // the keys in use until the next read.
    const seal = new ResourceVersionSeal(() => checkedPrivateKey(serving().key));
    useWatchWindowAge(options.watchWindowAgeMs);
    const view = new TenantNamespaceView(cache, options.watchWindow, seal);
    // Every resource of tenancy.paddock.dev/v1alpha1: one registration each, one watch hub each.
    const resources: AnyServedResource[] = [tenantNamespacesResource(view.store, new SelfService(view, apiClient)), ...viewResources(cache, options.watchWindow, seal)];
    const watchOptions = { maxBufferedBytes: options.watchBufferBytes, bookmarkIntervalMs: 30_000, minTimeoutSeconds: 1800, resourceVersionWaitMs: RESOURCE_VERSION_WAIT_MS, log: logger({ component: 'watch' }) };
    api = new ApiServer(complete({
      served: resources.map((resource) => ({ resource, hub: new WatchHub(resource, watchOptions) })),
      authSource,
      authenticator: new Authenticator({ config: () => authSource.current, tokens: new TokenReviewer(reviews, { renewals }) }),
      authorizer: new Authorizer(reviews, { renewals }),
      discovery: buildDiscoveryDocuments(resources.map((r) => r.names)),
      openapi: buildOpenAPIDocuments(resources),
      serving,
      ready: () => factory.hasSynced(),
      limits: {
        maxRequestsInflight: options.maxRequestsInflight, maxWatchersPerUser: options.maxWatchersPerUser, maxBodyBytes: options.maxBodyBytes,
        requestTimeoutMs: options.requestTimeoutMs, requestBodyTimeoutMs: options.requestBodyTimeoutMs,
        headerTimeoutMs: options.headerTimeoutMs, idleTimeoutMs: options.idleTimeoutMs,
      },
      log: logger({ component: 'apiserver' }),
    }));
    // A renewed certificate (by any replica, or a rotated file) is picked up by the server's own reload
    // of `serving` (src/api/auth/tls.ts), whichever mode provides it.
    const port = await api.listen(options.securePort, options.bindAddress);
    log.info('serving', { address: options.bindAddress, port, resources: resources.map((r) => r.names.resource) });
    stop.signal.addEventListener('abort', () => authSource.stop(), { once: true });
  }

  if (options.mode !== 'apiserver') {
    // With leader election, nothing is written outside a term of the Lease: the fence closes when the
    // lease is lost or its renew deadline passes (see src/controller/write-fence.ts).
    const fence = options.leaderElect ? new WriteFence() : undefined;
    const writer = new Writer(client, { fence });
    const events = new EventRecorder(client, 'paddock', options.identity, logger({ component: 'events' }), writer);
    const controller = new TenantController(cache, new TenantReconciler(cache, writer, events, logger({ component: 'reconciler' }), options.bindableClusterRoles), writer,
      { workers: options.workers, resyncPeriodMs: options.resyncPeriodMs }, logger({ component: 'controller' }));
    const quota = new TenantQuotaController(cache, writer, events, options.workers, logger({ component: 'tenant-quota' }));
    if (fence) {
      const elector = new LeaderElector({
        client: leaseClient,
        namespace: options.leaderElectionNamespace,
        name: PADDOCK.leaseName,
        identity: options.identity,
        leaseDurationMs: options.leaseDurationMs,
        renewDeadlineMs: options.renewDeadlineMs,
        retryPeriodMs: options.retryPeriodMs,
        fence,
        onStartedLeading: async (signal) => {
          await Promise.all([controller.run(signal), quota.run(signal)]);
        },
        onNewLeader: (leader) => log.info('leader', { leader }),
        logger: logger({ component: 'leader-election' }),
      });
      // One run() is one term, and it returns only once the term has drained: after losing the lease,
      // campaign again (the API keeps serving meanwhile) until shutdown.
      tasks.push((async () => {
        while (!stop.signal.aborted) await elector.run(stop.signal);
      })());
    } else {
      tasks.push(controller.run(stop.signal), quota.run(stop.signal));
    }
  }

  factory.start(stop.signal);
  const shutdown = async (signal: string) => {
    log.info('shutting down', { signal });
    stop.abort();
    const closing = Date.now();
    await api?.close();
    log.info('stopped serving', { ms: Date.now() - closing });
    await Promise.race([Promise.allSettled(tasks), new Promise((r) => setTimeout(r, 10_000).unref())]);
    client.close();
    apiClient.close();
    leaseClient.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}

function main(): void {
  let options: Options | undefined;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    if (err instanceof OptionsError) {
      process.stderr.write(`paddock: ${err.message}\n\n${usage()}`);
      process.exit(2);
    }
    throw err;
  }
  if (!options) {
    process.stdout.write(usage());
    return;
  }
  run(options).catch((err: unknown) => {
    logger({ component: 'paddock' }).error('fatal', { err });
    process.exit(1);
  });
}

main();
