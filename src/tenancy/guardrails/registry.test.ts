import { INDEX } from '../../cache/paddock-cache';
import { apiVersionOf } from '../../kube/resources';
import { PADDOCK } from '../../kube/types';
import * as drift from '../drift';
import type { GuardrailKind } from './kind';
import { GUARDRAILS, guardrailKind } from './registry';
import { alsoAsCached, asStored, tenantWith } from '../testing/guardrails';

const diff = alsoAsCached(drift.diff);
const requiresRecreate = alsoAsCached(drift.requiresRecreate);

/** A tenant that uses every kind. */
const tenant = tenantWith({
  owners: [{ kind: 'User', name: 'alice' }, { kind: 'Group', name: 'oil-devs', role: 'viewer' }],
  resourceQuotas: [{ hard: { cpu: '1000m', pods: 10 } }],
  limitRanges: [{ limits: [{ type: 'Container', max: { cpu: 2 } }] }],
  networkPolicies: [{ podSelector: {}, egress: [{ ports: [{ port: 53 }] }] }],
  additionalRoleBindings: [{ clusterRoleName: 'view', subjects: [{ kind: 'Group', name: 'oil-auditors' }, { kind: 'ServiceAccount', namespace: 'ci', name: 'scanner' }] }],
  storageClasses: { allowed: ['standard'], default: 'standard' },
});

const wantedOf = (kind: GuardrailKind) => kind.desired(tenant, 'oil-p');

describe('the guardrail registry', () => {
  it('lists each kind once', () => {
    expect(new Set(GUARDRAILS.map((k) => k.resource.kind)).size).toBe(GUARDRAILS.length);
    for (const kind of GUARDRAILS) expect(guardrailKind(kind.resource.kind)).toBe(kind);
    expect(guardrailKind('Namespace')).toBeUndefined();
  });
});

describe.each(GUARDRAILS.map((kind) => [kind.resource.kind, kind] as const))('the guardrail kind %s', (_name, kind) => {
  const wanted = wantedOf(kind);

  it('is wanted by a tenant that uses it', () => {
    expect(wanted.length).toBeGreaterThan(0);
  });

  it('wants objects of its resource, labelled for the tenant, with the Tenant as their controller', () => {
    for (const want of wanted) {
      expect([want.apiVersion, want.kind]).toEqual([apiVersionOf(kind.resource), kind.resource.kind]);
      expect(want.metadata.namespace).toBe('oil-p');
      expect(want.metadata.labels).toEqual({ [PADDOCK.tenantLabel]: 'oil', [PADDOCK.managedByLabel]: PADDOCK.managedByValue });
      expect(want.metadata.ownerReferences).toEqual([{ apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant', name: 'oil', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
    }
  });

  it('reads as converged once stored, and so does what the cache keeps of it: no writes when in sync', () => {
    for (const want of wanted) {
      expect(diff(asStored(want), want)).toEqual([]);
      expect(requiresRecreate(asStored(want), want)).toBe(false);
    }
  });

  it('is cached as the reconciler reads it: Paddock\'s objects only, by namespace', () => {
    const request = kind.informer({ informer: undefined as never, name: (n) => n });
    expect(request.labelSelector).toBe(`${PADDOCK.managedByLabel}=${PADDOCK.managedByValue}`);
    expect(Object.keys(request.indexers ?? {})).toEqual([INDEX.namespace]);
  });

  it('asks RBAC for all Paddock does with it, on its resource only', () => {
    const rules = kind.rbac.rules;
    expect(rules.flatMap((r) => r.apiGroups)).toEqual([kind.resource.group]);
    expect(rules.flatMap((r) => r.resources)).toEqual([kind.resource.resource]);
    expect(new Set(rules.flatMap((r) => r.verbs))).toEqual(new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']));
  });
});
