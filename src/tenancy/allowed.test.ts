import { nodeSummary } from '../cache/paddock-cache';
import type { KubeObject, Tenant, TenantSpec } from '../kube/types';
import { allowedClassNames, mayUseClass, mayUseNode } from './allowed';
import { tenant as tenantNamed } from '../testing/tenants';

const tenant = (spec: Partial<TenantSpec>): Tenant => tenantNamed('oil', spec);
const obj = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, labels } });
const classes = [obj('standard'), obj('gold-ssd', { tier: 'gold' }), obj('silver', { tier: 'silver' }), obj('fast', { tier: 'gold', zone: 'a' })];

describe('what a tenant may use', () => {
  it('allows every class when the tenant does not restrict the kind', () => {
    expect(allowedClassNames(tenant({}), 'storageClasses', classes)).toEqual(['fast', 'gold-ssd', 'silver', 'standard']);
  });

  it('allows the union of listed names and the selector', () => {
    const t = tenant({ storageClasses: { allowed: ['standard'], selector: { matchLabels: { tier: 'gold' } } } });
    expect(allowedClassNames(t, 'storageClasses', classes)).toEqual(['fast', 'gold-ssd', 'standard']);
  });

  it('supports matchExpressions', () => {
    const t = tenant({ storageClasses: { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['silver'] }] } } });
    expect(allowedClassNames(t, 'storageClasses', classes)).toEqual(['silver']);
  });

  it('allows only the listed names with no selector, and nothing more for an invalid selector', () => {
    expect(allowedClassNames(tenant({ storageClasses: { allowed: ['silver'] } }), 'storageClasses', classes)).toEqual(['silver']);
    const bad = tenant({ storageClasses: { allowed: ['silver'], selector: { matchExpressions: [{ key: 'tier', operator: 'Bogus' }] } } });
    expect(allowedClassNames(bad, 'storageClasses', classes)).toEqual(['silver']);
  });

  it('restricts each kind on its own', () => {
    const t = tenant({ ingressClasses: { allowed: [] } });
    expect(mayUseClass(t, 'ingressClasses', obj('nginx'))).toBe(false);
    expect(mayUseClass(t, 'priorityClasses', obj('high'))).toBe(true);
  });

  it('gives a tenant the nodes carrying every label of its nodeSelector, and none without one', () => {
    const t = tenant({ nodeSelector: { pool: 'gpu', 'kubernetes.io/os': 'linux' } });
    expect(mayUseNode(t, obj('n1', { pool: 'gpu', 'kubernetes.io/os': 'linux', extra: 'x' }))).toBe(true);
    expect(mayUseNode(t, obj('n2', { pool: 'cpu', 'kubernetes.io/os': 'linux' }))).toBe(false);
    expect(mayUseNode(tenant({}), obj('n1', { pool: 'gpu' }))).toBe(false);
  });
});

describe('nodeSummary', () => {
  it('keeps what the Node table prints and drops images and heartbeat times', () => {
    const n = nodeSummary({
      metadata: { name: 'n1' },
      spec: { unschedulable: true, podCIDR: '10.0.0.0/24', providerID: 'x' },
      status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: 't1', lastTransitionTime: 't0' }], images: [{ names: ['a'] }], nodeInfo: { kubeletVersion: 'v1.36.3' } },
    } as KubeObject) as KubeObject & { status: Record<string, unknown>; spec: Record<string, unknown> };
    expect(n.status.images).toBeUndefined();
    expect(n.status.conditions).toEqual([{ type: 'Ready', status: 'True', lastTransitionTime: 't0' }]);
    expect(n.status.nodeInfo).toEqual({ kubeletVersion: 'v1.36.3' });
    expect(n.spec).toEqual({ unschedulable: true, podCIDR: '10.0.0.0/24' });
  });
});
