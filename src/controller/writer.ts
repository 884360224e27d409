import { AsyncLocalStorage } from 'node:async_hooks';
import type { KubeClient, RequestOptions } from '../kube/client';
import { isAlreadyExists, isConflict, isNotFound } from '../kube/errors';
import { RESOURCES, resourcePath, type ResourceRef } from '../kube/resources';
import type { KubeObject } from '../kube/types';
import { ADMISSION_OBJECTS } from '../tenancy/admission-policies';
import { GUARDRAILS } from '../tenancy/guardrails/registry';
import { jsonEqual } from '../tenancy/json';
import type { WriteFence } from './write-fence';

/** The kinds the reconciler writes, by `kind`: every guardrail kind, and what it keeps besides. */
export const REF_BY_KIND: Readonly<Record<string, ResourceRef>> = Object.fromEntries(
  [
    RESOURCES.namespaces, RESOURCES.tenants, RESOURCES.clusterRoles, RESOURCES.clusterRoleBindings,
    ...ADMISSION_OBJECTS.map((o) => o.resource), ...GUARDRAILS.map((g) => g.resource),
  ].map((ref) => [ref.kind, ref]),
);

function refOf(obj: KubeObject): ResourceRef {
  const ref = obj.kind ? REF_BY_KIND[obj.kind] : undefined;
  if (!ref) throw new Error(`no resource known for kind ${obj.kind}`);
  return ref;
}

const pathOf = (obj: KubeObject, subresource?: string) =>
  resourcePath(refOf(obj), { namespace: obj.metadata.namespace, name: obj.metadata.name, subresource });

export interface WriterOptions {
  /** Writes are sent only while this fence is open (leader election); none: always open. */
  fence?: WriteFence;
}

/**
 * The reconciler's writes, each one request. Updates carry the resourceVersion of the object they were
 * computed from, so a concurrent change makes them fail with 409 Conflict (retried with backoff) instead
 * of overwriting it. Every write is counted in `writes` (tests and the bench read it).
 *
 * Two things can stop a write, both checked by the client right before the request leaves (after the
 * rate limiter): the fence (is this process still leading, within its renew deadline?) and the signal of
 * the scope the write was issued in (`within`: a reconcile, a leadership term), whose abort also rejects
 * a write still waiting for a token. The scope travels with the async context, so the reconciler's code
 * issues writes as before and each of them is cancelled with its pass.
 */
export class Writer {
  writes = 0;
  readonly #fence: WriteFence | undefined;
  readonly #scope = new AsyncLocalStorage<AbortSignal>();

  constructor(readonly client: KubeClient, options: WriterOptions = {}) {
    this.#fence = options.fence;
  }

  /** Runs `fn` so that every write it issues, now or in callbacks it schedules, is cancelled by `signal`. */
  within<T>(signal: AbortSignal | undefined, fn: () => T): T {
    if (!signal) return fn();
    const outer = this.#scope.getStore();
    return this.#scope.run(outer ? AbortSignal.any([outer, signal]) : signal, fn);
  }

  /** Throws unless a write may be sent now: the scope has not been cancelled and the fence is open. */
  assertMayWrite(): void {
    this.#scope.getStore()?.throwIfAborted();
    this.#fence?.check();
  }

  /** Options for a write request issued now: cancelled with the scope, fenced right before it is sent. */
  writeOptions(): RequestOptions {
    const signal = this.#scope.getStore();
    const fence = this.#fence;
    return {
      signal,
      beforeSend: () => {
        signal?.throwIfAborted();
        fence?.check();
      },
    };
  }

  async create<T extends KubeObject>(obj: T): Promise<T> {
    const opts = this.writeOptions();
    this.writes++;
    return this.client.create<T>(resourcePath(refOf(obj), { namespace: obj.metadata.namespace }), obj, opts);
  }

  async update<T extends KubeObject>(obj: T): Promise<T> {
    const opts = this.writeOptions();
    this.writes++;
    return this.client.update<T>(pathOf(obj), obj, opts);
  }

  async updateStatus<T extends KubeObject>(obj: T): Promise<T> {
    const opts = this.writeOptions();
    this.writes++;
    return this.client.update<T>(pathOf(obj, 'status'), obj, opts);
  }

  /**
   * Deletes `obj` if it is still the object Paddock decided about — the one with its uid; absent is fine.
   * A cached summary that keeps no uid (a guardrail) is deleted on its resourceVersion instead, and when
   * that has moved on (a quota's `status.used`, another writer's annotation) the object is read live: if
   * its labels — what the decision to delete rests on — are still those Paddock saw, that object is
   * deleted on its uid; otherwise the conflict is the caller's, to decide again from a newer cache.
   */
  async delete(obj: KubeObject, propagationPolicy: 'Background' | 'Foreground' = 'Background'): Promise<void> {
    const { uid, resourceVersion } = obj.metadata;
    if (uid || !resourceVersion) return this.#delete(obj, propagationPolicy, uid ? { uid } : undefined);
    try {
      await this.#delete(obj, propagationPolicy, { resourceVersion });
    } catch (err) {
      if (!isConflict(err)) throw err;
      const live = await this.get(obj);
      if (!live) return;
      if (!live.metadata.uid || !jsonEqual(live.metadata.labels ?? {}, obj.metadata.labels ?? {})) throw err;
      await this.#delete(obj, propagationPolicy, { uid: live.metadata.uid });
    }
  }

  async #delete(obj: KubeObject, propagationPolicy: 'Background' | 'Foreground', preconditions: { uid: string } | { resourceVersion: string } | undefined): Promise<void> {
    const opts = this.writeOptions();
    this.writes++;
    try {
      await this.client.delete(pathOf(obj), {
        ...opts,
        body: { apiVersion: 'v1', kind: 'DeleteOptions', propagationPolicy, ...(preconditions ? { preconditions } : {}) },
      });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Reads one object live (used only after a write found the cache behind); cancelled with the scope. */
  async get<T extends KubeObject>(like: KubeObject): Promise<T | undefined> {
    try {
      return await this.client.get<T>(pathOf(like), { signal: this.#scope.getStore() });
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
  /** Lists the objects of `kind` in `namespace` live (the cache holds only what Paddock manages). */
  async list<T extends KubeObject>(kind: string, namespace: string): Promise<T[]> {
    const ref = REF_BY_KIND[kind];
    if (!ref) throw new Error(`no resource known for kind ${kind}`);
    const list = await this.client.list<T>(resourcePath(ref, { namespace }), undefined, this.#scope.getStore());
    return list.items.map((o) => ({ ...o, kind, apiVersion: ref.group ? `${ref.group}/${ref.version}` : ref.version }));
  }

  /** Creates `obj`; when it already exists, returns undefined and the caller decides what that means. */
  async createIfAbsent<T extends KubeObject>(obj: T): Promise<T | undefined> {
    try {
      return await this.create(obj);
    } catch (err) {
      if (isAlreadyExists(err)) return undefined;
      throw err;
    }
  }
}
