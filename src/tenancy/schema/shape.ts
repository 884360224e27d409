/**
 * The Tenant's TypeScript types as values, so that a test can hold them against the CRD schema field by
 * field (shape.test.ts). `Shape<T>` maps a type to the JSON kind of each of its fields; the constants
 * below are typed by it, so the compiler refuses one that misses a field of the type or has one the
 * type lacks — the constants cannot drift from the types, and the test keeps the schema from drifting
 * from the constants.
 */
import type { ClassPolicy, TenantSpec, TenantStatus } from '../../kube/types';

/**
 * - `string`, `integer`, `boolean`: a scalar (a union of string literals is a string);
 * - `[kind]`: an array of that kind;
 * - `map`: an object of arbitrary keys, each of that kind (`additionalProperties`);
 * - `object`: an object whose fields the type leaves open (`Record<string, unknown>`);
 * - `{...}`: an object with exactly these fields.
 */
export type Shape<T> = [T] extends [string]
  ? 'string'
  : [T] extends [number]
    ? 'integer'
    : [T] extends [boolean]
      ? 'boolean'
      : [T] extends [readonly (infer E)[]]
        ? readonly [Shape<E>]
        : string extends keyof T
          ? unknown extends T[string]
            ? 'object'
            : 'map'
          : { readonly [K in keyof T]-?: Shape<NonNullable<T[K]>> };

const CLASS_POLICY: Shape<ClassPolicy> = {
  allowed: ['string'],
  selector: { matchLabels: 'map', matchExpressions: [{ key: 'string', operator: 'string', values: ['string'] }] },
  default: 'string',
};

export const TENANT_SPEC_SHAPE: Shape<TenantSpec> = {
  owners: [{ kind: 'string', name: 'string', namespace: 'string', role: 'string' }],
  namespaces: ['string'],
  namespaceQuota: 'integer',
  namespaceMetadata: { labels: 'map', annotations: 'map' },
  resourceQuotas: [{ hard: 'map', scopes: ['string'], scopeSelector: 'object' }],
  limitRanges: [{ limits: ['object'] }],

  networkIsolation: 'boolean',
  networkPolicies: ['object'],
  additionalRoleBindings: [{ clusterRoleName: 'string', subjects: [{ kind: 'string', name: 'string', namespace: 'string' }] }],
  nodeSelector: 'map',
  podSecurity: { enforce: 'string', version: 'string' },
  deletionPolicy: 'string',
  cordoned: 'boolean',
  preventDeletion: 'boolean',
  storageClasses: CLASS_POLICY,
  ingressClasses: CLASS_POLICY,
  priorityClasses: CLASS_POLICY,
  runtimeClasses: CLASS_POLICY,
  volumeAttributesClasses: CLASS_POLICY,
  deviceClasses: CLASS_POLICY,
  gatewayClasses: CLASS_POLICY,
  hostnames: { allowed: ['string'] },
  containerRegistries: { allowed: ['string'] },
  imagePullPolicies: ['string'],
  services: { types: { allowed: ['string'] }, externalIPs: { allowed: ['string'] }, loadBalancerClasses: { allowed: ['string'] } },
  networkPolicyIngressFrom: { namespaces: { allowed: ['string'] }, ipBlocks: { allowed: ['string'] } },
  quota: { hard: 'map' },
};

export const TENANT_STATUS_SHAPE: Shape<TenantStatus> = {
  phase: 'string',
  namespaces: ['string'],
  allowed: { storageClasses: ['string'], ingressClasses: ['string'], priorityClasses: ['string'], runtimeClasses: ['string'], volumeAttributesClasses: ['string'], deviceClasses: ['string'], gatewayClasses: ['string'] },
  claims: [{ name: 'string', origin: 'string', uid: 'string', proof: 'string', claimedAt: 'string' }],
  quota: { hard: 'map', used: 'map', allocations: 'map', ledgerWrites: 'integer' },
  size: 'integer',
  ownerSummary: 'string',
  observedGeneration: 'integer',
  conditions: [{ type: 'string', status: 'string', reason: 'string', message: 'string', observedGeneration: 'integer', lastTransitionTime: 'string' }],
};
