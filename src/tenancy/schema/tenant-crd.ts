/**
 * The Tenant CustomResourceDefinition (schemas/tenant-crd.yaml, written by `npm run gen:manifests`),
 * composed from the Tenant's own fields (tenant-fields.ts) and each restriction module's field: a
 * restriction states its schema once, beside its policy rules. A test fails when the file and this
 * object disagree.
 */
import { RESTRICTIONS } from '../restrictions/registry';
import type { Restriction } from '../restrictions/restriction';
import type { Schema } from './schema';
import { SPEC_FIELDS, STATUS } from './tenant-fields';

/**
 * How kube-apiserver prints a Tenant (`kubectl get tenants`); the ownedtenants view prints with the same
 * columns (api/resources/owned-tenants.ts).
 */
export const TENANT_PRINTER_COLUMNS = [
    {
      name: 'Namespaces',
      type: 'integer',
      jsonPath: '.status.size',
      description: 'Namespaces the tenant has',
    },
    {
      name: 'Quota',
      type: 'integer',
      jsonPath: '.spec.namespaceQuota',
      description: 'Most namespaces the tenant may have',
    },
    { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    {
      name: 'Owners',
      type: 'string',
      jsonPath: '.status.ownerSummary',
      priority: 1,
      description: 'Owners as kind/name:role',
    },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase', priority: 1 },
    {
      name: 'ResolvedRefs',
      type: 'string',
      jsonPath: '.status.conditions[?(@.type=="ResolvedRefs")].status',
      priority: 1,
      description: 'Whether every class and node selector the tenant names exists (the condition names what does not)',
    },
    { name: 'Budget', type: 'string', jsonPath: '.status.quota.hard', priority: 1, description: 'The tenant-wide quota (spec.quota.hard)' },
    { name: 'Used', type: 'string', jsonPath: '.status.quota.used', priority: 1, description: "The tenant-wide quota's use, summed over the namespaces" },
] as const;

/** The version's printer columns and subresources. */
const VERSION = {
  name: 'v1alpha1',
  served: true,
  storage: true,
  subresources: { status: {} },
  additionalPrinterColumns: TENANT_PRINTER_COLUMNS,
};

/** The spec's properties: the Tenant's own fields, with the restrictions' before podSecurity. */
function specProperties(restrictions: readonly Restriction[]): Record<string, Schema> {
  const { podSecurity, deletionPolicy, ...rest } = SPEC_FIELDS;
  return { ...rest, ...Object.fromEntries(restrictions.map((r) => [r.field, r.schema])), podSecurity: podSecurity!, deletionPolicy: deletionPolicy! };
}

/** status.allowed: a list of names per restriction that resolves names (the class kinds). */
export function allowedNamesSchema(restrictions: readonly Restriction[]): Schema {
  return {
    description: 'The classes the tenant may use, resolved from spec (names and selectors), kept current.',
    type: 'object',
    properties: Object.fromEntries(restrictions.filter((r) => r.resolvesNames).map((r) => [r.field, { type: 'array', items: { type: 'string' } }])),
  };
}

/** The CRD, as installed. */
export function tenantCrd(restrictions: readonly Restriction[] = RESTRICTIONS): Schema {
  const { allowed: _allowed, ...statusProperties } = (STATUS.properties ?? {}) as Record<string, Schema>;
  const status = { ...STATUS, properties: { ...statusProperties, allowed: allowedNamesSchema(restrictions) } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'tenants.paddock.dev', labels: { 'app.kubernetes.io/name': 'paddock', 'app.kubernetes.io/part-of': 'paddock', 'app.kubernetes.io/managed-by': 'paddock' } },
    spec: {
      group: 'paddock.dev',
      scope: 'Cluster',
      names: { kind: 'Tenant', listKind: 'TenantList', plural: 'tenants', singular: 'tenant', categories: ['paddock-admin'] },
      versions: [
        {
          ...VERSION,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              description: 'A Tenant owns fenced namespaces ("paddocks") with guardrails that Paddock keeps in place.',
              required: ['spec'],
              'x-kubernetes-validations': [
                {
                  rule: '!has(self.spec.namespaces) || self.spec.namespaces.all(n, size(self.metadata.name) + 1 + size(n) <= 63)',
                  message: 'each <tenant>-<namespace> name must be at most 63 characters',
                  fieldPath: '.spec.namespaces',
                },
              ],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object', properties: { name: { type: 'string', maxLength: 53, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' } } },
                spec: { type: 'object', required: ['owners'], properties: specProperties(restrictions) },
                status,
              },
            },
          },
        },
      ],
    },
  };
}
