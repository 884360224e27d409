import { INDEX } from '../cache/paddock-cache';
import { Interner, namespaceSummary } from '../cache/summaries';
import type { Namespace, Tenant } from '../kube/types';
import { PADDOCK_ANNOTATIONS, TENANCY_CACHE } from './cache-options';
import { tenant as tenantNamed } from '../testing/tenants';

describe('the cached Namespace (namespaceSummary with Paddock\'s annotations)', () => {
  const ns = (): Namespace => ({
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: 'oil-a', uid: 'u', resourceVersion: '3', creationTimestamp: '2026-01-01T00:00:00Z', finalizers: ['f'],
      labels: { 'kubernetes.io/metadata.name': 'oil-a', 'paddock.dev/tenant': 'oil', team: 'x' },
      annotations: {
        'paddock.dev/managed-metadata': JSON.stringify({ labels: ['paddock.dev/tenant', 'team'], annotations: ['note'] }),
        'paddock.dev/claim-token': 'tok',
        note: 'mine',
        'kubectl.kubernetes.io/last-applied-configuration': '{"big":true}',
      },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating', conditions: [{ type: 'NamespaceDeletionContentFailure' }] },
  });

  it('keeps every label, Paddock\'s annotations (not the claim token) and the keys it recorded, and the phase', () => {
    const s = namespaceSummary(ns(), new Interner(), PADDOCK_ANNOTATIONS);
    expect(JSON.parse(JSON.stringify(s))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'oil-a', uid: 'u', resourceVersion: '3', creationTimestamp: '2026-01-01T00:00:00Z',
        labels: ns().metadata.labels,
        annotations: { 'paddock.dev/managed-metadata': ns().metadata.annotations!['paddock.dev/managed-metadata'], note: 'mine' },
      },
      status: { phase: 'Terminating' },
    });
  });

  it('keeps the deletion timestamp and leaves out annotations when none are Paddock\'s', () => {
    const n = ns();
    n.metadata.deletionTimestamp = '2026-01-02T00:00:00Z';
    n.metadata.annotations = { other: 'x' };
    const s = namespaceSummary(n, new Interner(), PADDOCK_ANNOTATIONS);
    expect(s.metadata.deletionTimestamp).toBe('2026-01-02T00:00:00Z');
    expect(s.metadata.annotations).toBeUndefined();
  });
});

describe('the Tenant indexes', () => {
  const tenant: Tenant = tenantNamed('oil', { owners: [{ kind: 'User', name: 'alice' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer' }], namespaces: ['a', 'b'] });

  it('indexes a Tenant under its owners\' subject keys', () => {
    expect(TENANCY_CACHE.tenantIndexers[INDEX.owner]!(tenant)).toEqual(['User:alice', 'ServiceAccount:ci/deployer']);
  });
});
