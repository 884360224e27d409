import type { Tenant, TenantSpec } from '../kube/types';
import {
  DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, defaultsPolicy, desiredBindings, needsDefaults, needsRestrictions, restrictionsPolicy,
} from './admission-policies';
import { tenant as tenantNamed } from '../testing/tenants';

const tenant = (spec: Partial<TenantSpec> = {}): Tenant => tenantNamed('oil', spec, undefined, { uid: 'u1' });

describe('which bindings a tenant needs', () => {
  it('needs none when it restricts nothing', () => {
    expect(desiredBindings(tenant())).toEqual([]);
    expect(desiredBindings(tenant({ nodeSelector: {} }))).toEqual([]);
  });

  it('needs the restrictions binding for any restricted kind or registry list', () => {
    expect(needsRestrictions(tenant({ runtimeClasses: { selector: { matchLabels: { a: 'b' } } } }))).toBe(true);
    expect(needsRestrictions(tenant({ containerRegistries: { allowed: ['ghcr.io'] } }))).toBe(true);
    expect(needsDefaults(tenant({ containerRegistries: { allowed: ['ghcr.io'] } }))).toBe(false);
  });

  it('needs both for a default or a nodeSelector', () => {
    expect(desiredBindings(tenant({ storageClasses: { allowed: ['a'], default: 'a' } })).map((b) => b.kind)).toEqual(['ValidatingAdmissionPolicyBinding', 'MutatingAdmissionPolicyBinding']);
    expect(desiredBindings(tenant({ nodeSelector: { pool: 'oil' } })).map((b) => b.metadata.name)).toEqual(['paddock-restrictions-oil', 'paddock-defaults-oil']);
  });
});

describe('bindings', () => {
  const [validating, mutating] = desiredBindings(tenant({ nodeSelector: { pool: 'oil' } }));

  it('bind the shared policy to the tenant\'s namespaces with the Tenant as parameter, denying without it', () => {
    for (const [b, policy] of [[validating!, RESTRICTIONS_POLICY_NAME], [mutating!, DEFAULTS_POLICY_NAME]] as const) {
      expect(b.apiVersion).toBe('admissionregistration.k8s.io/v1');
      expect(b.spec.policyName).toBe(policy);
      expect(b.spec.paramRef).toEqual({ name: 'oil', parameterNotFoundAction: 'Deny' });
      expect(b.spec.matchResources).toEqual({ matchPolicy: 'Equivalent', namespaceSelector: { matchLabels: { 'paddock.dev/tenant': 'oil' } }, objectSelector: {} });
    }
    expect(validating!.spec.validationActions).toEqual(['Deny']);
  });

  it('are labelled for the tenant and controlled by it (so they go with it)', () => {
    expect(validating!.metadata.labels).toEqual({ 'paddock.dev/tenant': 'oil', 'app.kubernetes.io/managed-by': 'paddock' });
    expect(validating!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'Tenant', name: 'oil', uid: 'u1', controller: true })]);
  });
});

describe('policies', () => {
  it('are cluster-scoped, named paddock-*, labelled, fail closed and take the Tenant as parameter', () => {
    for (const p of [restrictionsPolicy(), defaultsPolicy()]) {
      expect(p.metadata.name).toMatch(/^paddock-/);
      expect(p.metadata.namespace).toBeUndefined();
      expect(p.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'paddock' });
      expect(p.spec.failurePolicy).toBe('Fail');
      expect(p.spec.paramKind).toEqual({ apiVersion: 'paddock.dev/v1alpha1', kind: 'Tenant' });
    }
  });

  it('restrictions match PVCs, Ingresses, Pods and ephemeral containers, create and update', () => {
    const rules = (restrictionsPolicy().spec.matchConstraints as { resourceRules: { resources: string[]; operations: string[] }[] }).resourceRules;
    expect(rules.flatMap((r) => r.resources)).toEqual(['persistentvolumeclaims', 'ingresses', 'pods', 'pods/ephemeralcontainers']);
    for (const r of rules) expect(r.operations).toEqual(['CREATE', 'UPDATE']);
  });

  it('every refusal has a message expression and reads an absent tenant field as unrestricted', () => {
    const spec = restrictionsPolicy().spec as { validations: { expression: string; messageExpression: string; reason: string }[] };
    for (const v of spec.validations) {
      expect(v.messageExpression).toBeTruthy();
      expect(v.reason).toBe('Forbidden');
    }
    const text = JSON.stringify(restrictionsPolicy().spec);
    for (const field of ['storageClasses', 'ingressClasses', 'priorityClasses', 'runtimeClasses', 'containerRegistries']) expect(text).toContain(`has(params.spec.${field})`);
  });

  it('defaults only on create, with reinvocation, and never overwrite what the object says — but a tenant\'s one allowed pull policy', () => {
    const spec = defaultsPolicy().spec as { reinvocationPolicy: string; mutations: { patchType: string; jsonPatch: { expression: string }; applyConfiguration: { expression: string } }[]; matchConstraints: { resourceRules: { operations: string[] }[] } };
    expect(spec.reinvocationPolicy).toBe('IfNeeded');
    for (const r of spec.matchConstraints.resourceRules) expect(r.operations).toEqual(['CREATE']);
    // JSON Patch `add`s only where the object names nothing (the `remove` of a stale priority goes with a class added).
    const applied = spec.mutations.filter((m) => m.patchType !== 'JSONPatch');
    expect(applied.map((m) => m.patchType)).toEqual(['ApplyConfiguration']);
    expect(applied[0]!.applyConfiguration.expression).toContain('size(params.spec.imagePullPolicies) == 1');
    for (const m of spec.mutations.filter((m) => m.patchType === 'JSONPatch')) expect(m.jsonPatch.expression).not.toMatch(/op: 'replace'/);
    expect(spec.mutations[0]!.jsonPatch.expression).toContain('!has(object.spec.storageClassName)');
  });

  it('are fresh objects on every call', () => {
    expect(restrictionsPolicy()).not.toBe(restrictionsPolicy());
    expect(restrictionsPolicy()).toEqual(restrictionsPolicy());
  });
});
