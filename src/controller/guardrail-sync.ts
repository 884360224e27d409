import type { PaddockCache } from '../cache/paddock-cache';
import { PADDOCK, type KubeObject } from '../kube/types';
import { GUARDRAILS, mergeObject, needsUpdate, objectRef, requiresRecreate, staleObjects, type Guardrail, type GuardrailKind } from '../tenancy';
import type { EventBatch } from './events';
import type { Writer } from './writer';

/** Where a pass notes what it did, for the tenant's Events. */
export type Notes = Pick<EventBatch, 'add'>;

/**
 * Keeps the guardrails of tenant namespaces as the tenant wants them, for every kind of the registry
 * (tenancy/guardrails): creates what is missing, repairs what drifted, deletes what is no longer
 * wanted. It reads the cache, which keeps summaries (cache/summaries.ts): a drift seen there is
 * confirmed on the object read live, and the update is merged into that one, so that what the cache
 * does not keep (annotations, finalizers) is never lost.
 */
export class GuardrailSync {
  constructor(
    readonly cache: PaddockCache,
    readonly writer: Writer,
  ) {}

  /** Creates `want`, or repairs the object of its name into it. */
  async ensure(want: Guardrail, notes: Notes): Promise<void> {
    const live = this.cache.guardrail(want.kind!).store.get(`${want.metadata.namespace}/${want.metadata.name}`);
    if (!live) {
      const created = await this.writer.createIfAbsent(want);
      if (created) return notes.add('Normal', 'Created', `created ${objectRef(want)}`);
      // It exists without Paddock's label (someone removed it): take it back.
      const current = await this.writer.get<KubeObject>(want);
      if (current) await this.#repair({ ...current, kind: want.kind, apiVersion: want.apiVersion }, want, notes, true);
      return;
    }
    await this.#repair(live, want, notes);
  }

  /** Repairs `live` (cached, or `read` live) into `want`. */
  async #repair(live: KubeObject, want: Guardrail, notes: Notes, read = false): Promise<void> {
    if (!requiresRecreate(live, want) && !needsUpdate(live, want)) return;
    if (!read) {
      const current = await this.writer.get<KubeObject>(want);
      if (!current) return; // gone meanwhile: its delete event brings the tenant back
      return this.#repair({ ...current, kind: want.kind, apiVersion: want.apiVersion }, want, notes, true);
    }
    if (requiresRecreate(live, want)) {
      await this.writer.delete(live);
      await this.writer.create(want);
    } else {
      await this.writer.update(mergeObject(live, want));
    }
    notes.add('Normal', 'Repaired', `repaired ${objectRef(want)}`);
  }

  /**
   * Deletes the guardrails of `tenant` in `namespaces` that are not among `wanted` (a quota removed from
   * the spec, a role nobody holds any more, isolation turned off).
   */
  async prune(tenant: string, namespaces: readonly string[], wanted: readonly KubeObject[]): Promise<void> {
    for (const namespace of namespaces) {
      for (const { resource: { kind } } of GUARDRAILS) {
        // Cached guardrails are records (cache/records.ts) that carry their kind: passed as they are.
        const live: KubeObject[] = this.cache.guardrail(kind).store.byIndex('namespace', namespace);
        for (const stale of staleObjects(kind, live, wanted, tenant)) await this.writer.delete(stale);
      }
    }
  }

  /**
   * Deletes the guardrails of `tenant` in `namespace` (it is being released) of the kinds `which` holds
   * (see release.ts for the order).
   */
  async remove(tenant: string, namespace: string, which: (kind: GuardrailKind) => boolean): Promise<void> {
    for (const kind of GUARDRAILS) {
      if (!which(kind)) continue;
      for (const obj of this.cache.guardrail(kind.resource.kind).store.byIndex('namespace', namespace)) {
        if (obj.metadata.labels?.[PADDOCK.tenantLabel] === tenant) await this.writer.delete(obj);
      }
    }
  }
}
