/**
 * The Namespace side of a paddock: which labels and annotations Paddock owns on it, and how to write
 * them without touching anybody else's. A namespace's metadata is shared ground (kube-apiserver adds
 * `kubernetes.io/metadata.name`, other tools add their own keys), so Paddock compares and writes only
 * the keys it owns, and remembers them in {@link MANAGED_METADATA_ANNOTATION} so that a key dropped from
 * the Tenant is removed from the namespace on the next pass.
 */
import { CORDON_LABEL } from './fences/cordon';
import { PADDOCK, type Labels, type Namespace, type Tenant } from '../kube/types';
import { CLAIM_TOKEN_ANNOTATION } from './claims';
import { jsonEqual, keyPath, type FieldDiff } from './json';
import { MANAGED_METADATA_ANNOTATION, PADDOCK_KEY_PREFIX, POD_SECURITY_ENFORCE_LABEL, POD_SECURITY_VERSION_LABEL } from './names';
import { tenantLabels } from './ownership';
import { hasTenantQuota, QUOTA_LABEL } from './quota/share';

export const DEFAULT_POD_SECURITY_LEVEL = 'baseline';
export const DEFAULT_POD_SECURITY_VERSION = 'latest';

/** The keys Paddock set on a namespace, as recorded in its bookkeeping annotation. */
export interface ManagedKeys {
  labels: string[];
  annotations: string[];
}

/**
 * The Namespace `name` of `tenant` as Paddock wants it: tenant labels, namespaceMetadata, Pod Security
 * labels (default baseline/latest) and the bookkeeping annotation. No ownerReference, by design (see
 * ownership.ts).
 *
 * The tenant's nodeSelector is not written here: the node-selector annotation works only where the
 * PodNodeSelector admission plugin is enabled, which stock clusters do not do. It is applied to every
 * pod by the tenant's admission policies instead (admission-policies.ts). Namespaces that still carry
 * the annotation from earlier releases list it in their bookkeeping annotation, so the next pass
 * removes it like any other key Paddock no longer wants.
 */
export function desiredNamespace(tenant: Tenant, name: string): Namespace {
  const spec = tenant.spec;
  const labels: Labels = {
    ...spec.namespaceMetadata?.labels,
    [POD_SECURITY_ENFORCE_LABEL]: spec.podSecurity?.enforce ?? DEFAULT_POD_SECURITY_LEVEL,
    [POD_SECURITY_VERSION_LABEL]: spec.podSecurity?.version ?? DEFAULT_POD_SECURITY_VERSION,
    ...(spec.cordoned ? { [CORDON_LABEL]: 'true' } : {}),
    ...(hasTenantQuota(tenant) ? { [QUOTA_LABEL]: 'true' } : {}),
    ...tenantLabels(tenant.metadata.name),
  };
  const annotations: Labels = { ...spec.namespaceMetadata?.annotations };
  annotations[MANAGED_METADATA_ANNOTATION] = encodeManagedKeys({
    labels: Object.keys(labels),
    annotations: Object.keys(annotations).filter((k) => k !== MANAGED_METADATA_ANNOTATION),
  });
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels, annotations } };
}

/** The Namespace `name`, as a reference to read it by. */
export function namespaceRef(name: string): Namespace {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
}

/** Stable text: sorted keys, so equal sets always encode to equal strings. */
export function encodeManagedKeys(keys: ManagedKeys): string {
  return JSON.stringify({ labels: [...keys.labels].sort(), annotations: [...keys.annotations].sort() });
}

/** The keys recorded on a live namespace; none when the annotation is absent or unreadable. */
export function decodeManagedKeys(value: string | undefined): ManagedKeys {
  if (value === undefined) return { labels: [], annotations: [] };
  try {
    const parsed = JSON.parse(value) as Partial<ManagedKeys>;
    const strings = (list: unknown) => (Array.isArray(list) ? list.filter((k): k is string => typeof k === 'string') : []);
    return { labels: strings(parsed.labels), annotations: strings(parsed.annotations) };
  } catch {
    return { labels: [], annotations: [] };
  }
}

