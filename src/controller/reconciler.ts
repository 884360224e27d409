import type { PaddockCache } from '../cache/paddock-cache';
import { PADDOCK, type KubeObject, type Namespace, type Tenant, type TenantStatus } from '../kube/types';
import type { Logger } from '../log/logger';
import {
  desiredState, diffNamespace, isForeignNamespace, mergeNamespace, mergeObject, needsUpdate, objectRef, releaseNamespace,
  requiresRecreate, staleObjects, statusEqual, tenantStatus, type DesiredState, type Guardrail, type ObservedState,
} from '../tenancy';
import { EventBatch, type EventRecorder } from './events';
import type { ReconcileResult } from './workqueue-workers';
import type { Writer } from './writer';

/** Annotation on a namespace created through the TenantNamespace API (SPEC §5). */
export const SELF_SERVICE_ANNOTATION = 'paddock.dev/self-service';

const GUARDRAIL_KINDS = ['ResourceQuota', 'LimitRange', 'NetworkPolicy', 'RoleBinding'] as const;

/**
 * Level-based reconcile of one Tenant, keyed by name: read the cache, compute the desired state, write
 * only what differs, report status. It never reads the API except after a write found the cache behind.
 *
 * Invariants:
 * - a namespace that is not this tenant's (no tenant label, or another tenant's) is never written;
 * - in a converged cluster a pass issues no write at all (status is written only when it changes);
 * - a Namespace never gets an ownerReference to its Tenant (re-creating the CRD must not cascade).
 */
