import { Counter, Gauge, Histogram } from 'prom-client';
import { registry } from './registry';

const durationBuckets = [0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 60];

/** Workqueue metrics, labelled by queue name (client-go's workqueue metric set). */
export const workqueueDepth = new Gauge({
  name: 'paddock_workqueue_depth',
  help: 'Keys waiting in a workqueue (not counting delayed keys or keys being processed).',
  labelNames: ['name'] as const,
  registers: [registry],
});

export const workqueueAdds = new Counter({
  name: 'paddock_workqueue_adds_total',
  help: 'Keys added to a workqueue.',
  labelNames: ['name'] as const,
  registers: [registry],
});

export const workqueueLatency = new Histogram({
  name: 'paddock_workqueue_queue_duration_seconds',
  help: 'Seconds a key waited in a workqueue before a worker took it.',
  labelNames: ['name'] as const,
  buckets: durationBuckets,
  registers: [registry],
});

export const workqueueWorkDuration = new Histogram({
  name: 'paddock_workqueue_work_duration_seconds',
  help: 'Seconds a worker held a key (get → done).',
  labelNames: ['name'] as const,
  buckets: durationBuckets,
  registers: [registry],
});

export const workqueueRetries = new Counter({
  name: 'paddock_workqueue_retries_total',
  help: 'Rate-limited re-adds of keys to a workqueue.',
  labelNames: ['name'] as const,
  registers: [registry],
});

export const reconcileTotal = new Counter({
  name: 'paddock_reconcile_total',
  help: 'Reconciles run by workers, by result (success, requeue_after, error, terminal_error).',
  labelNames: ['controller', 'result'] as const,
  registers: [registry],
});

export const reconcileDuration = new Histogram({
  name: 'paddock_reconcile_duration_seconds',
  help: 'Seconds one reconcile took.',
  labelNames: ['controller'] as const,
  buckets: durationBuckets,
  registers: [registry],
});
