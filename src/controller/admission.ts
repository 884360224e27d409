import type { PaddockCache } from '../cache/paddock-cache';
import { type ClassField, type KubeObject, type Tenant, type TenantStatus } from '../kube/types';
import { mergeObject, needsUpdate } from '../tenancy';
import { admissionObjects, type AdmissionObject } from '../tenancy/admission-policies';
import { CLASS_FIELDS, allowedClassNames } from '../tenancy/allowed';
import type { Writer } from './writer';

/**
 * Keeps kube-apiserver's enforcement of what tenants may use in place (SPEC §9, §10): the admission
 * policies and their bindings (tenancy/admission-policies.ts) — a constant set of cluster-scoped objects
 * — while any Tenant exists, and none once none does. What each tenant restricts is not here: it is
 * the TenantRestriction in each of its namespaces, a guardrail like the others. Reads only the cache;
 * writes only what differs, so a converged cluster costs no write.
 */
export class TenantAdmission {
  /** Passes run one at a time: two workers must not race to create or repair the same object. */
  #passes: Promise<void> = Promise.resolve();
  /** The objects as Paddock writes them, policies first, the same in every pass. */
  readonly #objects = admissionObjects();
  /** Cached objects found as wanted: a cached object never changes, so each is compared once. */
  readonly #inSync = new WeakSet<KubeObject>();

  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
  ) {}

  /** The class names `tenant` may use, per kind it restricts (an unrestricted kind is left out). */
  allowed(tenant: Tenant): TenantStatus['allowed'] {
    const out: Partial<Record<ClassField, string[]>> = {};
    for (const field of CLASS_FIELDS) {
      if (tenant.spec?.[field] !== undefined) out[field] = allowedClassNames(tenant, field, this.cache.classes(field).store.list());
    }
    return out;
  }

  /**
   * Ensures every object exists as wanted while any Tenant exists (one being deleted counts until it is
   * gone: its namespaces are released first), policies before the bindings that name them — kube-apiserver
   * reads a binding's policy to check its paramRef; once no Tenant is left, deletes them, bindings first.
   */
  reconcile(): Promise<void> {
    const run = this.#passes.then(() => this.#reconcile());
    this.#passes = run.catch(() => undefined);
    return run;
  }

  async #reconcile(): Promise<void> {
    // Until the Tenants are listed an empty store says nothing: deleting then would lift every fence
    // (events of the admission informers, which list first, would otherwise run this pass at start).
    if (!this.cache.tenants.hasSynced()) return;
    if (this.cache.tenants.store.size > 0) {
      for (const want of this.#objects) await this.#ensure(want);
      return;
    }
    for (const want of [...this.#objects].reverse()) {
      for (const live of this.#informer(want).store.list()) {
        // A Tenant created meanwhile needs them all: stop, and let its event's pass put back what went.
        if (this.cache.tenants.store.size > 0) return;
        await this.writer.delete({ ...live, kind: want.kind });
      }
    }
  }

  #informer(want: AdmissionObject) {
    return this.cache.admissionObject(want.kind!, want.metadata.name);
  }

  /** Creates or repairs `want`; a cached object found as wanted is not compared again. */
  async #ensure(want: AdmissionObject): Promise<void> {
    const informer = this.#informer(want);
    const live = informer.store.get(want.metadata.name);
    if (live && this.#inSync.has(live)) return;
    if (!live) {
      if (await this.writer.createIfAbsent(want)) return;
      // It exists but the cache does not show it: not labelled as Paddock's any more, or not seen yet.
      const current = await this.writer.get<KubeObject>(want);
      if (current && needsUpdate({ ...current, kind: want.kind }, want)) await this.writer.update(mergeObject(current, want as KubeObject));
      return;
    }
    if (needsUpdate({ ...live, kind: want.kind }, want)) {
      await this.writer.update(mergeObject({ ...live, kind: want.kind }, want as KubeObject));
      return; // a repaired one comes back as a new object, compared again
    }
    this.#inSync.add(live);
  }
}
