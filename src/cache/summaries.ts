/**
 * What the cache keeps of the objects there is one of (or several) per tenant namespace: only the fields
 * Paddock reads from the cache (client-go's TransformFunc, controller-runtime's DefaultTransform).
 * Identical parts — the labels and controller reference every guardrail of a tenant carries, a spec
 * repeated in every namespace of a tenant — are stored once and shared (see {@link Interner}).
 *
 * A trimmed object is never the base of a write: before the reconciler updates a namespace or a
 * guardrail it reads it live, re-checks the drift on what it read and merges into that, so fields the
 * cache drops are never lost (see controller/reconciler.ts).
 */
import { hash } from 'node:crypto';
import type { Condition, KubeObject, Labels, Namespace, NamespaceClaim, Tenant, TenantSpec } from '../kube/types';
import { BINDING_CONTENT, NAMESPACE_NAME_LABEL, namespaceMeta, NamespaceRecord, OWN_NAME, recordOf, SPEC_CONTENT, storedVersion, type GuardrailMarks, type NamespaceMeta, type NamespaceShape } from './records';
import { deepFreeze } from './transform';
import { WeakSlots } from './weak-slots';

/** Messages of conditions that hold, up to this long, are taken from the pool of strings. */
const SHARED_MESSAGE_LENGTH = 64;

/** The fewest insertions after which the pool is swept. */
const MIN_SWEEP = 1024;

/**
 * A pool of frozen values shared by every object that holds an equal one (by JSON text). Values are held
 * weakly: one no cached object refers to any more is collected. Its reference is reused by the next value
 * of the same hash a lookup brings past it, or dropped by a sweep of the whole pool, made each time as many values have been
 * added as it held after the last sweep (so the references of collected values never outnumber those
 * of live ones by much, and a sweep costs O(1) per insertion). The pool is keyed by a 32-bit hash of
 * the JSON text, not the text itself (a value's text is made again to confirm a match), so a value
 * costs its weak reference and a slot of hash and reference (weak-slots.ts) and no copy of the text —
 * and no finalization registration, which would cost twice as much again.
 */
export class Interner {
  /** The values by the hash of their JSON text (almost always one per hash). */
  readonly #values = new WeakSlots();
  /** Values added since the last sweep, and references held after it. */
  #added = 0;
  #kept = 0;
  readonly #strings = new Map<string, string>();

  constructor(readonly maxStrings = 4096) {}

  /** `value` frozen, or an equal value already in the pool. Primitives and undefined pass through. */
  value<T>(value: T): T {
    if (typeof value !== 'object' || value === null) return value;
    const text = JSON.stringify(value);
    const key = hash('sha1', text, 'buffer').readInt32BE(0);
    let made = false;
    const found = this.#values.findOrAdd(key, (hit) => JSON.stringify(hit) === text, () => {
      made = true;
      return deepFreeze(value) as T & object;
    });
    if (made && ++this.#added >= Math.max(MIN_SWEEP, this.#kept)) this.sweep();
    return found;
  }

  /** Drops the references to collected values. */
  sweep(): void {
    this.#values.sweep();
    this.#added = 0;
    this.#kept = this.#values.size;
  }

  /**
   * One instance of a string of which there are few distinct ones (kinds, apiVersions, guardrail names).
   * The pool stops growing at `maxStrings`; later strings pass through.
   */
  string<T extends string | undefined>(s: T): T {
    if (s === undefined) return s;
    const hit = this.#strings.get(s);
    if (hit !== undefined) return hit as T;
    if (this.#strings.size < this.maxStrings) this.#strings.set(s, s);
    return s;
  }

  /** Weak references the pool holds, including those to values collected since they were last looked at (for tests and metrics). */
  get size(): number {
    return this.#values.size;
  }
}

const shared = new Interner();

/**
 * The one instance of a namespace's name the cache already holds (the cached Namespace's), or the given
 * string when there is none: every guardrail in a namespace refers to that instance instead of a copy.
 */
export type NamespaceNames = (namespace: string) => string;

const ownName: NamespaceNames = (namespace) => namespace;

type Content = KubeObject & { spec?: unknown; status?: { hard?: unknown; used?: unknown }; roleRef?: unknown; subjects?: unknown };

/**
 * An object kept in tenant namespaces (a guardrail of a kind that declares this summary its transform:
 * ResourceQuota, LimitRange, NetworkPolicy, RoleBinding) as drift detection and the views read it, as a
 * flat record (see records.ts): metadata identity (name, namespace, resourceVersion — also the delete
 * precondition — and deletionTimestamp), labels and ownerReferences (compared), and the
 * whole content — `spec`, or a binding's `roleRef` and `subjects` — compared field by field. Of
 * `status` only a quota's `hard` and `used` (the TenantNamespace quota column). Dropped: the uid (a
 * guardrail is deleted on the condition that it is still at the cached resourceVersion, or, when only
 * that moved on and not its labels, on the uid read live then: see controller/writer.ts), annotations,
 * finalizers, generation, creationTimestamp and the rest of status. Labels, ownerReferences and content
 * are shared between equal objects (every guardrail of a tenant carries the same labels and controller
 * reference; a tenant's quota spec repeats in each of its namespaces), and the namespace's name is the
 * instance `names` gives.
 */
