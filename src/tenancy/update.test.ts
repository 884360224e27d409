import type { KubeObject, ResourceQuota } from '../kube/types';
import { mergeObject, staleObjects } from './update';

const ours = { apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', name: 'oil', uid: 'u1', controller: true, blockOwnerDeletion: true };
const labels = { 'paddock.dev/tenant': 'oil', 'app.kubernetes.io/managed-by': 'paddock' };

describe('mergeObject', () => {
  const desired: ResourceQuota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'paddock-quota-0', namespace: 'oil-p', labels, ownerReferences: [ours] },
    spec: { hard: { cpu: '2' } },
  };

  it('writes the desired content over the live object, keeping its resourceVersion', () => {
    const live: ResourceQuota = {
      metadata: { name: 'paddock-quota-0', namespace: 'oil-p', resourceVersion: '42', uid: 'rq', labels, ownerReferences: [ours] },
      spec: { hard: { cpu: '100' } },
      status: { used: { cpu: '1' } },
    };
    const out = mergeObject(live, desired);
    expect(out.spec).toEqual({ hard: { cpu: '2' } });
    expect(out.metadata).toMatchObject({ resourceVersion: '42', uid: 'rq' });
    expect(out.kind).toBe('ResourceQuota');
  });

  it('keeps labels and annotations others added, and restores Paddock\'s', () => {
    const live: ResourceQuota = {
      metadata: { name: 'paddock-quota-0', namespace: 'oil-p', labels: { 'paddock.dev/tenant': 'gas', team: 'x' }, annotations: { note: 'y' } },
    };
    const out = mergeObject(live, desired);
    expect(out.metadata.labels).toEqual({ ...labels, team: 'x' });
    expect(out.metadata.annotations).toEqual({ note: 'y' });
  });

  it('replaces a foreign controller reference with the Tenant, keeping other owners', () => {
    const other = { apiVersion: 'v1', kind: 'ConfigMap', name: 'c', uid: 'c1' };
    const thief = { apiVersion: 'x/v1', kind: 'Thing', name: 't', uid: 't1', controller: true };
    const stale = { ...ours, blockOwnerDeletion: false };
    const live: ResourceQuota = { metadata: { name: 'paddock-quota-0', namespace: 'oil-p', ownerReferences: [other, thief, stale] } };
    expect(mergeObject(live, desired).metadata.ownerReferences).toEqual([other, ours]);
  });
});

describe('staleObjects', () => {
  const obj = (name: string, extra: Record<string, string> = labels): KubeObject => ({ metadata: { name, namespace: 'oil-p', labels: extra } });
  const desired: KubeObject[] = [{ kind: 'ResourceQuota', metadata: { name: 'paddock-quota-0', namespace: 'oil-p' } }];

  it('finds Paddock\'s objects of the tenant that are no longer desired', () => {
    const live = [obj('paddock-quota-0'), obj('paddock-quota-1')];
    expect(staleObjects('ResourceQuota', live, desired, 'oil').map((o) => o.metadata.name)).toEqual(['paddock-quota-1']);
  });

  it('never touches objects of others or of another tenant', () => {
    const live = [obj('mine'), obj('gas', { ...labels, 'paddock.dev/tenant': 'gas' }), obj('hand-made', { 'paddock.dev/tenant': 'oil' })];
    expect(staleObjects('ResourceQuota', live, desired, 'oil').map((o) => o.metadata.name)).toEqual(['mine']);
  });

  it('matches desired objects of the same kind only', () => {
    const live = [obj('paddock-quota-0')];
    expect(staleObjects('LimitRange', live, desired, 'oil')).toHaveLength(1);
  });
});
