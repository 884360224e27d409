import type { PaddockCache } from '../cache/paddock-cache';
import type { SharedInformer } from '../cache/informer';
import { PADDOCK, type KubeObject } from '../kube/types';
import type { Logger } from '../log/logger';
import { clusterRoleBindings, clusterRoles, mergeObject, needsUpdate } from '../tenancy';
import { CLASS_FIELDS } from '../tenancy/allowed';
import { jsonEqual } from '../tenancy/json';
import { tenantsDeclaring } from '../tenancy/names';
import { namespaceUpdateMatters } from '../tenancy/namespace';
import type { TenantReconciler } from './reconciler';
import { namesDue, resyncSlices } from './resync-slices';
import { WorkQueue } from './workqueue';
import { runWorkers } from './workqueue-workers';
import type { Writer } from './writer';

export interface ControllerOptions {
  workers: number;
  /** Every tenant is reconciled again this often, spread over the period, jittered by up to +10%. */
  resyncPeriodMs: number;
}

/**
 * Runs the Tenant reconciler: informer events become tenant keys on a workqueue (a namespace or a
 * guardrail event enqueues the tenant that owns it), N workers drain it, a jittered resync re-enqueues
 * every tenant once per period, a slice at a time, and the shipped ClusterRoles are ensured at start and on each resync (as is, when it
 * needs asking, which cluster roles Paddock may bind: bindable-roles.ts).
 */
export class TenantController {
  /** The queue of the current leadership term; a new term starts with a new queue. */
  queue = new WorkQueue<string>({ name: 'tenants' });

  constructor(
    readonly cache: PaddockCache,
    readonly reconciler: TenantReconciler,
    readonly writer: Writer,
    readonly options: ControllerOptions,
    readonly log: Logger,
  ) {}

  /**
   * Reconciles until `signal` aborts (leadership lost or shutdown); the caches must be running. Every write
   * of the term is issued within `signal`'s scope, so its abort cancels in-flight reconciles and none of
   * their writes is sent afterwards; resolves once every worker has finished.
   */
  async run(signal: AbortSignal): Promise<void> {
    return this.writer.within(signal, () => this.#run(signal));
  }

  async #run(signal: AbortSignal): Promise<void> {
    this.queue = new WorkQueue<string>({ name: 'tenants' });
    const registrations = this.#watchCache();
    try {
      await this.cache.factory.waitForCacheSync(signal);
      if (signal.aborted) return;
      await this.ensureClusterRoles().catch((err: unknown) => this.log.error('ensuring the shipped cluster roles failed', { err }));
      await this.reconciler.bindable.refresh();
      // The term may have ended during those awaits: an 'abort' listener added now would never fire, and
      // the workers would wait on a queue nobody shuts down (this replica would never campaign again).
      if (signal.aborted) return;
      this.#enqueueAll();
      const timer = this.#scheduleResync(signal);
      signal.addEventListener('abort', () => {
        clearTimeout(timer.current);
        this.queue.shutDown();
      }, { once: true });
      await runWorkers(this.queue, this.options.workers, (key) => this.reconciler.reconcile(key, signal), { name: 'tenants', logger: this.log });
    } finally {
      for (const r of registrations) r.remove();
    }
  }

  /**
   * Repairs the shipped ClusterRoles and the tenantnamespaces-user binding (installed with Paddock);
   * creates a missing one where Paddock's RBAC allows it.
   */
  async ensureClusterRoles(): Promise<void> {
    for (const want of [...clusterRoles(), ...clusterRoleBindings()] as KubeObject[]) {
      const live = await this.writer.get<KubeObject>(want);
      if (!live) await this.writer.createIfAbsent(want);
      else if (needsUpdate({ ...live, kind: want.kind }, want)) await this.writer.update(mergeObject(live, want));
    }
  }

