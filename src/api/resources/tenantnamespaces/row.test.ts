import { Interner, namespaceSummary } from '../../../cache/summaries';
import type { Namespace, TenantNamespace } from '../../../kube/types';
import { encodeBody } from '../../request/respond';
import { sameContent } from '../../storage/same-content';
import { restampRow, TenantNamespaceRow } from './row';

const labels = { 'kubernetes.io/metadata.name': 'oil-production', 'paddock.dev/tenant': 'oil' };
const namespaceObject: Namespace = {
  apiVersion: 'v1',
  kind: 'Namespace',
  metadata: { name: 'oil-production', uid: 'ns-uid-1', resourceVersion: '3', creationTimestamp: '2026-01-02T03:04:05Z', labels, annotations: { note: 'not shown' } },
  status: { phase: 'Active' },
};
/** The namespace as the cache holds it: a flat record whose labels are those of its alike namespaces. */
const namespace = namespaceSummary(namespaceObject, new Interner());
const object: TenantNamespace = {
  kind: 'TenantNamespace',
  apiVersion: 'tenancy.paddock.dev/v1alpha1',
  metadata: {
    name: 'oil-production',
    uid: 'ns-uid-1',
    resourceVersion: '7',
    creationTimestamp: '2026-01-02T03:04:05Z',
    deletionTimestamp: undefined,
    labels,
  },
  spec: { tenant: 'oil' },
  status: { phase: 'Active', owners: [{ kind: 'User', name: 'alice', role: 'admin' }] },
};
const audience = new Set(['user:alice']);

describe('a TenantNamespace row', () => {
  const row = TenantNamespaceRow.of(namespace, object, audience).withResourceVersion('7');

  it('is written as the object it stands for, never with its audience', () => {
    expect(JSON.stringify(row)).toBe(JSON.stringify(object));
    expect(JSON.stringify(row)).not.toContain('alice"]');
    expect(JSON.stringify(row)).not.toContain('not shown');
    expect(JSON.stringify({ type: 'ADDED', object: row })).toBe(JSON.stringify({ type: 'ADDED', object }));
  });

  it('reads as the object: kind, apiVersion, metadata, spec and status', () => {
    expect(row.kind).toBe(object.kind);
    expect(row.apiVersion).toBe(object.apiVersion);
    expect(row.metadata).toEqual(object.metadata);
    expect(Object.keys(row.metadata.labels!)).toEqual(Object.keys(labels));
    expect(row.spec).toBe(object.spec);
    expect(row.status).toBe(object.status);
    expect(row.object).toBe(row);
    expect(row.audience).toBe(audience);
  });

  it('is frozen, and a fresh metadata on each read cannot change it', () => {
    expect(Object.isFrozen(row)).toBe(true);
    row.metadata.name = 'gas-production';
    expect(row.metadata.name).toBe('oil-production');
  });

  it('stamped anew changes only its resourceVersion, and compares as the same content', () => {
    const stamped = row.withResourceVersion('8');
    expect(stamped.metadata.resourceVersion).toBe('8');
    expect(row.metadata.resourceVersion).toBe('7');
    expect(stamped.audience).toBe(audience);
    expect(restampRow(row, '9').metadata.resourceVersion).toBe('9');
    expect(sameContent(row, stamped)).toBe(true);
    const other = TenantNamespaceRow.of(namespace, { ...object, status: { ...object.status, phase: 'Terminating' } }, audience);
    expect(sameContent(row, other)).toBe(false);
  });

  it('is written as YAML exactly as JSON writes it', () => {
    const yaml = encodeBody(row, 'application/yaml', false).toString('utf8');
    expect(yaml).toBe(encodeBody(object, 'application/yaml', false).toString('utf8'));
    expect(yaml).toContain('name: oil-production');
    expect(yaml).not.toContain('audience');
  });
});
