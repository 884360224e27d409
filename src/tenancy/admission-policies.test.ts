import { ADMISSION_OBJECTS, admissionObjects, DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from './admission-policies';
import { RESTRICTION_OBJECT_NAME } from './guardrails/tenant-restriction';
import { SHARE_GUARD_NAME } from './quota/share-guard';
import { defaultsPolicy, restrictionsPolicy } from './restrictions/policies';
import { RESTRICTIONS } from './restrictions/registry';

type Rule = { resources: string[]; operations: string[] };
const rules_ = (o: AdmissionObject) => (o.spec.matchConstraints as { resourceRules: Rule[] }).resourceRules;
const rules = (o: AdmissionObject, field: 'matchConstraints' | 'matchResources') => (o.spec[field] as { resourceRules?: Rule[] }).resourceRules;
const objects = admissionObjects();
const byName = (kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name)!;

describe('the admission objects', () => {
  it('are the two policies, their three bindings, each fence and its binding, then the share guard: the same set however many tenants there are', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      `ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`,
      `MutatingAdmissionPolicy/${DEFAULTS_POLICY_NAME}`,
      `ValidatingAdmissionPolicyBinding/${RESTRICTIONS_POLICY_NAME}`,
      `ValidatingAdmissionPolicyBinding/${RESTRICTIONS_POLICY_NAME}-updates`,
      `MutatingAdmissionPolicyBinding/${DEFAULTS_POLICY_NAME}`,
      'ValidatingAdmissionPolicy/paddock-tenant-cordon',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-cordon',
      'ValidatingAdmissionPolicy/paddock-tenant-deletion',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-deletion',
      'ValidatingAdmissionPolicy/paddock-tenant-quota',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-quota',
    ]);
    expect(ADMISSION_OBJECTS.map((o) => `${o.resource.kind}/${o.name}`)).toEqual(objects.map((o) => `${o.kind}/${o.metadata.name}`));
  });

  it("are cluster-scoped, named paddock-*, labelled as Paddock's and no tenant's (nothing cascades from a Tenant)", () => {
    for (const o of objects) {
      expect(o.apiVersion).toBe('admissionregistration.k8s.io/v1');
      expect(o.metadata.name).toMatch(/^paddock-/);
      expect(o.metadata.namespace).toBeUndefined();
      expect(o.metadata.labels).toEqual({ 'app.kubernetes.io/managed-by': 'paddock' });
      expect(o.metadata.ownerReferences).toBeUndefined();
    }
  });

  it("bind the policies to every tenant-labelled namespace, with the request namespace's TenantRestriction as parameter", () => {
    for (const b of objects.filter((o) => o.kind!.endsWith('Binding') && o.spec.paramRef && o.metadata.name !== SHARE_GUARD_NAME)) {
      expect(b.spec.matchResources).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'Exists' }] }, objectSelector: {} });
      expect((b.spec.paramRef as { name: string; namespace?: string }).name).toBe(RESTRICTION_OBJECT_NAME);
      expect(b.spec.paramRef).not.toHaveProperty('namespace');
    }
  });

  it('refuse creates without a TenantRestriction, check updates when it exists, and default only when it exists', () => {
    const creates = byName('ValidatingAdmissionPolicyBinding', RESTRICTIONS_POLICY_NAME);
    const updates = byName('ValidatingAdmissionPolicyBinding', `${RESTRICTIONS_POLICY_NAME}-updates`);
    const defaults = byName('MutatingAdmissionPolicyBinding', DEFAULTS_POLICY_NAME);
    expect([creates, updates, defaults].map((b) => (b.spec.paramRef as { parameterNotFoundAction: string }).parameterNotFoundAction)).toEqual(['Deny', 'Allow', 'Allow']);
    expect(creates.spec.validationActions).toEqual(['Deny']);
    expect(updates.spec.validationActions).toEqual(['Deny']);
    // Between them the two validating bindings match exactly what the policy matches.
    const policy = rules(restrictionsPolicy(), 'matchConstraints')!;
    expect(rules(creates, 'matchResources')).toEqual(policy.map((r) => ({ ...r, operations: ['CREATE'] })));
    expect(rules(updates, 'matchResources')).toEqual(policy.map((r) => ({ ...r, operations: ['UPDATE'] })));
    expect(rules(updates, 'matchResources')!.flatMap((r) => r.resources)).toContain('pods/ephemeralcontainers');
    expect(rules(defaults, 'matchResources')).toBeUndefined();
  });
});

