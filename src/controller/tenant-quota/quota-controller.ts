/**
 * Runs the tenant-wide quota (SPEC §11) beside the Tenant reconciler, in the same leadership term: a
 * Tenant event, or an event of a share (its use moved) or of a tenant namespace, queues the tenant; N
 * workers rebalance (rebalance.ts). A pass that lost a race is retried with backoff. Nothing here is
 * needed for the guarantee — kube-apiserver enforces the shares while Paddock is down — only for
 * moving headroom.
 */
import type { PaddockCache } from '../../cache/paddock-cache';
import type { SharedInformer } from '../../cache/informer';
import { PADDOCK, type KubeObject } from '../../kube/types';
import type { Logger } from '../../log/logger';
import { isShare } from '../../tenancy/quota/share';
import type { EventRecorder } from '../events';
import { WorkQueue } from '../workqueue';
import { runWorkers } from '../workqueue-workers';
import type { Writer } from '../writer';
import { AdmissionActivity } from './admission-activity';
import { QuotaRebalancer } from './rebalance';

export class TenantQuotaController {
  readonly rebalancer: QuotaRebalancer;
  /** When each share last counted an admission (fed by the share events below; read by the rebalancer). */
  readonly activity = new AdmissionActivity();
  queue = new WorkQueue<string>({ name: 'tenant-quota' });

  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
    events: EventRecorder,
    readonly workers: number,
    readonly log: Logger,
  ) {
    this.rebalancer = new QuotaRebalancer(cache, writer, events, this.activity);
    // For the life of the process, not of a leadership term: a replica that takes over already knows
    // which shares counted an admission in the last second (the cache runs on every replica).
    cache.resourceQuotas.addEventHandler({
      update: (before, after) => isShare(after) && this.activity.observe(before, after),
      delete: (q) => isShare(q) && this.activity.forget(q.metadata.namespace!),
    });
  }

  /** Rebalances until `signal` aborts; no write of the term is sent after it. */
  async run(signal: AbortSignal): Promise<void> {
    return this.writer.within(signal, () => this.#run(signal));
  }

  async #run(signal: AbortSignal): Promise<void> {
    this.queue = new WorkQueue<string>({ name: 'tenant-quota' });
    const registrations = this.#watchCache();
    try {
      await this.cache.factory.waitForCacheSync(signal);
      if (signal.aborted) return;
      for (const t of this.cache.tenants.store.list()) if (t.spec?.quota || t.status?.quota) this.queue.add(t.metadata.name);
      signal.addEventListener('abort', () => this.queue.shutDown(), { once: true });
      await runWorkers(this.queue, this.workers, async (key) => {
        const result = await this.rebalancer.reconcile(key);
        if (result.retry) throw new Error(`tenant ${key}: a share or ledger write lost a race; retrying`);
        return result.deferMs > 0 ? { requeueAfter: result.deferMs } : undefined;
      }, { name: 'tenant-quota', logger: this.log });
    } finally {
      for (const r of registrations) r.remove();
    }
  }

  #watchCache() {
    // Tenants with a budget, or that had one (their status.quota is cleared).
    const enqueue = (name: string | undefined) => {
      const t = name === undefined ? undefined : this.cache.tenants.store.get(name);
      if (t && (t.spec?.quota || t.status?.quota)) this.queue.add(t.metadata.name);
    };
    const byLabel = (o: KubeObject) => enqueue(o.metadata.labels?.[PADDOCK.tenantLabel]);
    const handlers = (informer: SharedInformer<KubeObject>, each: (o: KubeObject) => void) =>
      informer.addEventHandler({ add: each, update: (a, b) => (each(a), each(b)), delete: each });
    return [
      this.cache.tenants.addEventHandler({ add: (t) => enqueue(t.metadata.name), update: (_a, t) => enqueue(t.metadata.name), delete: () => undefined }),
      handlers(this.cache.namespaces as unknown as SharedInformer<KubeObject>, byLabel),
      handlers(this.cache.resourceQuotas as unknown as SharedInformer<KubeObject>, (o) => isShare(o) && byLabel(o)),
    ];
  }
}