export function guardrailSummary<T extends KubeObject>(obj: T, pool: Interner = shared, names: NamespaceNames = ownName): T {
  const o = obj as Content;
  const m = o.metadata;
  const marks: GuardrailMarks = pool.value(withoutUndefined({ labels: m.labels, ownerReferences: m.ownerReferences, deletionTimestamp: m.deletionTimestamp }));
  const identity = [pool.string(m.name), m.namespace === undefined ? undefined : names(m.namespace), storedVersion(m.resourceVersion), marks] as const;
  if (o.roleRef !== undefined || o.subjects !== undefined) {
    return recordOf<T>(o.apiVersion, o.kind, BINDING_CONTENT, ...identity, pool.value(o.roleRef), pool.value(o.subjects));
  }
  const s = o.status;
  const status = s && (s.hard !== undefined || s.used !== undefined) ? pool.value({ hard: s.hard, used: s.used }) : undefined;
  return recordOf<T>(o.apiVersion, o.kind, SPEC_CONTENT, ...identity, pool.value(o.spec), status);
}

/**
 * The spec fields of a Tenant that are its own (who owns it, which namespaces, how many): every other
 * field — quotas, limits, policies, and whatever a tenant may use, now and as fields are added — is
 * usually the same for many tenants (a platform's standard offer) and is shared between them.
 */
const OWN_FIELDS: ReadonlySet<string> = new Set(['owners', 'namespaces', 'namespaceQuota', 'networkIsolation', 'deletionPolicy'] satisfies (keyof TenantSpec)[]);

/**
 * A Tenant as cached: all of it (its status and finalizer are written from the cached copy), with what
 * repeats shared instead of copied — the template fields of its spec, equal between tenants given the
 * same offer, and in its status each namespace's name and uid as the instances the cached Namespace
 * holds, equal times (of claims and conditions) once, and claim origins, condition types, statuses and
 * reasons, and the messages of conditions that hold from the pool of strings (the same few on most
 * tenants: "Ready", "5 namespaces in sync"), declared namespace names as the cached Namespaces' and
 * finalizers from the pool of strings. `namespace` finds a cached Namespace by name; a claim whose
 * namespace is not cached (yet) keeps its own strings until the Tenant's next version.
 */
export function tenantSummary(tenant: Tenant, pool: Interner = shared, namespace: (name: string) => Namespace | undefined = () => undefined): Tenant {
  const out: Tenant = { ...tenant };
  // Returned frozen whole: the informer then shares nothing of it with the version it replaces (see
  // transform.ts), so the instances chosen here win over a previous version's copies — that version's
  // claims may have been written before their namespaces were cached.
  const result = (): Tenant => deepFreeze(out);
  const cachedMeta = (name: string): NamespaceMeta | undefined => {
    const ns = namespace(name);
    return ns && namespaceMeta(ns);
  };
  const nameOf = (name: string): string => (typeof name === 'string' ? (cachedMeta(name)?.name ?? name) : name);
  const finalizers = tenant.metadata?.finalizers;
  if (Array.isArray(finalizers)) out.metadata = { ...tenant.metadata, finalizers: finalizers.map((f) => pool.string(f)) };
  if (tenant.spec && typeof tenant.spec === 'object') {
    const spec: Record<string, unknown> = { ...tenant.spec };
    for (const [field, value] of Object.entries(spec)) if (value !== undefined && value !== null && typeof value === 'object' && !OWN_FIELDS.has(field)) spec[field] = pool.value(value);
    if (Array.isArray(spec.namespaces)) spec.namespaces = spec.namespaces.map(nameOf);
    out.spec = spec as unknown as TenantSpec;
  }
  const status = tenant.status;
  if (!status) return result();
  const time = <T extends string | undefined>(t: T): T => (t === undefined ? t : (recentTime(t) as T));
  // Fields are replaced in place (the copy keeps the source's key order) and never added.
  const claim = (c: NamespaceClaim): NamespaceClaim => {
    const cached = cachedMeta(c.name);
    const copy = { ...c, name: cached?.name ?? c.name, origin: pool.string(c.origin) };
    if (c.uid !== undefined && c.uid === cached?.uid) copy.uid = cached.uid;
    if (c.claimedAt !== undefined) copy.claimedAt = time(c.claimedAt);
    return copy;
  };
  const condition = (c: Condition): Condition => {
    const copy = { ...c, type: pool.string(c.type), status: pool.string(c.status) };
    if (c.reason !== undefined) copy.reason = pool.string(c.reason);
    // The message of a condition that holds is the same on alike tenants ("5 namespaces in sync"); one
    // that does not hold names what is wrong, this tenant's own: it would only take a place in the pool.
    if (c.message !== undefined && c.status === 'True' && c.message.length <= SHARED_MESSAGE_LENGTH) copy.message = pool.string(c.message);
    if (c.lastTransitionTime !== undefined) copy.lastTransitionTime = time(c.lastTransitionTime);
    return copy;
  };
  out.status = { ...status };
  if (status.namespaces) out.status.namespaces = status.namespaces.map(nameOf);
  if (status.claims) out.status.claims = status.claims.map(claim);
  if (Array.isArray(status.conditions)) out.status.conditions = status.conditions.map(condition);
  return result();
}

