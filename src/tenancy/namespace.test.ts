import type { Namespace, Tenant, TenantSpec } from '../kube/types';
import { Interner, namespaceSummary } from '../cache/summaries';
import { deepFreeze } from '../cache/transform';
import { PADDOCK_ANNOTATIONS } from './cache-options';
import * as namespace from './namespace';
import { decodeManagedKeys, desiredNamespace, encodeManagedKeys, mergeNamespace, releaseNamespace } from './namespace';
import { tenant as tenantNamed } from '../testing/tenants';

/** Every drift below is also judged on the summary the cache keeps of the namespace (cache/summaries.ts). */
function diffNamespace(live: Namespace, want: Namespace): ReturnType<typeof namespace.diffNamespace> {
  const whole = namespace.diffNamespace(live, want);
  expect(namespace.diffNamespace(namespaceSummary(deepFreeze(structuredClone(live)), new Interner(), PADDOCK_ANNOTATIONS), want)).toEqual(whole);
  return whole;
}

function tenant(spec: Partial<TenantSpec> = {}): Tenant {
  return tenantNamed('oil', spec, undefined, { uid: 'u1' });
}

/** A namespace as the cluster holds it after Paddock wrote `ns` and others added their keys. */
function live(ns: Namespace, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): Namespace {
  return {
    metadata: {
      name: ns.metadata.name,
      uid: 'ns-uid',
      resourceVersion: '5',
      labels: { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name, ...labels },
      annotations: { ...ns.metadata.annotations, ...annotations },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

/**
 * A namespace written by an earlier release, which also set the node-selector annotation (zone=a) and
 * recorded it among Paddock's keys.
 */
function legacy(ns: Namespace): Namespace {
  const current = live(ns);
  const keys = decodeManagedKeys(current.metadata.annotations?.['paddock.dev/managed-metadata']);
  const annotations: Record<string, string> = { ...current.metadata.annotations, 'scheduler.alpha.kubernetes.io/node-selector': 'zone=a' };
  annotations['paddock.dev/managed-metadata'] = encodeManagedKeys({ ...keys, annotations: [...keys.annotations, 'scheduler.alpha.kubernetes.io/node-selector'] });
  return { ...current, metadata: { ...current.metadata, annotations } };
}

describe('desiredNamespace', () => {
  it('records the keys Paddock sets, so it can remove them later', () => {
    const ns = desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a' }, annotations: { note: 'x' } }, nodeSelector: { zone: 'a' } }), 'oil-p');
    expect(decodeManagedKeys(ns.metadata.annotations?.['paddock.dev/managed-metadata'])).toEqual({
      labels: ['app.kubernetes.io/managed-by', 'paddock.dev/tenant', 'pod-security.kubernetes.io/enforce', 'pod-security.kubernetes.io/enforce-version', 'team'],
      annotations: ['note'],
    });
  });

  it('labels the namespace of a cordoned tenant for the cordon policy, and takes the label off once it is not', () => {
    const cordoned = desiredNamespace(tenant({ cordoned: true }), 'oil-p');
    expect(cordoned.metadata.labels?.['paddock.dev/cordoned']).toBe('true');
    const free = desiredNamespace(tenant({ cordoned: false }), 'oil-p');
    expect(free.metadata.labels).not.toHaveProperty(['paddock.dev/cordoned']);
    expect(diffNamespace(live(cordoned), free).map((d) => d.path)).toContain('metadata.labels[paddock.dev/cordoned]');
  });

  it('no longer writes the node-selector annotation (admission policies apply the nodeSelector)', () => {
    const ns = desiredNamespace(tenant({ nodeSelector: { zone: 'a' } }), 'oil-p');
    expect(ns.metadata.annotations).not.toHaveProperty(['scheduler.alpha.kubernetes.io/node-selector']);
  });
});

describe('diffNamespace', () => {
  const want = desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a' } } }), 'oil-p');

  it('ignores keys that others own', () => {
    expect(diffNamespace(live(want, { 'other.io/x': 'y' }, { 'other.io/z': 'w' }), want)).toEqual([]);
  });

  it('reports a Paddock label that was changed or removed', () => {
    const changed = live(want, { 'pod-security.kubernetes.io/enforce': 'privileged' });
    delete changed.metadata.labels!.team;
    expect(diffNamespace(changed, want)).toEqual([
      { path: 'metadata.labels[pod-security.kubernetes.io/enforce]', live: 'privileged', desired: 'baseline' },
      { path: 'metadata.labels[team]', live: undefined, desired: 'a' },
    ]);
  });

  it('reports a key Paddock set before that the Tenant no longer has', () => {
    const before = legacy(desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a', old: 'x' } } }), 'oil-p'));
    expect(diffNamespace(before, want).map((d) => d.path)).toEqual([
      'metadata.labels[old]',
      'metadata.annotations[paddock.dev/managed-metadata]',
      'metadata.annotations[scheduler.alpha.kubernetes.io/node-selector]',
    ]);
  });

  it('does not claim a key it never set, even if the Tenant once could have', () => {
    const foreign = live(want, { old: 'x' });
    expect(diffNamespace(foreign, want)).toEqual([]);
  });

  it('repairs a namespace whose bookkeeping annotation was mangled', () => {
    const mangled = live(want, {}, { 'paddock.dev/managed-metadata': 'not json' });
    expect(diffNamespace(mangled, want).map((d) => d.path)).toEqual(['metadata.annotations[paddock.dev/managed-metadata]']);
  });
});

describe('mergeNamespace', () => {
  const want = desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a' } } }), 'oil-p');

  it('keeps foreign keys, the resourceVersion and the spec, and sets Paddock\'s keys', () => {
    const current = live(want, { 'other.io/x': 'y', team: 'b' }, { 'other.io/z': 'w' });
    const out = mergeNamespace(current, want);
    expect(out.metadata.labels).toEqual({ ...want.metadata.labels, 'kubernetes.io/metadata.name': 'oil-p', 'other.io/x': 'y' });
    expect(out.metadata.annotations).toEqual({ ...want.metadata.annotations, 'other.io/z': 'w' });
    expect(out.metadata.resourceVersion).toBe('5');
    expect(out.spec).toEqual({ finalizers: ['kubernetes'] });
    expect(diffNamespace(out, want)).toEqual([]);
  });

  it('removes keys Paddock set before and no longer wants, the node-selector annotation of earlier releases included', () => {
    const before = legacy(desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a', old: 'x' } }, nodeSelector: { zone: 'a' } }), 'oil-p'));
    const out = mergeNamespace(before, want);
    expect(out.metadata.labels).not.toHaveProperty('old');
    expect(out.metadata.annotations).not.toHaveProperty(['scheduler.alpha.kubernetes.io/node-selector']);
    expect(diffNamespace(out, want)).toEqual([]);
  });

  it('does not change the live object', () => {
    const current = live(want, { team: 'b' });
    mergeNamespace(current, want);
    expect(current.metadata.labels?.team).toBe('b');
  });
});

describe('releaseNamespace', () => {
  it('removes the tenant labels, the cordon and bookkeeping but keeps Pod Security and everything else', () => {
    const want = desiredNamespace(tenant({ namespaceMetadata: { annotations: { note: 'x' } }, cordoned: true }), 'oil-p');
    const out = releaseNamespace(live(want, { 'other.io/x': 'y' }));
    expect(out.metadata.labels).toEqual({
      'kubernetes.io/metadata.name': 'oil-p',
      'other.io/x': 'y',
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/enforce-version': 'latest',
    });
    expect(out.metadata.annotations).toEqual({ note: 'x' });
  });
});

describe('namespaceUpdateMatters', () => {
  const want = desiredNamespace(tenant({ namespaceMetadata: { labels: { team: 'a' } } }), 'oil-p');
  const before = live(want, { 'other.io/x': 'y' });
  /** `before` changed by `edit`; judged on the objects and on the summaries the cache keeps of them. */
  function matters(edit: (ns: Namespace) => void): boolean {
    const after = structuredClone(before);
    edit(after);
    after.metadata.resourceVersion = '6';
    const whole = namespace.namespaceUpdateMatters(before, after);
    const summary = (ns: Namespace) => namespaceSummary(deepFreeze(structuredClone(ns)), new Interner(), PADDOCK_ANNOTATIONS);
    expect(namespace.namespaceUpdateMatters(summary(before), summary(after))).toBe(whole);
    return whole;
  }

  it('is false when only labels others own changed', () => {
    expect(matters((ns) => (ns.metadata.labels!['other.io/x'] = 'z'))).toBe(false);
    expect(matters((ns) => delete ns.metadata.labels!['other.io/x'])).toBe(false);
    expect(matters((ns) => (ns.metadata.labels!['bench.paddock.dev/seq'] = 'p0-1'))).toBe(false);
    expect(matters(() => {})).toBe(false);
  });

  it('is true when a label Paddock owns changed: one it recorded, or any under paddock.dev/', () => {
    expect(matters((ns) => (ns.metadata.labels!.team = 'b'))).toBe(true);
    expect(matters((ns) => delete ns.metadata.labels!['pod-security.kubernetes.io/enforce'])).toBe(true);
    expect(matters((ns) => (ns.metadata.labels!['paddock.dev/tenant'] = 'gas'))).toBe(true);
    expect(matters((ns) => (ns.metadata.labels!['paddock.dev/cordoned'] = 'true'))).toBe(true);
  });

  it('is true when anything but the labels changed', () => {
    expect(matters((ns) => (ns.metadata.annotations!['paddock.dev/managed-metadata'] = '{}'))).toBe(true);
    expect(matters((ns) => (ns.metadata.deletionTimestamp = '2026-01-01T00:00:00Z'))).toBe(true);
    expect(matters((ns) => (ns.status = { phase: 'Terminating' }))).toBe(true);
    expect(matters((ns) => (ns.metadata.uid = 'other-uid'))).toBe(true);
  });
});
