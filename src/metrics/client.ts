import { Histogram } from 'prom-client';
import { registry } from './registry';

/** Seconds a request waited for the client-side token bucket before it was sent. */
export const clientRateLimiterWait = new Histogram({
  name: 'paddock_client_rate_limiter_wait_seconds',
  help: 'Time requests to kube-apiserver waited for the client-side rate limiter.',
  labelNames: ['verb'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Latency of requests to kube-apiserver, by verb and HTTP status code (`error` when no response). */
export const clientRequestDuration = new Histogram({
  name: 'paddock_client_request_duration_seconds',
  help: 'Latency of requests to kube-apiserver (watch: time to response headers).',
  labelNames: ['verb', 'code'] as const,
  buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});