/**
 * Whether an update of a namespace can change what reconciling its tenant reads or writes: anything but
 * its labels changed (uid, deletion, phase, Paddock's annotations), or a label Paddock owns did — one
 * under `paddock.dev/`, or one the bookkeeping annotation of either state records as Paddock's.
 *
 * Invariant: when false, the two states differ only in labels nobody but others set (`team=x` added by
 * the tenant's owner); the reconciler compares and writes Paddock's keys only (diffNamespace) and reads
 * no other label, so its pass would find what the last one found. Such updates are the common ones on
 * a large cluster, and each would otherwise cost a full reconcile of the tenant.
 */
export function namespaceUpdateMatters(old: Namespace, next: Namespace): boolean {
  const [a, b] = [old.metadata, next.metadata];
  if (a.uid !== b.uid || a.deletionTimestamp !== b.deletionTimestamp || old.status?.phase !== next.status?.phase) return true;
  if (!jsonEqual(a.annotations ?? {}, b.annotations ?? {})) return true;
  const [la, lb] = [a.labels ?? {}, b.labels ?? {}];
  const recorded = new Set(decodeManagedKeys(a.annotations?.[MANAGED_METADATA_ANNOTATION]).labels);
  for (const key of new Set([...Object.keys(la), ...Object.keys(lb)])) {
    if (la[key] === lb[key]) continue;
    if (key.startsWith(PADDOCK_KEY_PREFIX) || recorded.has(key)) return true;
  }
  return false;
}

/**
 * The Paddock-owned keys of `live` that differ from `desired`: each desired key must have its value,
 * and each key Paddock set before but no longer wants must be gone. Foreign keys never count.
 */
export function diffNamespace(live: Namespace, desired: Namespace): FieldDiff[] {
  const previous = decodeManagedKeys(live.metadata.annotations?.[MANAGED_METADATA_ANNOTATION]);
  return [
    ...diffOwnedKeys('metadata.labels', live.metadata.labels, desired.metadata.labels, previous.labels),
    ...diffOwnedKeys('metadata.annotations', live.metadata.annotations, desired.metadata.annotations, previous.annotations),
  ];
}

function diffOwnedKeys(path: string, live: Labels | undefined, desired: Labels | undefined, previous: string[]): FieldDiff[] {
  const want = desired ?? {};
  const have = live ?? {};
  const diffs: FieldDiff[] = [];
  for (const key of Object.keys(want).sort()) {
    if (have[key] !== want[key]) diffs.push({ path: keyPath(path, key), live: have[key], desired: want[key] });
  }
  for (const key of [...previous].sort()) {
    if (!(key in want) && key in have) diffs.push({ path: keyPath(path, key), live: have[key], desired: undefined });
  }
  return diffs;
}

/**
 * The Namespace to write: `live` as it is (resourceVersion, spec, foreign labels and annotations all
 * kept) with Paddock's keys set to `desired` and the keys it owned before but no longer wants removed.
 */
export function mergeNamespace(live: Namespace, desired: Namespace): Namespace {
  const previous = decodeManagedKeys(live.metadata.annotations?.[MANAGED_METADATA_ANNOTATION]);
  return {
    ...live,
    metadata: {
      ...live.metadata,
      labels: mergeOwnedKeys(live.metadata.labels, desired.metadata.labels, previous.labels),
      annotations: mergeOwnedKeys(live.metadata.annotations, desired.metadata.annotations, previous.annotations),
    },
  };
}

function mergeOwnedKeys(live: Labels | undefined, desired: Labels | undefined, previous: string[]): Labels {
  const want = desired ?? {};
  const out: Labels = { ...live };
  for (const key of previous) if (!(key in want)) delete out[key];
  return Object.assign(out, want);
}

/**
 * The Namespace to write when a Tenant with `deletionPolicy: Retain` goes away: the tenant labels, the
 * cordon label, the bookkeeping annotation and the claim token are removed, so the namespace is nobody's paddock any more. Pod Security
 * labels and namespaceMetadata stay, so that releasing never weakens a namespace
 * that still runs workloads.
 */
export function releaseNamespace(live: Namespace): Namespace {
  const labels: Labels = { ...live.metadata.labels };
  delete labels[PADDOCK.tenantLabel];
  delete labels[PADDOCK.managedByLabel];
  delete labels[CORDON_LABEL];
  const annotations: Labels = { ...live.metadata.annotations };
  delete annotations[MANAGED_METADATA_ANNOTATION];
  delete annotations[CLAIM_TOKEN_ANNOTATION];
  return { ...live, metadata: { ...live.metadata, labels, annotations } };
}
