import type { Tenant, TenantSpec } from '../kube/types';
import { tenant } from '../testing/tenants';
import { desiredState, type ValidDesiredState } from './desired';

const oil = (spec: Partial<TenantSpec> = {}): Tenant => tenant('oil', spec, undefined, { uid: 'uid-1', generation: 1 });

/** Every declared name claimed, plus `selfService` claims. */
function valid(t: Tenant, selfService: string[] = [], declared = (t.spec.namespaces ?? []).map((n) => `${t.metadata.name}-${n}`)): ValidDesiredState {
  const claimed = [...declared.map((name) => ({ name, origin: 'Declared' as const })), ...selfService.map((name) => ({ name, origin: 'SelfService' as const }))];
  const state = desiredState(t, claimed);
  if (!state.valid) throw new Error(`unexpected problems: ${JSON.stringify(state.problems)}`);
  return state;
}

const names = (s: ValidDesiredState) => s.namespaces.map((n) => n.name);

describe('desiredState: namespaces', () => {
  it('creates each declared name as <tenant>-<name>, in spec order', () => {
    expect(names(valid(oil({ namespaces: ['production', 'staging'] })))).toEqual(['oil-production', 'oil-staging']);
  });

  it('adds self-service namespaces after the declared ones, sorted', () => {
    const s = valid(oil({ namespaces: ['production'] }), ['oil-zeta', 'oil-alpha']);
    expect(names(s)).toEqual(['oil-production', 'oil-alpha', 'oil-zeta']);
    expect(s.namespaces.map((n) => n.origin)).toEqual(['declared', 'self-service', 'self-service']);
  });

  it('wants only the declared names that are claimed (quota and ownership are decided by claims)', () => {
    const s = valid(oil({ namespaces: ['a', 'b', 'c'] }), ['oil-x'], ['oil-a', 'oil-c']);
    expect(names(s)).toEqual(['oil-a', 'oil-c', 'oil-x']);
  });

  it('does not want a claimed name that is no longer declared', () => {
    const s = valid(oil({ namespaces: ['a'] }), [], ['oil-a', 'oil-gone']);
    expect(names(s)).toEqual(['oil-a']);
  });

  it('has no limit of its own', () => {
    const s = valid(oil({ namespaces: Array.from({ length: 20 }, (_, i) => `n${i}`), namespaceQuota: 2 }));
    expect(s.namespaces).toHaveLength(20);
  });

  it('ignores self-service names that are declared, repeated or not the tenant\'s', () => {
    const s = valid(oil({ namespaces: ['dev'] }), ['oil-dev', 'oil-x', 'oil-x', 'gas-y', 'oil-', 'oil-BAD']);
    expect(names(s)).toEqual(['oil-dev', 'oil-x']);
  });
});

describe('desiredState: the Namespace object', () => {
  it('carries tenant labels, Pod Security defaults and namespaceMetadata', () => {
    const ns = valid(oil({ namespaces: ['p'], namespaceMetadata: { labels: { team: 'a' }, annotations: { note: 'x' } } })).namespaces[0]!.namespace;
    expect(ns.metadata.labels).toEqual({
      team: 'a',
      'paddock.dev/tenant': 'oil',
      'app.kubernetes.io/managed-by': 'paddock',
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/enforce-version': 'latest',
    });
    expect(ns.metadata.annotations).toMatchObject({ note: 'x' });
  });

  it('uses the Tenant\'s Pod Security level and version', () => {
    const ns = valid(oil({ namespaces: ['p'], podSecurity: { enforce: 'restricted', version: 'v1.30' } })).namespaces[0]!.namespace;
    expect(ns.metadata.labels).toMatchObject({ 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.30' });
  });

  it('writes no node-selector annotation: admission policies apply the nodeSelector to pods', () => {
    const ns = valid(oil({ namespaces: ['p'], nodeSelector: { zone: 'a', 'kubernetes.io/os': 'linux' } })).namespaces[0]!.namespace;
    expect(ns.metadata.annotations).not.toHaveProperty(['scheduler.alpha.kubernetes.io/node-selector']);
  });

  it('gives the Namespace no ownerReference, so a deleted CRD never cascades into namespaces', () => {
    const ns = valid(oil({ namespaces: ['p'] })).namespaces[0]!.namespace;
    expect(ns.metadata.ownerReferences).toBeUndefined();
  });
});

/** What each kind wants is tested beside it (guardrails/*.test.ts); here, what holds for all of them. */
describe('desiredState: guardrails', () => {
  const full = oil({
    namespaces: ['p'],
    owners: [
      { kind: 'User', name: 'alice' },
      { kind: 'Group', name: 'oil-devs', role: 'operator' },
      { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'operator' },
    ],
    resourceQuotas: [{ hard: { cpu: 8, memory: '16Gi' } }, { hard: { pods: 10 }, scopes: ['BestEffort'] }],
    limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '500m' } }] }],
    networkPolicies: [{ podSelector: {}, policyTypes: ['Egress'], egress: [{}] }],
  });
  const guardrails = valid(full).namespaces[0]!.guardrails;

  it('names every guardrail after the Tenant item it comes from, in a fixed order', () => {
    expect(guardrails.map((g) => `${g.kind}/${g.metadata.name}`)).toEqual([
      'TenantRestriction/paddock-restrictions',
      'ResourceQuota/paddock-quota-0',
      'ResourceQuota/paddock-quota-1',
      'LimitRange/paddock-limits-0',
      'NetworkPolicy/paddock-isolation',
      'NetworkPolicy/paddock-policy-0',
      'RoleBinding/paddock:tenant-admin',
      'RoleBinding/paddock:tenant-operator',
    ]);
  });

  it('labels every guardrail and makes the Tenant its controller', () => {
    for (const g of guardrails) {
      expect(g.metadata.namespace).toBe('oil-p');
      expect(g.metadata.labels).toEqual({ 'paddock.dev/tenant': 'oil', 'app.kubernetes.io/managed-by': 'paddock' });
      expect(g.metadata.ownerReferences).toEqual([
        { apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', name: 'oil', uid: 'uid-1', controller: true, blockOwnerDeletion: true },
      ]);
    }
  });
});

describe('desiredState: invalid Tenants', () => {
  it('returns the problems instead of objects, naming the field', () => {
    const state = desiredState(oil({ podSecurity: { version: 'v2' } }), []);
    expect(state.valid).toBe(false);
    if (!state.valid) expect(state.problems.map((p) => p.field)).toEqual(['spec.podSecurity.version']);
  });

  it('does not throw on garbage', () => {
    for (const bad of [{}, { metadata: {} }, { metadata: { name: 'x' }, spec: null }, { metadata: { name: 'x', uid: 'u' }, spec: { owners: 'me' } }]) {
      expect(() => desiredState(bad as unknown as Tenant, [])).not.toThrow();
      expect(desiredState(bad as unknown as Tenant, []).valid).toBe(false);
    }
  });
});
