import { jsonLogger, type Logger } from '../kube/log';
import { reconcileDuration, reconcileTotal } from '../metrics/workqueue';
import { EventLoopSlice } from './event-loop-slice';
import type { WorkQueue } from './workqueue';

/**
 * How long the workers may run in one turn of the event loop before they let it turn (see
 * EventLoopSlice): with one reconcile, the most a backlog of reconciles adds to a watch event's or a
 * request's wait.
 */
const SLICE_MS = 5;

/** What a reconcile asks for when it succeeds: `requeueAfter` re-checks the key later (ms). */
export interface ReconcileResult {
  requeueAfter?: number;
}

/** Level-based reconcile of one key. Throwing means "retry with backoff", unless it is a TerminalError. */
export type Reconcile<K> = (key: K) => Promise<ReconcileResult | void>;

/** An error retrying cannot fix (e.g. an invalid spec): logged and counted, the key is not requeued. */
export class TerminalError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TerminalError';
  }
}

export interface RunWorkersOptions {
  /** `controller` label of the reconcile metrics; defaults to the queue name. */
  name?: string;
  logger?: Logger;
}

/**
 * Runs `n` workers that take keys from `queue` and reconcile them, controller-runtime style: success →
 * `forget` (and `addAfter` when requeueAfter is set); error → `addRateLimited`; TerminalError → `forget`.
 * The queue guarantees one key is never reconciled twice at once. The workers share time slices of the
 * event loop (one reconcile at a time within a turn), so reconciles that need no I/O never hold it for
 * more than a slice and one reconcile. Resolves once the queue is shut down and every worker has
 * finished its current key.
 */
export async function runWorkers<K>(queue: WorkQueue<K>, n: number, reconcile: Reconcile<K>, opts: RunWorkersOptions = {}): Promise<void> {
  const controller = opts.name ?? queue.name;
  const log = opts.logger ?? jsonLogger('controller');
  const slice = new EventLoopSlice(SLICE_MS);
  const worker = async (): Promise<void> => {
    for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
      await slice.run(() => reconcileOnce(key));
    }
  };
  /** One reconcile of `key`, its bookkeeping in the queue and its metrics. */
  const reconcileOnce = async (key: K): Promise<void> => {
    const started = performance.now();
    let result: string;
    try {
      const res = await reconcile(key);
      queue.forget(key);
      if (res?.requeueAfter !== undefined && res.requeueAfter >= 0) {
        queue.addAfter(key, res.requeueAfter);
        result = 'requeue_after';
      } else {
        result = 'success';
      }
    } catch (err) {
      if (err instanceof TerminalError) {
        queue.forget(key);
        result = 'terminal_error';
        log.error('reconcile failed terminally; not retrying', { controller, key: String(key), err });
      } else {
        queue.addRateLimited(key);
        result = 'error';
        log.warn('reconcile failed; will retry', { controller, key: String(key), requeues: queue.numRequeues(key), err });
      }
    } finally {
      queue.done(key);
    }
    reconcileTotal.inc({ controller, result });
    reconcileDuration.observe({ controller }, (performance.now() - started) / 1000);
  };
  await Promise.all(Array.from({ length: Math.max(1, n) }, worker));
}
