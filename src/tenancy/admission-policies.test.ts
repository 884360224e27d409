import { ADMISSION_OBJECTS, admissionObjects, DEFAULTS_POLICY_NAME, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from './admission-policies';
import { GUARDRAILS } from './guardrails/registry';
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
  it('are the two policies, their four bindings, each fence and its binding, then the share guard and its two: the same set however many tenants there are', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual([
      // First the fence the narrowed bindings leave Paddock's labelled objects to; each narrowed binding
      // before the binding that gives its kinds up.
      'ValidatingAdmissionPolicy/paddock-managed-objects',
      'ValidatingAdmissionPolicyBinding/paddock-managed-objects',
      `ValidatingAdmissionPolicy/${RESTRICTIONS_POLICY_NAME}`,
      `MutatingAdmissionPolicy/${DEFAULTS_POLICY_NAME}`,
      `ValidatingAdmissionPolicyBinding/${RESTRICTIONS_POLICY_NAME}-narrowed`,
      `ValidatingAdmissionPolicyBinding/${RESTRICTIONS_POLICY_NAME}`,
      `ValidatingAdmissionPolicyBinding/${RESTRICTIONS_POLICY_NAME}-updates`,
      `MutatingAdmissionPolicyBinding/${DEFAULTS_POLICY_NAME}`,
      'ValidatingAdmissionPolicy/paddock-tenant-cordon',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-cordon',
      'ValidatingAdmissionPolicy/paddock-tenant-deletion',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-deletion',
      'ValidatingAdmissionPolicy/paddock-tenant-hostnames',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-hostnames',
      'ValidatingAdmissionPolicy/paddock-tenant-quota',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-quota-narrowed',
      'ValidatingAdmissionPolicyBinding/paddock-tenant-quota',
    ]);
    expect(ADMISSION_OBJECTS.map((o) => `${o.resource.kind}/${o.name}`)).toEqual(objects.map((o) => `${o.kind}/${o.metadata.name}`));
  });

  // kube-apiserver compiles a policy's variables in order, each seeing only those before it, and refuses the
  // whole policy for a read of anything else (as for a fence that reads a request variable without the
  // variables it is written with).
  it('each read only the variables they declare, each declared before what reads it', () => {
    const reads = (text: string) => [...text.matchAll(/variables\.(\w+)/g)].map((m) => m[1]!);
    for (const o of objects.filter((x) => x.kind === 'ValidatingAdmissionPolicy' || x.kind === 'MutatingAdmissionPolicy')) {
      const declared = new Set<string>();
      for (const v of (o.spec.variables ?? []) as { name: string; expression: string }[]) {
        expect({ policy: o.metadata.name, undeclared: reads(v.expression).filter((n) => !declared.has(n)) }).toEqual({ policy: o.metadata.name, undeclared: [] });
        declared.add(v.name);
      }
      const { variables: _variables, ...rest } = o.spec;
      expect({ policy: o.metadata.name, undeclared: reads(JSON.stringify(rest)).filter((n) => !declared.has(n)) }).toEqual({ policy: o.metadata.name, undeclared: [] });
    }
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
    for (const b of objects.filter((o) => o.kind!.endsWith('Binding') && o.spec.paramRef && o.metadata.name !== 'paddock-tenant-hostnames' && !o.metadata.name.startsWith(SHARE_GUARD_NAME))) {
      expect(b.spec.matchResources).toMatchObject({ matchPolicy: 'Equivalent', namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'Exists' }] }, objectSelector: {} });
      expect((b.spec.paramRef as { name: string; namespace?: string }).name).toBe(RESTRICTION_OBJECT_NAME);
      expect(b.spec.paramRef).not.toHaveProperty('namespace');
    }
  });

  it('bind the hostnames fence to every tenant-labelled namespace with the one hostname ledger as parameter, absent read as empty', () => {
    const policy = byName('ValidatingAdmissionPolicy', 'paddock-tenant-hostnames');
    const binding = byName('ValidatingAdmissionPolicyBinding', 'paddock-tenant-hostnames');
    expect(policy.spec.paramKind).toEqual({ apiVersion: 'paddock.dev/v1alpha1', kind: 'TenantRestriction' });
    expect(binding.spec.paramRef).toEqual({ name: 'paddock-hostnames', namespace: 'paddock-system', parameterNotFoundAction: 'Allow' });
    expect(binding.spec.matchResources).toMatchObject({ namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'Exists' }] } });
    expect(rules(policy, 'matchConstraints')!.flatMap((r) => r.resources)).toEqual(['ingresses', 'gateways', 'listenersets', 'httproutes', 'grpcroutes', 'tlsroutes']);
  });

  it('refuse creates without a TenantRestriction, check updates when it exists, and default only when it exists', () => {
    const creates = byName('ValidatingAdmissionPolicyBinding', RESTRICTIONS_POLICY_NAME);
    const updates = byName('ValidatingAdmissionPolicyBinding', `${RESTRICTIONS_POLICY_NAME}-updates`);
    const defaults = byName('MutatingAdmissionPolicyBinding', DEFAULTS_POLICY_NAME);
    expect([creates, updates, defaults].map((b) => (b.spec.paramRef as { parameterNotFoundAction: string }).parameterNotFoundAction)).toEqual(['Deny', 'Allow', 'Allow']);
    expect(creates.spec.validationActions).toEqual(['Deny']);
    expect(updates.spec.validationActions).toEqual(['Deny']);
    // Between them the validating bindings match exactly what the policy matches; creates of a guardrail
    // kind (NetworkPolicies) go to a binding of their own, for objects without Paddock's label only.
    const policy = rules(restrictionsPolicy(), 'matchConstraints')!;
    const narrowed = byName('ValidatingAdmissionPolicyBinding', `${RESTRICTIONS_POLICY_NAME}-narrowed`);
    expect(narrowed.spec.paramRef).toEqual(creates.spec.paramRef);
    expect(rules(narrowed, 'matchResources')!.flatMap((r) => r.resources)).toEqual(['networkpolicies']);
    expect((narrowed.spec.matchResources as { objectSelector: unknown }).objectSelector).toEqual({ matchExpressions: [{ key: 'app.kubernetes.io/managed-by', operator: 'NotIn', values: ['paddock'] }] });
    expect((creates.spec.matchResources as { objectSelector: unknown }).objectSelector).toEqual({});
    const createRules = [...rules(creates, 'matchResources')!, ...rules(narrowed, 'matchResources')!];
    expect(createRules).toHaveLength(policy.length);
    expect(createRules).toEqual(expect.arrayContaining(policy.map((r) => ({ ...r, operations: ['CREATE'] }))));
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

  it('restrictions match PVCs, Ingresses, Pods and ephemeral containers, Services, ResourceClaims and their templates, NetworkPolicies, and Gateway API\'s Gateways, ListenerSets and routes, create and update', () => {
    const matched = rules(restrictionsPolicy(), 'matchConstraints')!;
    expect(matched.flatMap((r) => r.resources)).toEqual([
      'persistentvolumeclaims', 'ingresses', 'pods', 'pods/ephemeralcontainers', 'services', 'resourceclaims', 'resourceclaimtemplates', 'networkpolicies',
      'gateways', 'listenersets', 'httproutes', 'grpcroutes', 'tlsroutes',
    ]);
    for (const r of matched) expect(r.operations).toEqual(['CREATE', 'UPDATE']);
  });

  it('every refusal has a message expression and reads an absent tenant field as unrestricted', () => {
    const spec = restrictionsPolicy().spec as { validations: { expression: string; messageExpression: string; reason: string }[] };
    for (const v of spec.validations) {
      expect(v.messageExpression).toBeTruthy();
      expect(v.reason).toBe('Forbidden');
    }
    const text = JSON.stringify(restrictionsPolicy().spec);
    for (const field of ['storageClasses', 'ingressClasses', 'priorityClasses', 'runtimeClasses', 'volumeAttributesClasses', 'deviceClasses', 'gatewayClasses', 'hostnames', 'containerRegistries']) expect(text).toContain(`has(params.spec.${field})`);
  });

  it("read the tenant's name and resolved class names from the parameter's spec", () => {
    const text = JSON.stringify([restrictionsPolicy().spec, defaultsPolicy().spec]);
    expect(text).toContain('params.spec.tenant');
    expect(text).toContain('params.spec.?allowed');
    expect(text).not.toMatch(/params\.(\?)?(metadata|status)/);
  });

  it('defaults only on create, with reinvocation, and never overwrite what the object says — but a tenant\'s one allowed pull policy', () => {
    const spec = defaultsPolicy().spec as { reinvocationPolicy: string; mutations: { patchType: string; jsonPatch: { expression: string } }[]; matchConstraints: { resourceRules: { operations: string[] }[] } };
    expect(spec.reinvocationPolicy).toBe('IfNeeded');
    for (const r of spec.matchConstraints.resourceRules) expect(r.operations).toEqual(['CREATE']);
    // Only JSON Patch `add`s, each emitted only where it changes something (an empty patch leaves the object
    // as it was, so kube-apiserver has no reason to run the mutating chain again); the one that may set a
    // member the object names is the pull policy, and only where it differs from the tenant's one policy.
    expect(spec.mutations.map((m) => m.patchType)).toEqual(['JSONPatch']);
    const patch = spec.mutations[0]!.jsonPatch.expression;
    expect(patch).not.toMatch(/'op': dyn\('replace'\)/);
    expect(patch).toContain("x.?imagePullPolicy.orValue('') != params.spec.imagePullPolicies[0]");
    expect(patch).toContain('!has(object.spec.storageClassName)');
  });

  it('mutate only when there is something to fill in: a tenant with a default (each module\'s condition), and a patch that is not empty', () => {
    // A mutation that runs at all makes kube-apiserver run the whole mutating chain a second time, even
    // when its patch is empty: the condition reads the very list the mutation applies.
    const spec = defaultsPolicy().spec as { matchConditions: { name: string; expression: string }[]; mutations: { jsonPatch: { expression: string } }[] };
    const [condition, ...more] = spec.matchConditions;
    expect(more).toEqual([]);
    const mutating = RESTRICTIONS.flatMap((m) => (m.mutating ? [m.mutating] : []));
    const patches = mutating.map((m) => `(${m.patches})`).join(' + ');
    expect(condition!.expression).toBe(`(${mutating.map((m) => `(${m.when})`).join(' || ')}) && size(${patches}) > 0`);
    expect(spec.mutations[0]!.jsonPatch.expression).toBe(`(${patches}).map(p, JSONPatch{op: string(p.op), path: string(p.path), ?value: p.?value})`);
    expect(condition!.expression).not.toContain('JSONPatch');
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
    for (const name of ['paddock-tenant-cordon', 'paddock-tenant-deletion', 'paddock-managed-objects']) {
      expect(policy(name).spec).not.toHaveProperty('paramKind');
      expect(policy(name).spec.failurePolicy).toBe('Fail');
      expect(binding(name).spec).not.toHaveProperty('paramRef');
      expect(binding(name).spec.policyName).toBe(name);
    }
  });

  it('cordon: creates and updates of namespaced objects in the namespaces of cordoned tenants, but by cluster components', () => {
    const rules = (policy('paddock-tenant-cordon').spec.matchConstraints as { resourceRules: (Rule & { scope: string })[] }).resourceRules;
    expect(rules).toEqual([expect.objectContaining({ operations: ['CREATE', 'UPDATE'], resources: ['*', '*/scale', 'pods/ephemeralcontainers'], scope: 'Namespaced' })]);
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

  it("managed objects: every write of an object of a guardrail kind labelled as Paddock's, in tenant namespaces, but by Paddock, the controllers that remove it and system:masters", () => {
    const rules = (policy('paddock-managed-objects').spec.matchConstraints as { resourceRules: (Rule & { apiGroups: string[] })[] }).resourceRules;
    expect(rules.map((r) => `${r.apiGroups[0]}/${r.resources.join(',')}`)).toEqual([...GUARDRAILS.map((g) => `${g.resource.group}/${g.resource.resource}`), '/resourcequotas/status']);
    for (const r of rules.slice(0, -1)) expect(r.operations).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    // A quota's status is what quota admission enforces: its updates are fenced too.
    expect(rules[rules.length - 1]!.operations).toEqual(['UPDATE']);
    expect(binding('paddock-managed-objects').spec.matchResources).toMatchObject({
      namespaceSelector: { matchExpressions: [{ key: 'paddock.dev/tenant', operator: 'Exists' }] },
      objectSelector: { matchLabels: { 'app.kubernetes.io/managed-by': 'paddock' } },
    });
    const [condition] = policy('paddock-managed-objects').spec.matchConditions as { expression: string }[];
    for (const exempt of ['system:masters', 'system:kube-controller-manager', 'system:serviceaccount:paddock-system:paddock', 'system:serviceaccount:kube-system:generic-garbage-collector', 'system:serviceaccount:kube-system:namespace-controller']) {
      expect(condition!.expression).toContain(exempt);
    }
    expect(condition!.expression).not.toContain('system:nodes');
  });
});