  #enqueueAll(): void {
    for (const t of this.cache.tenants.store.list()) this.queue.add(t.metadata.name);
  }

  /**
   * Every tenant again once per period, spread over it (resync-slices.ts): each tick enqueues one slice of
   * the tenants; the cluster-wide checks run once per period, at its last tick (a period after the start).
   */
  #scheduleResync(signal: AbortSignal): { current?: NodeJS.Timeout } {
    const timer: { current?: NodeJS.Timeout } = {};
    const slices = resyncSlices(this.options.resyncPeriodMs);
    let tick = 0;
    const arm = () => {
      timer.current = setTimeout(() => {
        if (signal.aborted) return;
        for (const name of namesDue(this.cache.tenants.store.list().map((t) => t.metadata.name), tick, slices.count)) this.queue.add(name);
        if (tick % slices.count === slices.count - 1) {
          this.ensureClusterRoles().catch((err: unknown) => this.log.warn('ensuring cluster roles failed', { err }));
          // A cluster role refused for want of RBAC may have been granted since: if so, tenants are judged again.
          void this.reconciler.bindable.recheck().then((changed) => changed && !signal.aborted && this.#enqueueAll());
          this.#reconcileAdmission();
        }
        tick++;
        arm();
      }, slices.tickMs * (1 + Math.random() * 0.1));
      timer.current.unref();
    };
    arm();
    return timer;
  }

  /** Repairs the admission policies and bindings, or removes them once no Tenant is left. */
  #reconcileAdmission(): void {
    this.reconciler.admission.reconcile().catch((err: unknown) => this.log.warn('reconciling admission policies failed', { err }));
  }

  #watchCache() {
    const enqueue = (name: string | undefined) => {
      if (name) this.queue.add(name);
    };
    const byTenantLabel = (o: KubeObject) => {
      enqueue(o.metadata.labels?.[PADDOCK.tenantLabel]);
      enqueue(o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Tenant')?.name);
    };
    const byNamespace = (o: KubeObject) => {
      byTenantLabel(o);
      // A namespace someone else holds may be one a tenant declared (NamespaceConflict until it goes away).
      for (const t of tenantsDeclaring(o.metadata.name, (n) => this.cache.tenants.store.get(n))) enqueue(t.metadata.name);
    };
    const enqueueNodeSelecting = () => {
      this.reconciler.nodeMatches.clear();
      for (const t of this.cache.tenants.store.list()) if (t.spec?.nodeSelector && Object.keys(t.spec.nodeSelector).length > 0) enqueue(t.metadata.name);
    };
    const handlersFor = (informer: SharedInformer<KubeObject>, each: (o: KubeObject) => void) =>
      informer.addEventHandler({ add: each, update: (a, b) => (each(a), each(b)), delete: each });
    return [
      this.cache.tenants.addEventHandler({
        add: (t) => enqueue(t.metadata.name),
        update: (_a, t) => enqueue(t.metadata.name),
        delete: (t) => {
          enqueue(t.metadata.name);
          this.#reconcileAdmission();
        },
      }),
      // A namespace update that changed only labels others own changes nothing a reconcile reads or writes
      // (namespaceUpdateMatters): such updates, common on a busy cluster, queue nothing.
      this.cache.namespaces.addEventHandler({
        add: byNamespace,
        update: (a, b) => {
          if (namespaceUpdateMatters(a, b)) (byNamespace(a), byNamespace(b));
        },
        delete: byNamespace,
      }),
      // A guardrail of any kind (its TenantRestrictions too) changed by someone else is repaired.
      ...this.cache.guardrails.map((i) => handlersFor(i, byTenantLabel)),
      // What a tenant may use: a class that appears, goes or is relabelled changes status.allowed of
      // every tenant restricting its kind; a policy or binding changed by someone else is repaired.
      ...CLASS_FIELDS.map((field) => handlersFor(this.cache.classes(field), () => {
        for (const t of this.cache.tenants.store.list()) if (t.spec?.[field] !== undefined) enqueue(t.metadata.name);
      })),
      // What a tenant names (ResolvedRefs): a node that appears, goes or is relabelled may match a
      // tenant's nodeSelector or stop matching it; other node updates (status) change nothing there.
      this.cache.nodes.addEventHandler({
        add: enqueueNodeSelecting,
        update: (a, b) => {
          if (!jsonEqual(a.metadata.labels ?? {}, b.metadata.labels ?? {})) enqueueNodeSelecting();
        },
        delete: enqueueNodeSelecting,
      }),
      ...this.cache.admissionInformers.map((i) => handlersFor(i, () => this.#reconcileAdmission())),
      // The hostname ledger changed (a tenant released patterns, or someone else wrote it): every tenant
      // that holds or wants hostnames decides again (a refused one may hold them now).
      handlersFor(this.cache.hostnameLedger, () => {
        for (const t of this.cache.tenants.store.list()) if (t.spec?.hostnames !== undefined) enqueue(t.metadata.name);
      }),
    ];
  }
}
