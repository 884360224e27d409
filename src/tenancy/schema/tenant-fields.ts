/**
 * The Tenant's fields that are not restrictions, as the CRD's structural schema states them (the
 * restrictions state their own: restrictions/). kube-apiserver refuses what these say is invalid; what
 * a schema cannot say is checked by validate.ts.
 */
import { DELETION_POLICIES, LIMIT_TYPES, OWNER_KINDS, OWNER_ROLES, POD_SECURITY_LEVELS, POLICY_TYPES } from './enums';
import type { Schema } from './schema';

/** A map of resource names to quantities, as ResourceQuota and LimitRange write them. */
const QUANTITIES: Schema = { type: 'object', additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true } };

/** A user, a group or a ServiceAccount (with its namespace), as owners and additional role bindings name them. */
function subject(who: string, extra: Record<string, Schema> = {}): Schema {
  return {
    type: 'object',
    required: ['kind', 'name'],
    'x-kubernetes-validations': [
      {
        rule: "self.kind == 'ServiceAccount' ? has(self.__namespace__) : !has(self.__namespace__)",
        message: `namespace is required for a ServiceAccount ${who} and not allowed otherwise`,
      },
    ],
    properties: {
      kind: { type: 'string', enum: OWNER_KINDS },
      name: { type: 'string', minLength: 1, maxLength: 253 },
      namespace: { type: 'string', maxLength: 63, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
      ...extra,
    },
  };
}

/** spec: everything but the restriction fields, in the order the CRD lists them. */
export const SPEC_FIELDS: Readonly<Record<string, Schema>> = {
  owners: {
    type: 'array',
    minItems: 1,
    maxItems: 64,
    description: 'Who owns the tenant; at least one.',
    items: subject('owner', { role: { type: 'string', enum: OWNER_ROLES, default: 'admin' } }),
  },
  namespaces: {
    type: 'array',
    maxItems: 256,
    'x-kubernetes-list-type': 'set',
    description: 'Declared namespaces, created as <tenant>-<name>.',
    items: { type: 'string', minLength: 1, maxLength: 62, pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$' },
  },
  namespaceQuota: {
    type: 'integer',
    format: 'int32',
    minimum: 0,
    description: 'Most namespaces (declared and self-service) the tenant may have; absent means no limit.',
  },
  namespaceMetadata: {
    type: 'object',
    properties: {
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
    },
  },
  resourceQuotas: {
    type: 'array',
    maxItems: 16,
    description: 'One ResourceQuota (paddock-quota-<i>) per item in every namespace.',
    items: {
      type: 'object',
      properties: {
        hard: QUANTITIES,
        scopes: { type: 'array', items: { type: 'string' } },
        scopeSelector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
  },
  limitRanges: {
    type: 'array',
    maxItems: 16,
    description: 'One LimitRange (paddock-limits-<i>) per item in every namespace.',
    items: {
      type: 'object',
      required: ['limits'],
      properties: {
        limits: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type'],
            properties: {
              type: { type: 'string', enum: LIMIT_TYPES },
              max: QUANTITIES,
              min: QUANTITIES,
              default: QUANTITIES,
              defaultRequest: QUANTITIES,
              maxLimitRequestRatio: QUANTITIES,
            },
          },
        },
      },
    },
  },
  networkIsolation: {
    type: 'boolean',
    default: true,
    description: "Ingress only from this tenant's namespaces (NetworkPolicy paddock-isolation).",
  },
  networkPolicies: {
    type: 'array',
    maxItems: 16,
    description: 'NetworkPolicySpecs added as paddock-policy-<i> next to the isolation policy.',
    items: {
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
      properties: {
        podSelector: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        policyTypes: { type: 'array', items: { type: 'string', enum: POLICY_TYPES } },
      },
    },
  },
  additionalRoleBindings: {
    type: 'array',
    maxItems: 16,
    // One binding per cluster role (named after it): kube-apiserver refuses a role listed twice.
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['clusterRoleName'],
    description:
      'More RoleBindings in every namespace of the tenant, one per item (paddock:additional:<clusterRoleName>). Only the cluster roles the installation lets Paddock bind (--bindable-cluster-roles) are bound; any other is refused (Ready=False, ClusterRoleNotBindable).',
    items: {
      type: 'object',
      required: ['clusterRoleName', 'subjects'],
      properties: {
        clusterRoleName: { type: 'string', minLength: 1, maxLength: 253 },
        subjects: { type: 'array', minItems: 1, maxItems: 64, items: subject('subject') },
      },
    },
  },
  podSecurity: {
    type: 'object',
    default: {},
    properties: {
      enforce: { type: 'string', enum: POD_SECURITY_LEVELS, default: 'baseline' },
      version: { type: 'string', default: 'latest', pattern: '^(latest|v1\\.[0-9]+)$' },
    },
  },
  deletionPolicy: { type: 'string', enum: DELETION_POLICIES, default: 'Retain' },
  cordoned: { type: 'boolean', description: "Refuse every create and update in the tenant's namespaces (deletes still work)." },
  preventDeletion: { type: 'boolean', description: 'Refuse to delete the Tenant until this is false.' },
  quota: {
    type: 'object',
    required: ['hard'],
    description:
      "One budget for all of the tenant's namespaces: ResourceQuota hard names and quantities. Each namespace holds a share of it (ResourceQuota paddock-tenant-quota); the shares never sum above it.",
    properties: { hard: { ...QUANTITIES, maxProperties: 64 } },
  },
};

/** status, but for `allowed` (the restrictions that resolve names contribute its fields). */
export const STATUS: Schema = {
  type: 'object',
  properties: {
    phase: { type: 'string', enum: ['Pending', 'Active', 'Degraded', 'Terminating'] },
    namespaces: { type: 'array', items: { type: 'string' } },
    claims: {
      description: "The namespaces Paddock provisioned for this tenant, recorded by UID: the only proof that a namespace is the tenant's (a label is not). Written by Paddock alone.",
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        required: ['name', 'origin'],
        properties: {
          name: { type: 'string', maxLength: 63 },
          origin: { type: 'string', enum: ['Declared', 'SelfService'] },
          uid: { type: 'string', maxLength: 64 },
          proof: { type: 'string', maxLength: 64 },
          claimedAt: { type: 'string', format: 'date-time' },
        },
      },
    },
    quota: {
      description: "The tenant-wide quota: the budget (hard), its use summed over the tenant's namespaces (used), and per namespace the most its share may be (allocations). Written by Paddock alone.",
      type: 'object',
      properties: {
        hard: { type: 'object', additionalProperties: { type: 'string' } },
        used: { type: 'object', additionalProperties: { type: 'string' } },
        allocations: { type: 'object', additionalProperties: { type: 'object', additionalProperties: { type: 'string' } } },
        ledgerWrites: { type: 'integer', format: 'int64' },
      },
    },
    size: { type: 'integer', format: 'int32' },
    ownerSummary: { type: 'string' },
    observedGeneration: { type: 'integer', format: 'int64' },
    conditions: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['type'],
      items: {
        type: 'object',
        required: ['type', 'status'],
        properties: {
          type: { type: 'string' },
          status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
          reason: { type: 'string' },
          message: { type: 'string' },
          observedGeneration: { type: 'integer', format: 'int64' },
          lastTransitionTime: { type: 'string', format: 'date-time' },
        },
      },
    },
  },
};
