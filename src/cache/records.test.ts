import type { Namespace, ResourceQuota } from '../kube/types';
import { type NamespaceRecord, storedVersion, versionText } from './records';
import { guardrailSummary, Interner, namespaceSummary } from './summaries';
import { prepareForCache } from './transform';

const quota = (rv: string): ResourceQuota => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'paddock-quota-0', namespace: 'oil-a', resourceVersion: rv, labels: { a: 'b' } },
  spec: { hard: { pods: '10' } },
});

describe('flat records', () => {
  it('keep a canonical resourceVersion as a number and read it back as the same text', () => {
    for (const rv of ['1', '7', '123456789', '999999999999999']) {
      expect(typeof storedVersion(rv)).toBe('number');
      expect(versionText(storedVersion(rv))).toBe(rv);
    }
  });

  it('keep any other resourceVersion as it came (they are opaque)', () => {
    for (const rv of ['0', '007', '1e3', '12345678901234567890', 'abc', '', ' 1']) expect(storedVersion(rv)).toBe(rv);
    expect(storedVersion(undefined)).toBeUndefined();
  });

  it('read and serialize like the object they summarize, with nothing of it but its fields inside them', () => {
    const record = prepareForCache(quota('42'), (o) => guardrailSummary(o, new Interner()));
    expect(record.metadata.resourceVersion).toBe('42');
    expect(record.kind).toBe('ResourceQuota');
    expect(record.apiVersion).toBe('v1');
    expect(JSON.parse(JSON.stringify(record))).toEqual({ ...quota('42'), metadata: { ...quota('42').metadata } });
    expect(Object.keys(record)).not.toContain('metadata');
    expect(Object.keys(record)).not.toContain('kind');
    expect(Object.isFrozen(record)).toBe(true);
  });

  it('keep the class of their kind: records of two kinds never share apiVersion or kind', () => {
    const pool = new Interner();
    const q = guardrailSummary(quota('1'), pool);
    const l = guardrailSummary({ ...quota('1'), kind: 'LimitRange' }, pool);
    const p = guardrailSummary({ ...quota('1'), apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy' }, pool);
    expect([q.kind, l.kind, p.kind, p.apiVersion]).toEqual(['ResourceQuota', 'LimitRange', 'NetworkPolicy', 'networking.k8s.io/v1']);
  });

  it('read a binding\'s content by its names and serialize it, not a spec', () => {
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding',
      metadata: { name: 'paddock-owner', namespace: 'oil-a', resourceVersion: '9' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
      subjects: [{ kind: 'User', name: 'alice' }],
    };
    const record = guardrailSummary(binding, new Interner()) as typeof binding & { spec?: unknown };
    expect(record.roleRef).toEqual(binding.roleRef);
    expect(record.subjects).toEqual(binding.subjects);
    expect(record.spec).toBeUndefined();
    expect(JSON.parse(JSON.stringify(record))).toEqual(binding);
  });

  it('share an unchanged record with the version before it, and only then', () => {
    const pool = new Interner();
    const first = prepareForCache(quota('5'), (o) => guardrailSummary(o, pool));
    expect(prepareForCache(quota('5'), (o) => guardrailSummary(o, pool), first)).toBe(first);
    const moved = prepareForCache(quota('6'), (o) => guardrailSummary(o, pool), first);
    expect(moved).not.toBe(first);
    expect(moved.spec).toBe(first.spec);
  });

  it('serialize a Namespace with its metadata and phase', () => {
    const ns: Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'oil-a', uid: 'u', resourceVersion: '3', labels: { x: 'y' } }, status: { phase: 'Active' } };
    const record = namespaceSummary(ns, new Interner());
    expect(JSON.parse(JSON.stringify(record))).toEqual(ns);
    expect(record.metadata.uid).toBe('u');
  });

  it('share one labels object between alike namespaces, and read each one\'s labels with its own name, in order', () => {
    const pool = new Interner();
    const ns = (name: string, labels: Record<string, string>): Namespace => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    const labelled = (name: string) => ({ a: 'x', 'kubernetes.io/metadata.name': name, 'paddock.dev/tenant': 'oil' });
    const [a, b] = ['oil-a', 'oil-b'].map((n) => namespaceSummary(ns(n, labelled(n)), pool) as unknown as NamespaceRecord);
    expect(a!.labelsOfAlike).toBe(b!.labelsOfAlike);
    expect(JSON.stringify(a!.metadata.labels)).toBe(JSON.stringify(labelled('oil-a')));
    expect(JSON.stringify(b)).toContain(JSON.stringify(labelled('oil-b')));
    expect(Object.isFrozen(a!.metadata.labels)).toBe(true);
    // A name label that is not the name (kube-apiserver would not allow it), or none: the labels as they are.
    const odd = namespaceSummary(ns('oil-c', labelled('other')), pool);
    expect(odd.metadata.labels).toEqual(labelled('other'));
    expect(namespaceSummary(ns('oil-d', { team: 'x' }), pool).metadata.labels).toEqual({ team: 'x' });
  });
});
