import type { NetworkPolicy } from '../../kube/types';
import * as drift from '../drift';
import { defaultNetworkPolicySpec } from './network-policy';
import { alsoAsCached, asStored, desiredNamed, guardrailsOf, tenantWith } from '../testing/guardrails';

const diff = alsoAsCached(drift.diff);
const needsUpdate = alsoAsCached(drift.needsUpdate);

describe('NetworkPolicy defaulting', () => {
  it('implies Ingress when policyTypes is missing', () => {
    expect(defaultNetworkPolicySpec({ podSelector: {} }).policyTypes).toEqual(['Ingress']);
  });

  it('adds Egress when there are egress rules', () => {
    expect(defaultNetworkPolicySpec({ egress: [{}] }).policyTypes).toEqual(['Ingress', 'Egress']);
  });

  it('keeps policyTypes that are set', () => {
    expect(defaultNetworkPolicySpec({ policyTypes: ['Egress'], egress: [{}] }).policyTypes).toEqual(['Egress']);
  });

  it('makes ports without a protocol TCP and keeps the others', () => {
    const spec = defaultNetworkPolicySpec({ ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }], egress: [{ ports: [{ port: 443 }] }] });
    expect(spec.ingress).toEqual([{ ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }]);
    expect(spec.egress).toEqual([{ ports: [{ port: 443, protocol: 'TCP' }] }]);
  });

  it('does not change its input', () => {
    const input = { ingress: [{ ports: [{ port: 80 }] }] };
    defaultNetworkPolicySpec(input);
    expect(input).toEqual({ ingress: [{ ports: [{ port: 80 }] }] });
  });
});

describe('NetworkPolicy guardrails', () => {
  const tenant = tenantWith({ networkPolicies: [{ podSelector: { matchLabels: {} }, egress: [{ ports: [{ port: 53 }], to: [] }] }] });
  const isolation = desiredNamed<NetworkPolicy>(tenant, 'paddock-isolation');
  const policy = desiredNamed<NetworkPolicy>(tenant, 'paddock-policy-0');

  it('admits ingress only from the tenant\'s own namespaces', () => {
    expect(isolation.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'paddock.dev/tenant': 'oil' } } }] }],
    });
  });

  it('leaves the isolation policy out when networkIsolation is false', () => {
    expect(guardrailsOf(tenantWith({ networkIsolation: false })).map((o) => o.metadata.name)).not.toContain('paddock-isolation');
  });

  it('does not share structure with the Tenant', () => {
    const spec = { podSelector: {}, policyTypes: ['Egress'], egress: [{}] };
    const copy = desiredNamed<NetworkPolicy>(tenantWith({ networkPolicies: [spec] }), 'paddock-policy-0');
    expect(copy.spec).toEqual(spec);
    expect(copy.spec).not.toBe(spec);
  });

  it('sees no drift in a NetworkPolicy with policyTypes and port protocols defaulted', () => {
    const live = asStored(policy, (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'TCP' }] }] };
    });
    expect(diff(live, policy)).toEqual([]);
  });

  it('sees no drift in the isolation policy as stored', () => {
    expect(needsUpdate(asStored(isolation), isolation)).toBe(false);
  });

  it('reports a widened isolation policy', () => {
    const live = asStored(isolation, (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress'], ingress: [{}] };
    });
    expect(needsUpdate(live, isolation)).toBe(true);
  });

  it('reports a changed port protocol', () => {
    const live = asStored(policy, (o) => {
      o.spec = { podSelector: {}, policyTypes: ['Ingress', 'Egress'], egress: [{ ports: [{ port: 53, protocol: 'UDP' }] }] };
    });
    expect(diff(live, policy).map((d) => d.path)).toEqual(['spec.egress[0].ports[0].protocol']);
  });
});
