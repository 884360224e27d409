import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry';

/** Request latency by verb, resource and code, as kube-apiserver's apiserver_request_duration_seconds. */
export const apiRequestDuration = new Histogram({
  name: 'paddock_apiserver_request_duration_seconds',
  help: 'Latency of API requests (watches: until the stream is set up), by verb, resource and HTTP code.',
  labelNames: ['verb', 'resource', 'code'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const apiInflight = new Gauge({
  name: 'paddock_apiserver_inflight_requests',
  help: 'Non-watch requests being served.',
  registers: [registry],
});

export const resourceVersionWaits = new Gauge({
  name: 'paddock_resource_version_waits',
  help: 'Requests (lists, gets, watches) waiting for a resourceVersion another replica issued that this one has not reached yet.',
  registers: [registry],
});

export const apiRejected = new Counter({
  name: 'paddock_apiserver_rejected_requests_total',
  help: 'Requests refused by a bound (inflight, watchers per user, body size) or before the caches synced (not-synced), by reason.',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const watchers = new Gauge({
  name: 'paddock_watchers',
  help: 'Open watches of every served resource, by transport.',
  labelNames: ['transport'] as const,
  registers: [registry],
});

export const watchEventsSent = new Counter({
  name: 'paddock_watch_events_sent_total',
  help: 'Watch events written to clients, by type.',
  labelNames: ['type'] as const,
  registers: [registry],
});

export const watchersClosed = new Counter({
  name: 'paddock_watchers_closed_total',
  help: 'Watches closed, by reason: done (timeout), client (went away), slow (could not keep up), failed (its catch-up could not be made), expired.',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const reviewRenewals = new Counter({
  name: 'paddock_review_renewals_total',
  help: 'Answers to SubjectAccessReviews and TokenReviews renewed in the background before they expired (a caller in steady use never waits for a review), by review and result (answered, failed).',
  labelNames: ['review', 'result'] as const,
  registers: [registry],
});