/**
 * `fields` without the keys whose value is undefined: pooled by their JSON text, objects that differ only
 * in such keys are one (and a shape with all of them absent is the one empty object).
 */
function withoutUndefined<T extends object>(fields: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out as T;
}

/**
 * Recent times (namespaces' creation, claims, conditions), one instance each: objects made in the same
 * second share it. Bounded: cleared when full.
 */
const recentTimes = new Map<string, string>();
const RECENT_TIMES = 1024;

function recentTime(t: string): string {
  const hit = recentTimes.get(t);
  if (hit !== undefined) return hit;
  if (recentTimes.size >= RECENT_TIMES) recentTimes.clear();
  recentTimes.set(t, t);
  return t;
}

/**
 * Which annotations of a namespace the cache keeps; the others are dropped. `keep` is asked once per
 * namespace summarised, with all its annotations, and answers for each key. `shared` names one that is
 * always kept and whose text is the same on every namespace of the same shape: its value is taken from
 * the pool of strings, and the annotations of a namespace that holds it alone are one shared object.
 */
export interface KeptAnnotations {
  keep(annotations: Labels): (key: string) => boolean;
  readonly shared?: string;
}

/** Keeps no annotation. */
export const NO_ANNOTATIONS: KeptAnnotations = { keep: () => () => false };

/** The annotations of a namespace that `kept` keeps. */
function keptAnnotations(annotations: Labels | undefined, kept: KeptAnnotations, pool: Interner): Labels | undefined {
  if (!annotations) return undefined;
  const keep = kept.keep(annotations);
  let out: Labels | undefined;
  for (const [key, value] of Object.entries(annotations)) {
    if (key === kept.shared) (out ??= {})[key] = pool.string(value);
    else if (keep(key)) (out ??= {})[key] = value;
  }
  // Only the shared one, as on every namespace of the same shape once provisioned: one shared object.
  const keys = out === undefined ? [] : Object.keys(out);
  return keys.length === 1 && keys[0] === kept.shared ? pool.value(out) : out;
}

/**
 * A Namespace (all of them are cached) as Paddock reads it, as a flat record (see records.ts): name,
 * uid (claims), resourceVersion, creation and deletion times and every label (the TenantNamespace row
 * shows them), the annotations `kept` keeps (Paddock's own: see tenancy/cache-options.ts) and
 * `status.phase`. Dropped: other annotations (e.g. kubectl's last-applied configuration), finalizers,
 * ownerReferences, `spec.finalizers` and status conditions.
 */
export function namespaceSummary(ns: Namespace, pool: Interner = shared, kept: KeptAnnotations = NO_ANNOTATIONS): Namespace {
  const m = ns.metadata;
  const shape: NamespaceShape = pool.value(withoutUndefined({
    labels: m.labels === undefined ? undefined : labelsOfAlike(m.labels, m.name, pool),
    annotations: keptAnnotations(m.annotations, kept, pool),
    status: ns.status?.phase === undefined ? undefined : pool.value({ phase: ns.status.phase }),
    deletionTimestamp: m.deletionTimestamp,
  }));
  const created = m.creationTimestamp === undefined ? undefined : recentTime(m.creationTimestamp);
  return new NamespaceRecord(m.name, m.uid, storedVersion(m.resourceVersion), created, shape) as unknown as Namespace;
}

/**
 * A namespace's labels as alike namespaces share them (see NamespaceRecord): the name label's value, when
 * it is the namespace's name (kube-apiserver sets it so), replaced by OWN_NAME, and the whole taken from
 * the pool. A copy of the object as parsed keeps its compact layout (a map of a few keys built one key
 * at a time spills past four into a separate property array).
 */
function labelsOfAlike(labels: Record<string, string>, name: string, pool: Interner): Record<string, string> {
  if (labels[NAMESPACE_NAME_LABEL] !== name) return pool.value({ ...labels });
  return pool.value({ ...labels, [NAMESPACE_NAME_LABEL]: OWN_NAME });
}
