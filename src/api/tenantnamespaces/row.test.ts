import type { TenantNamespace } from '../../kube/types';
import { encodeBody } from '../request/respond';
import { sameContent } from '../serving/same-content';
import { restampRow, TenantNamespaceRow } from './row';

const object: TenantNamespace = {
  kind: 'TenantNamespace',
  apiVersion: 'tenancy.paddock.dev/v1alpha1',
  metadata: {
    name: 'oil-production',
    uid: 'ns-uid-1',
    resourceVersion: '7',
    creationTimestamp: '2026-01-02T03:04:05Z',
    deletionTimestamp: undefined,
    labels: { 'paddock.dev/tenant': 'oil' },
  },
  spec: { tenant: 'oil' },
  status: { phase: 'Active', owners: [{ kind: 'User', name: 'alice', role: 'admin' }] },
};
const audience = new Set(['user:alice']);

describe('a TenantNamespace row', () => {
  const row = TenantNamespaceRow.of(object, audience);

  it('is written as the object it stands for, never with its audience', () => {
    expect(JSON.stringify(row)).toBe(JSON.stringify(object));
    expect(JSON.stringify(row)).not.toContain('alice"]');
    expect(JSON.stringify({ type: 'ADDED', object: row })).toBe(JSON.stringify({ type: 'ADDED', object }));
  });

  it('reads as the object: kind, apiVersion, metadata, spec and status', () => {
    expect(row.kind).toBe(object.kind);
    expect(row.apiVersion).toBe(object.apiVersion);
    expect(row.metadata).toEqual(object.metadata);
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
    const other = TenantNamespaceRow.of({ ...object, status: { ...object.status, phase: 'Terminating' } }, audience);
    expect(sameContent(row, other)).toBe(false);
  });

  it('is written as YAML exactly as JSON writes it', () => {
    const yaml = encodeBody(row, 'application/yaml', false).toString('utf8');
    expect(yaml).toBe(encodeBody(object, 'application/yaml', false).toString('utf8'));
    expect(yaml).toContain('name: oil-production');
    expect(yaml).not.toContain('audience');
  });
});
