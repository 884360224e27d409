import type { Tenant, TenantSpec } from '../kube/types';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { REGISTRY_ENTRY } from './restrictions/image-reference';
import { validateTenant } from './validate';
import { tenant as tenantNamed } from '../testing/tenants';

function tenant(spec: Partial<TenantSpec> = {}, name = 'oil'): Tenant {
  return tenantNamed(name, spec, undefined, { uid: 'uid-1' });
}

const fields = (spec: Partial<TenantSpec>, name?: string) => validateTenant(tenant(spec, name)).map((p) => `${p.field} ${p.reason}`);

describe('validateTenant', () => {
  it('accepts the example Tenant of the product contract', () => {
    expect(
      validateTenant(
        tenant({
          owners: [
            { kind: 'User', name: 'alice' },
            { kind: 'Group', name: 'oil-devs', role: 'operator' },
            { kind: 'ServiceAccount', namespace: 'ci', name: 'deployer', role: 'operator' },
          ],
          namespaces: ['production', 'staging'],
          namespaceQuota: 5,
          namespaceMetadata: { labels: { team: 'oil' }, annotations: { 'example.com/owner': 'oil team' } },
          resourceQuotas: [{ hard: { cpu: '8', memory: '16Gi', pods: 10 } }],
          limitRanges: [{ limits: [{ type: 'Container', default: { cpu: '500m' } }] }],
          networkIsolation: true,
          networkPolicies: [{ podSelector: {}, policyTypes: ['Egress'], egress: [{}] }],
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          podSecurity: { enforce: 'baseline', version: 'v1.30' },
          deletionPolicy: 'Retain',
          storageClasses: { allowed: ['standard'], selector: { matchLabels: { tier: 'gold' } }, default: 'standard' },
          ingressClasses: { allowed: ['nginx-internal'] },
          priorityClasses: { allowed: ['tenant-low', 'tenant-high'], default: 'tenant-low' },
          runtimeClasses: { selector: { matchLabels: { sandbox: 'true' } } },
          containerRegistries: { allowed: ['registry.example.com', 'ghcr.io/oil-org', 'localhost:5000'] },
        }),
      ),
    ).toEqual([]);
  });

  it('refuses duplicate owners, even with different roles', () => {
    expect(fields({ owners: [{ kind: 'User', name: 'alice' }, { kind: 'User', name: 'alice', role: 'viewer' }] })).toEqual(['spec.owners[1] FieldValueDuplicate']);
  });

  it('tells a user from a group and service accounts by namespace', () => {
    expect(
      fields({
        owners: [
          { kind: 'User', name: 'x' },
          { kind: 'Group', name: 'x' },
          { kind: 'ServiceAccount', namespace: 'a', name: 'x' },
          { kind: 'ServiceAccount', namespace: 'b', name: 'x' },
        ],
      }),
    ).toEqual([]);
  });

  it('requires at least one owner', () => {
    expect(fields({ owners: [] })).toEqual(['spec.owners FieldValueRequired']);
  });

  it('requires a namespace for a ServiceAccount owner and forbids it otherwise', () => {
    expect(fields({ owners: [{ kind: 'ServiceAccount', name: 'deployer' }] })).toEqual(['spec.owners[0].namespace FieldValueRequired']);
    expect(fields({ owners: [{ kind: 'User', name: 'alice', namespace: 'ci' }] })).toEqual(['spec.owners[0].namespace FieldValueForbidden']);
  });

  it.each(['v2', 'v1.', 'v1.02', '1.30', 'newest', ''])('refuses Pod Security version %p', (version) => {
    expect(fields({ podSecurity: { version } })).toEqual(['spec.podSecurity.version FieldValueInvalid']);
  });

  it.each(['latest', 'v1.0', 'v1.30'])('accepts Pod Security version %p', (version) => {
    expect(fields({ podSecurity: { version } })).toEqual([]);
  });

  it('accepts additional role bindings of users, groups and service accounts', () => {
    expect(fields({
      additionalRoleBindings: [
        { clusterRoleName: 'view', subjects: [{ kind: 'Group', name: 'oil-auditors' }, { kind: 'User', name: 'oil-auditors' }] },
        { clusterRoleName: 'system:aggregate-to-view', subjects: [{ kind: 'ServiceAccount', namespace: 'ci', name: 'scanner' }] },
      ],
    })).toEqual([]);
  });

  it('refuses a cluster role listed twice in additionalRoleBindings: its binding is named after it', () => {
    const subjects = [{ kind: 'Group' as const, name: 'a' }];
    const problems = validateTenant(tenant({ additionalRoleBindings: [{ clusterRoleName: 'view', subjects }, { clusterRoleName: 'view', subjects }] }));
    expect(problems).toEqual([{ field: 'spec.additionalRoleBindings[1].clusterRoleName', reason: 'FieldValueDuplicate', message: expect.stringContaining('spec.additionalRoleBindings[0]') }]);
  });

  it.each(['', '.', '..', 'a/b', '50%'])('refuses %p as the cluster role of an additional role binding', (clusterRoleName) => {
    expect(fields({ additionalRoleBindings: [{ clusterRoleName, subjects: [{ kind: 'Group', name: 'a' }] }] })).toEqual(['spec.additionalRoleBindings[0].clusterRoleName FieldValueInvalid']);
  });

  it('checks the subjects of an additional role binding as it checks owners', () => {
    const item = (subjects: unknown) => ({ additionalRoleBindings: [{ clusterRoleName: 'view', subjects }] }) as Partial<TenantSpec>;
    expect(fields(item([]))).toEqual(['spec.additionalRoleBindings[0].subjects FieldValueRequired']);
    expect(fields(item(undefined))).toEqual(['spec.additionalRoleBindings[0].subjects FieldValueRequired']);
    expect(fields(item([{ kind: 'Robot', name: 'r2' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[0].kind FieldValueNotSupported']);
    expect(fields(item([{ kind: 'Group', name: '' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[0].name FieldValueRequired']);
    expect(fields(item([{ kind: 'ServiceAccount', name: 'scanner' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[0].namespace FieldValueRequired']);
    expect(fields(item([{ kind: 'ServiceAccount', namespace: 'ci', name: 'Not_A_Name' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[0].name FieldValueInvalid']);
    expect(fields(item([{ kind: 'Group', name: 'g', namespace: 'ci' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[0].namespace FieldValueForbidden']);
    expect(fields(item([{ kind: 'Group', name: 'g' }, { kind: 'Group', name: 'g' }]))).toEqual(['spec.additionalRoleBindings[0].subjects[1] FieldValueDuplicate']);
    expect(fields({ additionalRoleBindings: 'view' as never })).toEqual(['spec.additionalRoleBindings FieldValueInvalid']);
    expect(fields({ additionalRoleBindings: [null as never] })).toEqual(['spec.additionalRoleBindings[0] FieldValueInvalid']);
  });

  it('leaves whether a cluster role may be bound to the installation: any valid name passes', () => {
    expect(fields({ additionalRoleBindings: [{ clusterRoleName: 'cluster-admin', subjects: [{ kind: 'Group', name: 'a' }] }] })).toEqual([]);
  });

  it('refuses a Pod Security level that does not exist', () => {
    expect(fields({ podSecurity: { enforce: 'lax' as never } })).toEqual(['spec.podSecurity.enforce FieldValueNotSupported']);
  });

  it('refuses namespace names that become longer than 63 characters', () => {
    expect(fields({ namespaces: ['x'.repeat(60)] })).toEqual(['spec.namespaces[0] FieldValueInvalid']);
  });

  it('refuses namespaces listed twice', () => {
    expect(fields({ namespaces: ['a', 'a'] })).toEqual(['spec.namespaces[1] FieldValueDuplicate']);
  });

  it('refuses quantities kube-apiserver cannot parse, naming the resource', () => {
    expect(fields({ resourceQuotas: [{ hard: { cpu: 'lots' } }] })).toEqual(['spec.resourceQuotas[0].hard[cpu] FieldValueInvalid']);
    expect(fields({ limitRanges: [{ limits: [{ type: 'Container', max: { memory: '1GB' } }] }] })).toEqual([
      'spec.limitRanges[0].limits[0].max[memory] FieldValueInvalid',
    ]);
  });

  it('keeps the keys Paddock sets out of namespaceMetadata', () => {
    expect(
      fields({
        namespaceMetadata: {
          labels: { 'paddock.dev/tenant': 'gas', 'pod-security.kubernetes.io/enforce': 'privileged', 'kubernetes.io/metadata.name': 'x', 'pod-security.kubernetes.io/warn': 'restricted' },
          annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'a=b', 'paddock.dev/anything': 'x' },
        },
      }),
    ).toEqual([
      'spec.namespaceMetadata.labels[paddock.dev/tenant] FieldValueForbidden',
      'spec.namespaceMetadata.labels[pod-security.kubernetes.io/enforce] FieldValueForbidden',
      'spec.namespaceMetadata.labels[kubernetes.io/metadata.name] FieldValueForbidden',
      'spec.namespaceMetadata.annotations[scheduler.alpha.kubernetes.io/node-selector] FieldValueForbidden',
      'spec.namespaceMetadata.annotations[paddock.dev/anything] FieldValueForbidden',
    ]);
  });

  it('refuses label keys and values kube-apiserver would refuse', () => {
    expect(fields({ namespaceMetadata: { labels: { 'bad key': 'x', ok: 'bad value' } } })).toEqual([
      'spec.namespaceMetadata.labels[bad key] FieldValueInvalid',
      'spec.namespaceMetadata.labels[ok] FieldValueInvalid',
    ]);
    expect(fields({ nodeSelector: { zone: 'a,b' } })).toEqual(['spec.nodeSelector[zone] FieldValueInvalid']);
  });

  it('refuses network policies that are not NetworkPolicySpecs', () => {
    expect(fields({ networkPolicies: [{ ingress: {} }, { policyTypes: ['Sideways'] }] })).toEqual([
      'spec.networkPolicies[0].ingress FieldValueInvalid',
      'spec.networkPolicies[1].policyTypes FieldValueNotSupported',
    ]);
  });

  it('requires a class default to be listed as allowed, naming the field', () => {
    expect(fields({ storageClasses: { allowed: ['standard'], default: 'gold' } })).toEqual(['spec.storageClasses.default FieldValueInvalid']);
    expect(fields({ priorityClasses: { selector: { matchLabels: { a: 'b' } }, default: 'low' } })).toEqual(['spec.priorityClasses.default FieldValueInvalid']);
    expect(validateTenant(tenant({ runtimeClasses: { default: 'kata' } }))[0]!.message).toContain('must itself be allowed');
  });

  it('refuses a class selector that is not a valid label selector', () => {
    expect(fields({ ingressClasses: { selector: { matchExpressions: [{ key: 'a', operator: 'In' }] } } })).toEqual(['spec.ingressClasses.selector FieldValueInvalid']);
    expect(fields({ ingressClasses: { selector: { matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x'] }] } } })).toEqual(['spec.ingressClasses.selector FieldValueInvalid']);
    expect(fields({ storageClasses: { selector: { matchLabels: { 'bad key!': 'x' } } } })).toEqual(['spec.storageClasses.selector FieldValueInvalid']);
    expect(fields({ storageClasses: { allowed: ['Not_A_Name'] } })).toEqual(['spec.storageClasses.allowed FieldValueInvalid']);
  });

  it('refuses registries that are not a host or host/path prefix', () => {
    expect(fields({ containerRegistries: { allowed: ['ghcr.io', 'https://ghcr.io', 'ghcr.io/org/'] } })).toEqual([
      'spec.containerRegistries.allowed[1] FieldValueInvalid',
      'spec.containerRegistries.allowed[2] FieldValueInvalid',
    ]);
  });

  it('accepts a registry entry whose first component an image parser reads as a host', () => {
    const allowed = ['docker.io', 'docker.io/library', 'index.docker.io/bitnami', 'localhost', 'localhost:5000/team', 'registry:5000', '127.0.0.1:5000', 'ghcr.io/oil-org/app_x/v1.2', 'a-b.example.com/x--y/z__w'];
    expect(fields({ containerRegistries: { allowed } })).toEqual([]);
  });

  it.each([
    ['nginx', 'a single name without a dot or port is a Docker Hub image, never a host'],
    ['library/nginx', 'a Docker Hub path without its host'],
    ['myorg/app', 'a Docker Hub path without its host'],
    ['Localhost', 'upper case'],
    ['ghcr.io/Org', 'upper case in a path'],
    ['ghcr.io/-org', 'a path component starting with a separator'],
    ['ghcr.io/org-', 'a path component ending with a separator'],
    ['ghcr.io/a..b', 'two dots in a path component'],
    ['ghcr.io/a___b', 'three underscores in a path component'],
    ['-ghcr.io', 'a host label starting with a dash'],
    ['ghcr..io', 'an empty host label'],
    ['ghcr.io.', 'a trailing dot on the host'],
    ['ghcr.io:', 'an empty port'],
    ['ghcr.io//org', 'an empty path component'],
  ])('refuses the registry entry %s (%s), which no image can match', (entry) => {
    expect(validateTenant(tenant({ containerRegistries: { allowed: [entry] } })).map((p) => `${p.field} ${p.reason}`)).toEqual(['spec.containerRegistries.allowed[0] FieldValueInvalid']);
  });

  it('checks registry entries with the Tenant CRD\'s own pattern', () => {
    const crd = load(readFileSync(join(__dirname, '..', '..', 'schemas', 'tenant-crd.yaml'), 'utf8')) as any;
    const spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    expect(spec.properties.containerRegistries.properties.allowed.items.pattern).toBe(REGISTRY_ENTRY);
  });

  it('requires a uid to own objects', () => {
    expect(validateTenant({ metadata: { name: 'oil' }, spec: { owners: [{ kind: 'User', name: 'a' }] } }).map((p) => p.field)).toEqual(['metadata.uid']);
  });

  it('never throws, whatever it is given', () => {
    for (const bad of [null, 42, 'x', {}, { metadata: null }, { metadata: { name: 'x' }, spec: [] }, { metadata: { name: 'x' }, spec: { owners: [null, 1] } }]) {
      expect(() => validateTenant(bad as unknown as Tenant)).not.toThrow();
      expect(validateTenant(bad as unknown as Tenant).length).toBeGreaterThan(0);
    }
  });
});
