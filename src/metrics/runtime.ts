import { collectDefaultMetrics } from 'prom-client';
import { registry } from './registry';

/**
 * The process and runtime metrics every Prometheus-instrumented Node.js server exports, under their
 * standard names (no prefix, so stock dashboards and rules apply): `process_cpu_seconds_total`,
 * `process_resident_memory_bytes`, `process_start_time_seconds`, `process_open_fds`,
 * `nodejs_heap_size_used_bytes`, `nodejs_eventloop_lag_p99_seconds`, `nodejs_gc_duration_seconds{kind}`, ….
 * Called once, by the server's entry point: the collectors observe the event loop and the GC of the
 * process for as long as it runs.
 */
export function collectRuntimeMetrics(): void {
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}