export class TenantReconciler {
  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
    readonly events: EventRecorder,
    readonly log: Logger,
  ) {}

  /** The last status written per tenant and the resourceVersion it was written from. */
  readonly #statusWritten = new Map<string, { from: string | undefined; status: TenantStatus }>();

  /** Events of the pass in progress, per tenant (the workqueue never runs one tenant twice at once). */
  readonly #batches = new Map<string, EventBatch>();

  /** Reconciles one tenant; `signal` cancels the pass: once it aborts, none of its writes is sent. */
  async reconcile(name: string, signal?: AbortSignal): Promise<ReconcileResult | void> {
    if (signal) return this.writer.within(signal, () => this.reconcile(name));
    const tenant = this.cache.tenants.store.get(name);
    if (!tenant) {
      this.#statusWritten.delete(name);
      return;
    }
    const batch = new EventBatch();
    this.#batches.set(name, batch);
    try {
      return await this.#reconcile(tenant);
    } catch (err) {
      batch.add('Warning', 'ReconcileFailed', err instanceof Error ? err.message : String(err));
      throw err;
    } finally {
      this.#batches.delete(name);
      batch.flush(this.events, tenant);
    }
  }

  #event(tenant: Tenant, type: 'Normal' | 'Warning', reason: string, message: string): void {
    this.#batches.get(tenant.metadata.name)?.add(type, reason, message);
  }

  async #reconcile(tenant: Tenant): Promise<ReconcileResult | void> {
    const name = tenant.metadata.name;
    if (tenant.metadata.deletionTimestamp) return this.#finalize(tenant);
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) {
      await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers: [...(tenant.metadata.finalizers ?? []), PADDOCK.finalizer] } });
      return; // the update's watch event brings the tenant back with the finalizer
    }

    const owned = this.cache.namespacesOf(name);
    const selfService = owned.filter((ns) => ns.metadata.annotations?.[SELF_SERVICE_ANNOTATION] === 'true').map((ns) => ns.metadata.name);
    const desired = desiredState(tenant, selfService);
    const observed: ObservedState = { namespaces: [], conflicts: [], missing: [], drifted: [] };
    const mutable = observed as { namespaces: string[]; conflicts: string[]; missing: string[]; drifted: string[] };

    if (desired.valid) {
      for (const want of desired.namespaces) {
        const ok = await this.#ensureNamespace(tenant, want.namespace, mutable);
        if (ok) for (const g of want.guardrails) await this.#ensureGuardrail(tenant, g);
      }
      await this.#pruneGuardrails(tenant, desired);
      await this.#releaseUndeclared(tenant, desired, owned);
      mutable.namespaces.sort();
    } else {
      mutable.namespaces.push(...owned.map((n) => n.metadata.name).sort());
    }
    await this.#writeStatus(tenant, desired, observed);
  }

  /** Creates or repairs one namespace; false when it is not (yet) this tenant's to furnish. */
  async #ensureNamespace(tenant: Tenant, want: Namespace, observed: { namespaces: string[]; conflicts: string[]; missing: string[] }): Promise<boolean> {
    const name = want.metadata.name;
    const live = this.cache.namespaces.store.get(name);
    if (!live) {
      const created = await this.writer.createIfAbsent(want);
      if (!created) {
        observed.missing.push(objectRef(want)); // exists but not in the cache yet: the next event brings it
        return false;
      }
      this.#event(tenant, 'Normal', 'NamespaceCreated', `created namespace ${name}`);
      observed.namespaces.push(name);
      return true;
    }
    if (this.#isForeign(tenant, live)) {
      observed.conflicts.push(name);
      return false;
    }
    observed.namespaces.push(name);
    if (live.status?.phase === 'Terminating') return false;
    const drift = diffNamespace(live, want);
    if (drift.length) {
      await this.writer.update(mergeNamespace(live, want));
      this.#event(tenant, 'Normal', 'Repaired', `repaired namespace ${name}: ${drift.map((d) => d.path).join(', ')}`);
    }
    return true;
  }

  async #ensureGuardrail(tenant: Tenant, want: Guardrail): Promise<void> {
    const informer = this.#informerOf(want.kind!);
    const live = informer.store.get(`${want.metadata.namespace}/${want.metadata.name}`);
    if (!live) {
      const created = await this.writer.createIfAbsent(want);
      if (created) return this.#event(tenant, 'Normal', 'Created', `created ${objectRef(want)}`);
      // It exists without Paddock's label (someone removed it): take it back.
      const current = await this.writer.get<KubeObject>(want);
      if (current) await this.#repair(tenant, { ...current, kind: want.kind, apiVersion: want.apiVersion }, want);
      return;
    }
    await this.#repair(tenant, live, want);
  }

  async #repair(tenant: Tenant, live: KubeObject, want: Guardrail): Promise<void> {
    if (requiresRecreate(live as Guardrail, want)) {
      await this.writer.delete(live);
      await this.writer.create(want);
    } else if (needsUpdate(live as Guardrail, want)) {
      await this.writer.update(mergeObject(live, want as KubeObject));
    } else {
      return;
    }
    this.#event(tenant, 'Normal', 'Repaired', `repaired ${objectRef(want)}`);
  }

  /** Deletes guardrails this tenant no longer wants (a quota removed from the spec, a role nobody holds). */
  async #pruneGuardrails(tenant: Tenant, desired: DesiredState & { valid: true }): Promise<void> {
    const wanted = desired.namespaces.flatMap((n) => n.guardrails as KubeObject[]);
    for (const ns of desired.namespaces) {
      for (const kind of GUARDRAIL_KINDS) {
        const live = this.#informerOf(kind).store.byIndex('namespace', ns.name).map((o) => ({ ...o, kind }));
        for (const stale of staleObjects(kind, live, wanted, tenant.metadata.name)) await this.writer.delete(stale);
      }
    }
  }

  /**
   * Applies the deletion policy to namespaces of this tenant that are neither declared nor self-service
   * any more (a name removed from spec.namespaces). Namespaces over namespaceQuota are kept: lowering a
   * quota never deletes a namespace.
   */
  async #releaseUndeclared(tenant: Tenant, desired: DesiredState & { valid: true }, owned: Namespace[]): Promise<void> {
    const keep = new Set([...desired.namespaces.map((n) => n.name), ...desired.overQuota]);
    for (const ns of owned) {
      if (keep.has(ns.metadata.name) || ns.status?.phase === 'Terminating') continue;
      await this.#retire(tenant, ns);
    }
  }

  /** Retain: strip guardrails and tenant labels, keep the namespace. Delete: delete the namespace. */
  async #retire(tenant: Tenant, ns: Namespace): Promise<void> {
    if ((tenant.spec.deletionPolicy ?? 'Retain') === 'Delete') {
      await this.writer.delete({ ...ns, kind: 'Namespace' });
      this.#event(tenant, 'Normal', 'NamespaceDeleted', `deleted namespace ${ns.metadata.name} (deletionPolicy Delete)`);
      return;
    }
    for (const kind of GUARDRAIL_KINDS) {
      for (const obj of this.#informerOf(kind).store.byIndex('namespace', ns.metadata.name)) {
        if (obj.metadata.labels?.[PADDOCK.tenantLabel] === tenant.metadata.name) await this.writer.delete({ ...obj, kind });
      }
    }
    await this.writer.update({ ...releaseNamespace(ns), kind: 'Namespace', apiVersion: 'v1' });
    this.#event(tenant, 'Normal', 'NamespaceReleased', `released namespace ${ns.metadata.name} (deletionPolicy Retain)`);
  }

  async #finalize(tenant: Tenant): Promise<void> {
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) return;
    for (const ns of this.cache.namespacesOf(tenant.metadata.name)) {
      if (ns.status?.phase !== 'Terminating') await this.#retire(tenant, ns);
    }
    // A 409 here (the tenant changed meanwhile) is retried with backoff from the newer cached tenant.
    const finalizers = (tenant.metadata.finalizers ?? []).filter((f) => f !== PADDOCK.finalizer);
    await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers } });
  }

  async #writeStatus(tenant: Tenant, desired: DesiredState, observed: ObservedState): Promise<void> {
    const status = tenantStatus(tenant, desired, observed, new Date());
    if (statusEqual(tenant.status, status)) return;
    // Another event can bring this tenant back before the cache has our last status write: writing the
    // same status again from the stale copy would only earn a 409. Skip until the cache moves on.
    const last = this.#statusWritten.get(tenant.metadata.name);
    if (last && last.from === tenant.metadata.resourceVersion && statusEqual(last.status, status)) return;
    this.#statusWritten.delete(tenant.metadata.name);
    const before = tenant.status?.conditions?.find((c) => c.type === 'Ready');
    const after = status.conditions?.find((c) => c.type === 'Ready');
    await this.writer.updateStatus({ ...tenant, status });
    this.#statusWritten.set(tenant.metadata.name, { from: tenant.metadata.resourceVersion, status });
    if (after && after.status !== 'True' && (before?.reason !== after.reason || before?.status !== after.status)) {
      this.#event(tenant, 'Warning', after.reason ?? 'NotReady', after.message ?? '');
    }
    this.log.debug('status written', { tenant: tenant.metadata.name, phase: status.phase, reason: after?.reason });
  }

  /**
   * A namespace is this tenant's when it carries the tenant's label, or carries no tenant label at all
   * but was provisioned by this tenant before (it is in status.namespaces): someone removed the label,
   * which is drift to repair. Any other namespace is never adopted.
   */
  #isForeign(tenant: Tenant, ns: Namespace): boolean {
    if (!isForeignNamespace(ns, tenant.metadata.name)) return false;
    const label = ns.metadata.labels?.[PADDOCK.tenantLabel];
    return label !== undefined || !(tenant.status?.namespaces ?? []).includes(ns.metadata.name);
  }

  #informerOf(kind: string) {
    switch (kind) {
      case 'ResourceQuota': return this.cache.resourceQuotas;
      case 'LimitRange': return this.cache.limitRanges;
      case 'NetworkPolicy': return this.cache.networkPolicies;
      case 'RoleBinding': return this.cache.roleBindings;
      default: throw new Error(`not a guardrail kind: ${kind}`);
    }
  }
}
