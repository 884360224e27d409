import type { PaddockCache } from '../cache/paddock-cache';
import { PADDOCK, type KubeObject, type Namespace, type NamespaceClaim, type Tenant, type TenantStatus } from '../kube/types';
import type { Logger } from '../log/logger';
import {
  desiredState, diffNamespace, mergeNamespace, mergeObject, needsUpdate, objectRef, releaseNamespace,
  requiresRecreate, staleObjects, statusEqual, tenantStatus, type DesiredState, type Guardrail, type ObservedState,
} from '../tenancy';
import { CLAIM_TOKEN_ANNOTATION, PENDING_CLAIM_TTL_MS, claimHolds, claimsOf, declaredNames, declaredToClaim, namesTakenFromOthers, newClaim, provenByUid, tenantOfName, withClaim } from '../tenancy/claims';
import { TenantAdmission } from './admission';
import { EventBatch, type EventRecorder } from './events';
import type { ReconcileResult } from './workqueue-workers';
import type { Writer } from './writer';

/**
 * Annotation that marked self-service namespaces before claims recorded their origin; read only to
 * migrate a Tenant that has no claims yet.
 */
const LEGACY_SELF_SERVICE_ANNOTATION = 'paddock.dev/self-service';

/** A self-service claim whose namespace may still be on its way (see PENDING_CLAIM_TTL_MS). */
function isPending(claim: NamespaceClaim, now: Date): boolean {
  if (claim.uid || claim.origin !== 'SelfService') return false;
  const at = Date.parse(claim.claimedAt ?? '');
  return Number.isFinite(at) && now.getTime() - at < PENDING_CLAIM_TTL_MS;
}

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
  ) {
    this.admission = new TenantAdmission(cache, writer);
  }

  /** The last status written per tenant and the resourceVersion it was written from. */
  readonly #statusWritten = new Map<string, { from: string | undefined; status: TenantStatus }>();

  /** Events of the pass in progress, per tenant (the workqueue never runs one tenant twice at once). */
  readonly #batches = new Map<string, EventBatch>();

  /** Admission policies and bindings: what the tenant may use, enforced by kube-apiserver (SPEC §9). */
  readonly admission: TenantAdmission;

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
    if (tenant.metadata.deletionTimestamp) return this.#finalize(tenant);
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) {
      await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers: [...(tenant.metadata.finalizers ?? []), PADDOCK.finalizer] } });
      return; // the update's watch event brings the tenant back with the finalizer
    }
    await this.#ensureAdmission(tenant);

    const takenFromOthers = namesTakenFromOthers(tenant.metadata.name, (n) => this.cache.tenants.store.get(n));
    const validity = desiredState(tenant, []);
    if (!validity.valid || takenFromOthers.length > 0) {
      // Refused: nothing is claimed, created or changed; what is already proven is reported.
      const proven = claimsOf(tenant).filter((c) => this.#holds(c)).map((c) => c.name);
      const conflicts = this.#unclaimedLabelled(tenant);
      return this.#writeStatus(tenant, validity, { namespaces: proven, conflicts, missing: [], drifted: [], takenFromOthers });
    }

    const ledger = await this.#ledger(tenant);
    if (ledger.changed) tenant = await this.writer.updateStatus({ ...tenant, status: { ...tenant.status, claims: ledger.claims } });
    let claims = ledger.claims;

    const desired = desiredState(tenant, claims);
    if (!desired.valid) return;
    const quota = tenant.spec.namespaceQuota;
    const keptOverQuota = quota !== undefined && claims.length > quota ? claims.slice(quota).map((c) => c.name) : [];
    const observed = { namespaces: [] as string[], conflicts: [...ledger.conflicts], missing: [] as string[], drifted: [] as string[], overQuota: ledger.overQuota, keptOverQuota };
    for (const want of desired.namespaces) {
      const claim = claims.find((c) => c.name === want.name)!;
      const result = await this.#ensureNamespace(tenant, want.namespace, claim, ledger.tokens.get(want.name), observed);
      if (result.uid && result.uid !== claim.uid) claims = withClaim(claims, provenByUid(claim, result.uid));
      if (result.furnish) for (const g of want.guardrails) await this.#ensureGuardrail(tenant, g);
    }
    await this.#pruneGuardrails(tenant, desired);
    claims = await this.#releaseUnwanted(tenant, desired, claims);
    observed.conflicts.push(...this.#unclaimedLabelled(tenant, claims));
    observed.namespaces.sort();
    await this.#writeStatus(tenant, desired, { ...observed, claims });
  }

  /**
   * The tenant's admission bindings, then the policies they bind. Runs for a Tenant with an invalid spec
   * too: what it restricts is read by kube-apiserver from the Tenant itself, and its bindings depend on
   * nothing but its name and which fields it sets.
   */
  async #ensureAdmission(tenant: Tenant): Promise<void> {
    await this.admission.ensureBindings(tenant, (reason, message) => this.#event(tenant, 'Normal', reason, message));
    await this.admission.reconcilePolicies();
  }

  /**
   * Brings the tenant's claims up to date from the cache, without writing: records the UID of a
   * namespace proven by its token, draws a fresh proof for a declared namespace that must be (re)created,
   * claims the declared names that fit namespaceQuota, and drops claims that are over (a self-service
   * namespace that is gone, a pending one that never came). Tokens are only ever held in memory: the
   * namespace created with one proves itself by it even if this process dies before recording its UID.
   */
  async #ledger(tenant: Tenant): Promise<{ claims: NamespaceClaim[]; changed: boolean; tokens: Map<string, string>; overQuota: string[]; conflicts: string[] }> {
    const now = new Date();
    const tokens = new Map<string, string>();
    const conflicts: string[] = [];
    const declared = new Set(declaredNames(tenant));
    const migrated = tenant.status?.claims === undefined ? this.#legacyClaims(tenant) : undefined;
    let claims: NamespaceClaim[] = migrated ?? claimsOf(tenant);
    let changed = migrated !== undefined;
    const fresh = (name: string, origin: NamespaceClaim['origin']) => {
      const { claim, token } = newClaim(name, origin, now);
      tokens.set(name, token);
      claims = withClaim(claims, claim);
      changed = true;
    };

    const drop = (claim: NamespaceClaim) => {
      claims = claims.filter((c) => c.name !== claim.name);
      changed = true;
    };

    for (let claim of [...claims]) {
      // A self-service namespace later declared in spec.namespaces is a declared one from then on.
      if (claim.origin === 'SelfService' && declared.has(claim.name)) {
        claim = { ...claim, origin: 'Declared' };
        claims = withClaim(claims, claim);
        changed = true;
      }
      const stillDeclared = claim.origin === 'Declared' && declared.has(claim.name);
      // The cache may not have a namespace created moments ago (its watch is not the Tenant's): ask.
      const ns = this.cache.namespaces.store.get(claim.name) ?? (await this.writer.get<Namespace>({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: claim.name } }));
      if (ns && claimHolds(claim, ns)) continue;
      if (ns) {
        // The name is held by a namespace Paddock cannot prove it created: never adopted.
        if (stillDeclared) conflicts.push(claim.name);
        else if (!isPending(claim, now)) drop(claim);
      } else if (stillDeclared) {
        fresh(claim.name, 'Declared'); // gone: re-created under a new claim, proven by its own token
      } else if (claim.origin === 'Declared' || !isPending(claim, now)) {
        drop(claim); // a self-service namespace deleted, or one whose create never came
      }
    }

    const exists = (n: string) => this.cache.tenants.store.get(n) !== undefined;
    const withClaims = { ...tenant, status: { ...tenant.status, claims } };
    const { claim, overQuota } = declaredToClaim(withClaims, (name) => {
      if (tenantOfName(name, exists) !== tenant.metadata.name || this.cache.namespaces.store.get(name)) {
        conflicts.push(name);
        return false;
      }
      return true;
    });
    for (const name of claim) fresh(name, 'Declared');
    return { claims, changed, tokens, overQuota, conflicts };
  }

  /**
   * Claims for a Tenant written before claims existed: the namespaces its status listed (only Paddock
   * writes status) that still carry its label, by their current UID.
   */
  #legacyClaims(tenant: Tenant): NamespaceClaim[] {
    const claims: NamespaceClaim[] = [];
    for (const name of tenant.status?.namespaces ?? []) {
      const ns = this.cache.namespaces.store.get(name);
      if (!ns?.metadata.uid || ns.metadata.labels?.[PADDOCK.tenantLabel] !== tenant.metadata.name) continue;
      claims.push({ name, origin: ns.metadata.annotations?.[LEGACY_SELF_SERVICE_ANNOTATION] === 'true' ? 'SelfService' : 'Declared', uid: ns.metadata.uid });
    }
    return claims;
  }

  /** Namespaces labelled for this tenant that no claim of it proves: planted, never adopted. */
  #unclaimedLabelled(tenant: Tenant, claims: readonly NamespaceClaim[] = claimsOf(tenant)): string[] {
    return this.cache
      .namespacesOf(tenant.metadata.name)
      .filter((ns) => {
        const claim = claims.find((c) => c.name === ns.metadata.name);
        return !claim || !claimHolds(claim, ns);
      })
      .map((ns) => ns.metadata.name);
  }

  #holds(claim: NamespaceClaim): boolean {
    const ns = this.cache.namespaces.store.get(claim.name);
    return ns !== undefined && claimHolds(claim, ns);
  }

  /**
   * Creates (with the claim's token) or repairs one claimed namespace. `uid`: the namespace's UID when
   * known; `furnish`: whether its guardrails should be applied now.
   */
  async #ensureNamespace(
    tenant: Tenant,
    want: Namespace,
    claim: NamespaceClaim,
    token: string | undefined,
    observed: { namespaces: string[]; missing: string[] },
  ): Promise<{ uid?: string; furnish: boolean }> {
    const name = want.metadata.name;
    const live = this.cache.namespaces.store.get(name);
    if (!live || !claimHolds(claim, live)) {
      if (live || token === undefined) return { furnish: false }; // a conflict (reported) or a pending self-service claim
      const created = await this.writer.createIfAbsent({ ...want, metadata: { ...want.metadata, annotations: { ...want.metadata.annotations, [CLAIM_TOKEN_ANNOTATION]: token } } });
      if (!created) {
        observed.missing.push(objectRef(want)); // exists but not in the cache yet: the next event brings it
        return { furnish: false };
      }
      this.#event(tenant, 'Normal', 'NamespaceCreated', `created namespace ${name}`);
      observed.namespaces.push(name);
      return { uid: created.metadata.uid, furnish: true };
    }
    observed.namespaces.push(name);
    if (live.status?.phase === 'Terminating') return { uid: live.metadata.uid, furnish: false };
    if (diffNamespace(live, want).length) {
      // The cache keeps a summary (cache/summaries.ts): the update is computed from the namespace read
      // live, and only if it still differs there and is still the claimed one.
      const current = await this.writer.get<Namespace>(want);
      const drift = current && claimHolds(claim, current) ? diffNamespace(current, want) : [];
      if (current && drift.length) {
        await this.writer.update(mergeNamespace(current, want));
        this.#event(tenant, 'Normal', 'Repaired', `repaired namespace ${name}: ${drift.map((d) => d.path).join(', ')}`);
      }
    }
    return { uid: live.metadata.uid, furnish: true };
  }

  async #ensureGuardrail(tenant: Tenant, want: Guardrail): Promise<void> {
    const informer = this.#informerOf(want.kind!);
    const live = informer.store.get(`${want.metadata.namespace}/${want.metadata.name}`);
    if (!live) {
      const created = await this.writer.createIfAbsent(want);
      if (created) return this.#event(tenant, 'Normal', 'Created', `created ${objectRef(want)}`);
      // It exists without Paddock's label (someone removed it): take it back.
      const current = await this.writer.get<KubeObject>(want);
      if (current) await this.#repair(tenant, { ...current, kind: want.kind, apiVersion: want.apiVersion }, want, true);
      return;
    }
    await this.#repair(tenant, live, want);
  }

  /**
   * Repairs `live` (cached or read) into `want`. A cached guardrail is a summary (cache/summaries.ts), so
   * a drift seen there is confirmed on the object read live, and the update is merged into that one:
   * what the cache does not keep (annotations, finalizers) is never lost.
   */
  async #repair(tenant: Tenant, live: KubeObject, want: Guardrail, read = false): Promise<void> {
    if (!requiresRecreate(live as Guardrail, want) && !needsUpdate(live as Guardrail, want)) return;
    if (!read) {
      const current = await this.writer.get<KubeObject>(want);
      if (!current) return; // gone meanwhile: its delete event brings the tenant back
      return this.#repair(tenant, { ...current, kind: want.kind, apiVersion: want.apiVersion }, want, true);
    }
    if (requiresRecreate(live as Guardrail, want)) {
      await this.writer.delete(live);
      await this.writer.create(want);
    } else {
      await this.writer.update(mergeObject(live, want as KubeObject));
    }
    this.#event(tenant, 'Normal', 'Repaired', `repaired ${objectRef(want)}`);
  }

  /** Deletes guardrails this tenant no longer wants (a quota removed from the spec, a role nobody holds). */
  async #pruneGuardrails(tenant: Tenant, desired: DesiredState & { valid: true }): Promise<void> {
    const wanted = desired.namespaces.flatMap((n) => n.guardrails as KubeObject[]);
    for (const ns of desired.namespaces) {
      for (const kind of GUARDRAIL_KINDS) {
        // Cached guardrails are records (cache/records.ts) that carry their kind: passed as they are.
        const live: KubeObject[] = this.#informerOf(kind).store.byIndex('namespace', ns.name);
        for (const stale of staleObjects(kind, live, wanted, tenant.metadata.name)) await this.writer.delete(stale);
      }
    }
  }

  /**
   * Applies the deletion policy to claimed namespaces that are no longer wanted (a name removed from
   * spec.namespaces) and drops their claims. Namespaces over a lowered namespaceQuota stay claimed and
   * furnished: lowering a quota never deletes a namespace.
   */
  async #releaseUnwanted(tenant: Tenant, desired: DesiredState & { valid: true }, claims: NamespaceClaim[]): Promise<NamespaceClaim[]> {
    const wanted = new Set(desired.namespaces.map((n) => n.name));
    let kept = claims;
    for (const claim of claims) {
      if (wanted.has(claim.name)) continue;
      const ns = this.cache.namespaces.store.get(claim.name);
      if (ns && claimHolds(claim, ns) && ns.status?.phase !== 'Terminating') await this.#retire(tenant, ns);
      if (!isPending(claim, new Date())) kept = kept.filter((c) => c !== claim);
    }
    return kept;
  }

  /**
   * Retain: revoke access, strip guardrails and tenant labels, keep the namespace and its workloads.
   * Delete: delete the namespace (kube-apiserver refuses every create in it from then on).
   *
   * Invariant: no one keeps access that the tenancy gave. Every RoleBinding in the namespace was made
   * while it was the tenant's — by Paddock, by an owner (who may have bound herself, or a Role of her
   * own), or by the cluster admin — so all of them go, and they go first: the guardrails and the tenant
   * label that selects the admission bindings are removed only once a live list shows none left.
   */
  async #retire(tenant: Tenant, ns: Namespace): Promise<void> {
    if ((tenant.spec.deletionPolicy ?? 'Retain') === 'Delete') {
      await this.writer.delete(ns);
      this.#event(tenant, 'Normal', 'NamespaceDeleted', `deleted namespace ${ns.metadata.name} (deletionPolicy Delete)`);
      return;
    }
    const revoked = await this.#revokeAccess(ns);
    // One made meanwhile (a request authorized before the sweep): the pass fails and is retried.
    if ((await this.writer.list('RoleBinding', ns.metadata.name)).length > 0) throw new Error(`namespace ${ns.metadata.name}: RoleBindings appeared while access was being revoked`);
    if (revoked > 0) this.#event(tenant, 'Normal', 'AccessRevoked', `deleted ${revoked} RoleBinding(s) in namespace ${ns.metadata.name} before releasing it`);
    for (const kind of GUARDRAIL_KINDS) {
      if (kind === 'RoleBinding') continue; // all gone with the access
      for (const obj of this.#informerOf(kind).store.byIndex('namespace', ns.metadata.name)) {
        if (obj.metadata.labels?.[PADDOCK.tenantLabel] === tenant.metadata.name) await this.writer.delete(obj);
      }
    }
    // From the namespace read live: the cached one is a summary (cache/summaries.ts).
    const current = await this.writer.get<Namespace>({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns.metadata.name } });
    if (!current || current.metadata.uid !== ns.metadata.uid) return;
    await this.writer.update({ ...releaseNamespace(current), kind: 'Namespace', apiVersion: 'v1' });
    // A binding whose create was authorized before the first sweep and stored after it goes too.
    await this.#revokeAccess(ns);
    this.#event(tenant, 'Normal', 'NamespaceReleased', `released namespace ${ns.metadata.name} (deletionPolicy Retain)`);
  }

  /** Deletes every RoleBinding in `ns`, read live (the cache holds only Paddock's); returns how many. */
  async #revokeAccess(ns: Namespace): Promise<number> {
    const bindings = await this.writer.list<KubeObject>('RoleBinding', ns.metadata.name);
    for (const binding of bindings) await this.writer.delete(binding);
    return bindings.length;
  }

  /** Retires every namespace proven this tenant's (and only those), then lets the Tenant go. */
  async #finalize(tenant: Tenant): Promise<void> {
    if (!(tenant.metadata.finalizers ?? []).includes(PADDOCK.finalizer)) return;
    for (const claim of claimsOf(tenant)) {
      const ns = this.cache.namespaces.store.get(claim.name);
      if (ns && claimHolds(claim, ns) && ns.status?.phase !== 'Terminating') await this.#retire(tenant, ns);
    }
    // Bindings go before the Tenant: a binding whose Tenant is gone denies every request it matches.
    await this.admission.removeBindings(tenant);
    // A 409 here (the tenant changed meanwhile) is retried with backoff from the newer cached tenant.
    const finalizers = (tenant.metadata.finalizers ?? []).filter((f) => f !== PADDOCK.finalizer);
    await this.writer.update({ ...tenant, metadata: { ...tenant.metadata, finalizers } });
  }

  async #writeStatus(tenant: Tenant, desired: DesiredState, observed: ObservedState): Promise<void> {
    const status = tenantStatus(tenant, desired, { ...observed, allowed: this.admission.allowed(tenant) }, new Date());
    // Another event can bring this tenant back before the cache has our last status write: writing the
    // same status again from the stale copy would only earn a 409. Skip until the cache moves on; once
    // it has, the record has served (it would otherwise hold a copy of every Tenant's status).
    const last = this.#statusWritten.get(tenant.metadata.name);
    if (last && last.from !== tenant.metadata.resourceVersion) this.#statusWritten.delete(tenant.metadata.name);
    if (statusEqual(tenant.status, status)) return;
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