describe('policies', () => {
  it('fail closed and take the TenantRestriction as parameter', () => {
    for (const p of [restrictionsPolicy(), defaultsPolicy()]) {
      expect(p.spec.failurePolicy).toBe('Fail');
      expect(p.spec.paramKind).toEqual({ apiVersion: 'paddock.dev/v1alpha1', kind: 'TenantRestriction' });
    }
  });

  it('restrictions match PVCs, Ingresses, Pods and ephemeral containers, Services, and ResourceClaims and their templates, create and update', () => {
    const matched = rules(restrictionsPolicy(), 'matchConstraints')!;
    expect(matched.flatMap((r) => r.resources)).toEqual(['persistentvolumeclaims', 'ingresses', 'pods', 'pods/ephemeralcontainers', 'services', 'resourceclaims', 'resourceclaimtemplates']);
    for (const r of matched) expect(r.operations).toEqual(['CREATE', 'UPDATE']);
  });

  it('every refusal has a message expression and reads an absent tenant field as unrestricted', () => {
    const spec = restrictionsPolicy().spec as { validations: { expression: string; messageExpression: string; reason: string }[] };
    for (const v of spec.validations) {
      expect(v.messageExpression).toBeTruthy();
      expect(v.reason).toBe('Forbidden');
    }
    const text = JSON.stringify(restrictionsPolicy().spec);
    for (const field of ['storageClasses', 'ingressClasses', 'priorityClasses', 'runtimeClasses', 'volumeAttributesClasses', 'deviceClasses', 'containerRegistries']) expect(text).toContain(`has(params.spec.${field})`);
  });

  it("read the tenant's name and resolved class names from the parameter's spec", () => {
    const text = JSON.stringify([restrictionsPolicy().spec, defaultsPolicy().spec]);
    expect(text).toContain('params.spec.tenant');
    expect(text).toContain('params.spec.?allowed');
    expect(text).not.toMatch(/params\.(\?)?(metadata|status)/);
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

  it('mutate only for a tenant with something to fill in: the match condition is each module\'s', () => {
    const [condition] = defaultsPolicy().spec.matchConditions as { name: string; expression: string }[];
    for (const r of RESTRICTIONS.filter((m) => m.mutating)) expect(condition!.expression).toContain(`(${r.mutating!.when})`);
  });

  it('are fresh objects on every call', () => {
    expect(restrictionsPolicy()).not.toBe(restrictionsPolicy());
    expect(restrictionsPolicy()).toEqual(restrictionsPolicy());
  });
});

describe('fences', () => {
  const policy = (name: string) => byName('ValidatingAdmissionPolicy', name);
  const binding = (name: string) => byName('ValidatingAdmissionPolicyBinding', name);

  it('take no parameter and fail closed', () => {
    for (const name of ['paddock-tenant-cordon', 'paddock-tenant-deletion']) {
      expect(policy(name).spec).not.toHaveProperty('paramKind');
      expect(policy(name).spec.failurePolicy).toBe('Fail');
      expect(binding(name).spec).not.toHaveProperty('paramRef');
      expect(binding(name).spec.policyName).toBe(name);
    }
  });

  it('cordon: creates and updates of namespaced objects in the namespaces of cordoned tenants, but by cluster components', () => {
    const rules = (policy('paddock-tenant-cordon').spec.matchConstraints as { resourceRules: (Rule & { scope: string })[] }).resourceRules;
    expect(rules).toEqual([expect.objectContaining({ operations: ['CREATE', 'UPDATE'], resources: ['*', 'pods/ephemeralcontainers'], scope: 'Namespaced' })]);
    expect(binding('paddock-tenant-cordon').spec.matchResources).toMatchObject({
      namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'Exists' }, { key: 'paddock.dev/cordoned', operator: 'In', values: ['true'] }] },
    });
    const [condition] = policy('paddock-tenant-cordon').spec.matchConditions as { expression: string }[];
    for (const exempt of ['system:masters', 'system:nodes', 'system:kube-controller-manager', 'system:serviceaccount:paddock-system:paddock']) expect(condition!.expression).toContain(exempt);
  });

  it('deletion: deletes of Tenants whose spec prevents it, cluster-scoped', () => {
    const rules = rules_(policy('paddock-tenant-deletion'));
    expect(rules).toEqual([expect.objectContaining({ apiGroups: ['paddock.dev'], operations: ['DELETE'], resources: ['tenants'] })]);
    expect(binding('paddock-tenant-deletion').spec.matchResources).toMatchObject({ namespaceSelector: {} });
  });
});
