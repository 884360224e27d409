/**
 * Flat records: how the objects there is one of (or several) per tenant namespace are stored. A plain
 * summary is two objects — the object and its `metadata` — and a resourceVersion string; a record is
 * one object whose fields are the metadata fields and the content side by side, with the
 * resourceVersion as a number: about 64 B less per object (V8 without pointer compression: 24 B per
 * object header, 8 B per field, 24 B for a short string). What alike objects have in common beyond
 * their content — a guardrail's labels, owner references and deletion time, a namespace's labels,
 * phase and deletion time — is one pooled object they share, so a record has six fields (72 B), not eight.
 *
 * A record reads like the object it summarizes: `metadata` is made from its fields on each read (a
 * fresh object; nothing may rely on its identity or write to it), `apiVersion` and `kind` come from its
 * class, and JSON.stringify writes the object (`toJSON`). Spreading a record (`{ ...record }`) does not
 * copy those: pass records as they are.
 */
import type { KubeObject, Labels, Namespace, ObjectMeta, OwnerReference } from '../kube/types';

/**
 * A resourceVersion as stored: a number when it is a canonical decimal integer that a double holds
 * exactly (kube-apiserver's are etcd revisions), else the string itself (resourceVersions are opaque).
 */
export type StoredVersion = number | string | undefined;

const CANONICAL = /^[1-9]\d{0,14}$/;

export function storedVersion(rv: string | undefined): StoredVersion {
  return rv !== undefined && CANONICAL.test(rv) ? Number(rv) : rv;
}

export function versionText(v: StoredVersion): string | undefined {
  return typeof v === 'number' ? String(v) : v;
}

/** The two content fields of a guardrail kind, by name: `spec` and `status`, or a binding's `roleRef` and `subjects`. */
export type ContentFields = readonly [string, string];
export const SPEC_CONTENT: ContentFields = ['spec', 'status'];
export const BINDING_CONTENT: ContentFields = ['roleRef', 'subjects'];

/**
 * A namespaced object Paddock manages (a guardrail): its identity, labels and owners, and its content
 * in two fields whose names (and `apiVersion` and `kind`) its kind's class gives: see recordOf.
 */
abstract class GuardrailRecord {
  abstract readonly apiVersion: string | undefined;
  abstract readonly kind: string | undefined;
  abstract readonly contentFields: ContentFields;

  constructor(
    readonly name: string,
    readonly namespace: string | undefined,
    readonly version: StoredVersion,
    /** Labels, owner references and deletion time: one pooled object, the same for every guardrail of a tenant. */
    readonly marks: GuardrailMarks,
    readonly first: unknown,
    readonly second: unknown,
  ) {}

  get labels(): Labels | undefined { return this.marks.labels; }
  get ownerReferences(): OwnerReference[] | undefined { return this.marks.ownerReferences; }
  get deletionTimestamp(): string | undefined { return this.marks.deletionTimestamp; }

  get metadata(): ObjectMeta {
    return {
      name: this.name,
      namespace: this.namespace,
      resourceVersion: versionText(this.version),
      labels: this.labels,
      ownerReferences: this.ownerReferences,
      deletionTimestamp: this.deletionTimestamp,
    };
  }

  toJSON(): object {
    const [a, b] = this.contentFields;
    return { apiVersion: this.apiVersion, kind: this.kind, metadata: this.metadata, [a]: this.first, [b]: this.second };
  }
}

/**
 * The metadata of a guardrail that is the same on every guardrail of a tenant (its labels and controller
 * reference) and the rare deletion time, in one object that alike records share: two fields fewer per
 * record than holding each (16 B).
 */
export interface GuardrailMarks {
  readonly labels?: Labels;
  readonly ownerReferences?: OwnerReference[];
  readonly deletionTimestamp?: string;
}

export type GuardrailFields = ConstructorParameters<typeof GuardrailRecord>;
type RecordClass = new (...fields: GuardrailFields) => GuardrailRecord;

/**
 * The record class of one kind: `apiVersion`, `kind` and the content fields' names live on its
 * prototype, not in every record, and the content fields read by their names (`record.spec`). One
 * class per (apiVersion, kind, content fields), made on first use.
 */
