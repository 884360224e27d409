/**
 * Helpers for the tests of guardrail kinds: objects as kube-apiserver stores them, and judgements made
 * both on the whole object and on what the cache keeps of it. Not used by the program.
 */
import { isDeepStrictEqual } from 'node:util';
import { prepareForCache } from '../../cache/transform';
import type { KubeObject, Tenant, TenantSpec } from '../../kube/types';
import { tenant } from '../../testing/tenants';
import { desiredState } from '../desired';
import type { DiffOptions } from '../drift';
import type { Guardrail } from '../guardrails/kind';
import { guardrailKind } from '../guardrails/registry';

/** A Tenant `oil` with namespace `oil-p`, an admin owner and `spec`. */
export function tenantWith(spec: Partial<TenantSpec> = {}): Tenant {
  return tenant('oil', { namespaces: ['p'], ...spec }, undefined, { uid: 'uid-1', generation: 1 });
}

/** The guardrails `tenant` wants in its first namespace, in order. */
export function guardrailsOf(tenant: Tenant): Guardrail[] {
  const state = desiredState(tenant, (tenant.spec.namespaces ?? []).map((n) => ({ name: `${tenant.metadata.name}-${n}`, origin: 'Declared' as const })));
  if (!state.valid) throw new Error(`fixture must be valid: ${JSON.stringify(state.problems)}`);
  return state.namespaces[0]!.guardrails;
}

/** The guardrail named `name` that `tenant` wants in its first namespace. */
export function desiredNamed<T extends Guardrail>(tenant: Tenant, name: string): T {
  const found = guardrailsOf(tenant).find((g) => g.metadata.name === name);
  if (!found) throw new Error(`no guardrail ${name}`);
  return found as T;
}

/** What kube-apiserver hands back after storing `obj`: server fields, defaults and canonical quantities. */
export function asStored<T extends KubeObject>(obj: T, patch: (o: T) => void = () => {}): T {
  const copy = structuredClone(obj) as T & { status?: unknown };
  delete copy.apiVersion;
  delete copy.kind;
  copy.metadata = { ...copy.metadata, uid: 'server-uid', resourceVersion: '17', creationTimestamp: '2026-01-01T00:00:00Z', generation: 1 };
  patch(copy);
  return copy;
}

/** `live` as the cache keeps it, when its kind is cached as a summary (see the kind's `informer`). */
export function asCached(live: KubeObject, kind: string | undefined): KubeObject | undefined {
  const transform = guardrailKind(kind)?.informer({ informer: undefined as never, name: (n) => n }).transform;
  return transform && prepareForCache(structuredClone(live), transform);
}

type Judge<R> = (live: KubeObject, want: KubeObject, options?: DiffOptions) => R;

/**
 * `judge`, which throws unless it judges what the cache keeps of `live` exactly as `live` itself: the
 * reconciler decides on the cached summary, and confirms on the object read live.
 */
export function alsoAsCached<R>(judge: Judge<R>): Judge<R> {
  return (live, want, options) => {
    const whole = judge(live, want, options);
    const cached = asCached(live, want.kind);
    const judged = cached && judge(cached, want, options);
    // As JSON, as toEqual compares: an absent field and an undefined one are the same.
    const json = (value: R | undefined): unknown => JSON.parse(JSON.stringify({ value }));
    if (cached && !isDeepStrictEqual(json(judged), json(whole))) throw new Error(`judged ${JSON.stringify(judged)} on the cached form, ${JSON.stringify(whole)} on the object`);
    return whole;
  };
}