const classes = new Map<string, RecordClass>();
function recordClass(apiVersion: string | undefined, kind: string | undefined, content: ContentFields): RecordClass {
  const key = [apiVersion ?? '', kind ?? '', ...content].join('\u0000');
  let made = classes.get(key);
  if (!made) {
    made = class extends GuardrailRecord {
      get apiVersion() { return apiVersion; }
      get kind() { return kind; }
      get contentFields() { return content; }
    };
    const [a, b] = content;
    Object.defineProperty(made.prototype, a, { get(this: GuardrailRecord) { return this.first; } });
    Object.defineProperty(made.prototype, b, { get(this: GuardrailRecord) { return this.second; } });
    classes.set(key, made);
  }
  return made;
}

/** A guardrail as a record of its kind (see recordClass), read through the type of the object it summarizes. */
export function recordOf<T>(apiVersion: string | undefined, kind: string | undefined, content: ContentFields, ...fields: GuardrailFields): T {
  const Record = recordClass(apiVersion, kind, content);
  return new Record(...fields) as unknown as T;
}

/** The name of a cached object, read off a record without making its metadata (see the file comment). */
export function nameOfCached(obj: KubeObject): string {
  return obj instanceof GuardrailRecord || obj instanceof NamespaceRecord ? obj.name : obj.metadata.name;
}

/** The namespace of a cached object (undefined when cluster-scoped), read as {@link nameOfCached} reads its name. */
export function namespaceOfCached(obj: KubeObject): string | undefined {
  if (obj instanceof GuardrailRecord) return obj.namespace;
  return obj instanceof NamespaceRecord ? undefined : obj.metadata.namespace;
}

/** The label kube-apiserver sets on every namespace, to its name. */
export const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * What stands for the namespace's own name as the value of {@link NAMESPACE_NAME_LABEL} in a record's
 * labels. No label value can be it (they are at most 63 of `[A-Za-z0-9._-]`).
 */
export const OWN_NAME = '\u0000name';

/**
 * A Namespace: its identity, times, labels, Paddock's annotations and its phase, flat.
 *
 * Its labels are kept with {@link OWN_NAME} for the value of the name label, so that alike namespaces
 * (those of a tenant carry the same labels but that one) can share one object: `labels` puts the name
 * back, in a new frozen object, on each read.
 */
export class NamespaceRecord {
  constructor(
    readonly name: string,
    readonly uid: string | undefined,
    readonly version: StoredVersion,
    readonly creationTimestamp: string | undefined,
    /** Labels (of alike namespaces), annotations, phase and deletion time: one object alike namespaces share. */
    readonly shape: NamespaceShape,
  ) {}

  get labelsOfAlike(): Labels | undefined { return this.shape.labels; }
  get annotations(): Labels | undefined { return this.shape.annotations; }
  get status(): { phase?: string } | undefined { return this.shape.status; }
  get deletionTimestamp(): string | undefined { return this.shape.deletionTimestamp; }

  get labels(): Labels | undefined {
    const alike = this.labelsOfAlike;
    // Replacing the value of a key keeps the key where it was: the labels come out in their order.
    return alike?.[NAMESPACE_NAME_LABEL] === OWN_NAME ? Object.freeze({ ...alike, [NAMESPACE_NAME_LABEL]: this.name }) : alike;
  }

  get apiVersion(): string { return 'v1'; }
  get kind(): string { return 'Namespace'; }

  get metadata(): ObjectMeta {
    return {
      name: this.name,
      uid: this.uid,
      resourceVersion: versionText(this.version),
      creationTimestamp: this.creationTimestamp,
      deletionTimestamp: this.deletionTimestamp,
      labels: this.labels,
      annotations: this.annotations,
    };
  }

  toJSON(): object {
    return { apiVersion: this.apiVersion, kind: this.kind, metadata: this.metadata, status: this.status };
  }
}

/**
 * What alike namespaces (those of a tenant) have in common: their labels with {@link OWN_NAME} for the
 * name label's value, the annotations the cache keeps (Paddock's own and those its tenant's
 * namespaceMetadata sets: the same on each) and the phase — and the rare deletion time. One pooled
 * object, so a record holds five fields instead of eight.
 */
export interface NamespaceShape {
  readonly labels?: Labels;
  readonly annotations?: Labels;
  readonly status?: { phase?: string };
  readonly deletionTimestamp?: string;
}

/** The metadata fields of a Namespace that a record holds itself, under the same names. */
export type NamespaceMeta = Pick<ObjectMeta, 'name' | 'uid' | 'creationTimestamp' | 'deletionTimestamp' | 'labels' | 'annotations'>;

/** Those fields of `ns`, read without making its `metadata`: a record has them itself, an object in its metadata. */
export function namespaceMeta(ns: Namespace): NamespaceMeta {
  return ns instanceof NamespaceRecord ? ns : ns.metadata;
}
