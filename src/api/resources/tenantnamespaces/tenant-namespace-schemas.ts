import { GROUP_VERSION } from '../../group-version';
import { refPath, type Flavor } from '../../openapi/refs';
import { TENANT_NAMESPACES } from './names';


type Schema = Record<string, unknown>;

/** Definition names, Go-package style as kube-apiserver names CRD and aggregated types (group reversed). */
const PREFIX = GROUP_VERSION.definitionPrefix;
export const DEFINITION = {
  tenantNamespace: `${PREFIX}.${TENANT_NAMESPACES.kind}`,
  tenantNamespaceList: `${PREFIX}.${TENANT_NAMESPACES.listKind}`,
  spec: `${PREFIX}.TenantNamespaceSpec`,
  status: `${PREFIX}.TenantNamespaceStatus`,
  owner: `${PREFIX}.TenantNamespaceOwner`,
  quota: `${PREFIX}.TenantNamespaceQuota`,
  share: `${PREFIX}.TenantNamespaceShare`,
} as const;

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';

/**
 * A property that is another schema, with its own description: v2 puts the description beside `$ref`;
 * v3 wraps the reference in `allOf` (plus `default` for objects), as kube-apiserver publishes them.
 */
function ref(name: string, description: string, flavor: Flavor, objectDefault = true): Schema {
  if (flavor === 'v2') return { $ref: refPath(name, flavor), description };
  const s: Schema = { allOf: [{ $ref: refPath(name, flavor) }], description };
  if (objectDefault) s['default'] = {};
  return s;
}

function arrayOf(name: string, description: string, flavor: Flavor, extra: Schema = {}): Schema {
  const items: Schema = flavor === 'v2' ? { $ref: refPath(name, flavor) } : { allOf: [{ $ref: refPath(name, flavor) }], default: {} };
  return { description, type: 'array', items, ...extra };
}

const API_VERSION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const gvk = (kind: string) => [{ group: TENANT_NAMESPACES.group, kind, version: TENANT_NAMESPACES.version }];

/**
 * The schemas of TenantNamespace and TenantNamespaceList, with the descriptions `kubectl explain` prints
 * (e.g. `kubectl explain tns.status.quota`). The shape is the read model of SPEC §4.
 */
export function tenantNamespaceSchemas(flavor: Flavor): Record<string, Schema> {
  const quantityMap = (description: string): Schema => ({
    description,
    type: 'object',
    additionalProperties: flavor === 'v2' ? { $ref: refPath(QUANTITY, flavor) } : { allOf: [{ $ref: refPath(QUANTITY, flavor) }] },
  });
  return {
    [DEFINITION.tenantNamespace]: {
      description:
        'TenantNamespace is the read model of one tenant namespace: the Namespace joined with its Tenant and its ResourceQuotas. Each caller sees the TenantNamespaces of the tenants it owns; creating one creates a self-service namespace for a tenant, deleting one deletes that namespace.',
      type: 'object',
      required: ['spec'],
      properties: {
        apiVersion: { description: API_VERSION, type: 'string' },
        kind: { description: KIND, type: 'string' },
        metadata: ref(
          `${META}.ObjectMeta`,
          "Standard object's metadata: name, uid, creationTimestamp and labels are those of the namespace. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
          flavor,
        ),
        spec: ref(DEFINITION.spec, 'Spec names the Tenant the namespace belongs to.', flavor),
        status: ref(DEFINITION.status, 'Status is the observed state of the namespace and its guardrails. Read-only.', flavor),
      },
      'x-kubernetes-group-version-kind': gvk(TENANT_NAMESPACES.kind),
    },
    [DEFINITION.spec]: {
      description: 'TenantNamespaceSpec names the Tenant a namespace belongs to.',
      type: 'object',
      required: ['tenant'],
      properties: {
        tenant: {
          description:
            'Tenant is the name of the Tenant (paddock.dev/v1alpha1) that owns the namespace. The namespace name must start with "<tenant>-". Cannot be updated.',
          type: 'string',
          default: '',
        },
      },
    },
    [DEFINITION.status]: {
      description: 'TenantNamespaceStatus is the observed state of a tenant namespace.',
      type: 'object',
      properties: {
        phase: {
          description: 'Phase is the phase of the namespace.\n\nPossible enum values:\n - `"Active"` means the namespace is available for use.\n - `"Terminating"` means the namespace is being deleted.',
          type: 'string',
          enum: ['Active', 'Terminating'],
        },
        owners: arrayOf(DEFINITION.owner, "Owners are the owners of the namespace's Tenant with their roles.", flavor, { 'x-kubernetes-list-type': 'atomic' }),
        quota: ref(
          DEFINITION.quota,
          'Quota is what limits the namespace: for each resource the most restrictive hard limit among its ResourceQuotas, and the usage the quota controller reports against it.',
          flavor,
        ),
        tenantQuota: ref(
          DEFINITION.share,
          "TenantQuota is the namespace's share of its Tenant's tenant-wide quota (spec.quota) and its use, read from the namespace's ResourceQuota paddock-tenant-quota. Present only while the Tenant has spec.quota.",
          flavor,
        ),
        nodeSelector: {
          description: "NodeSelector is the Tenant's nodeSelector: the node labels every pod of the namespace gets (merged in by admission) and must keep.",
          type: 'object',
          additionalProperties: { type: 'string', default: '' },
        },
        conditions: arrayOf(
          `${META}.Condition`,
          'Conditions are the observations of the namespace. GuardrailsReady is True when the quotas, limit ranges, network policies, role bindings and labels of the namespace are as the Tenant wants them.',
          flavor,
          { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' },
        ),
      },
    },
    [DEFINITION.owner]: {
      description: "TenantNamespaceOwner is an owner of the namespace's Tenant.",
      type: 'object',
      required: ['kind', 'name', 'role'],
      properties: {
        kind: { description: 'Kind of the owner: User, Group or ServiceAccount.', type: 'string', default: '', enum: ['Group', 'ServiceAccount', 'User'] },
        name: { description: 'Name of the user, group or service account.', type: 'string', default: '' },
        namespace: { description: 'Namespace of the service account; only for kind ServiceAccount.', type: 'string' },
        role: {
          description:
            'Role of the owner in the tenant namespaces: admin (most namespaced resources, including Roles and RoleBindings), operator (workloads) or viewer (read). Defaults to admin.',
          type: 'string',
          default: '',
          enum: ['admin', 'operator', 'viewer'],
        },
      },
    },
    [DEFINITION.quota]: {
      description: 'TenantNamespaceQuota is the binding ResourceQuota limit of a namespace, per resource name.',
      type: 'object',
      properties: {
        hard: quantityMap('Hard is, for each resource name (cpu, memory, pods, requests.storage, ...), the most restrictive hard limit among the ResourceQuotas of the namespace.'),
        used: quantityMap('Used is the usage the quota controller observed against each limit in hard.'),
      },
    },
    [DEFINITION.share]: {
      description:
        "TenantNamespaceShare is one namespace's share of a tenant-wide quota. Paddock moves unused share between the Tenant's namespaces; the shares never sum above the Tenant's spec.quota.hard.",
      type: 'object',
      required: ['share', 'used'],
      properties: {
        share: quantityMap(
          "Share is, for each resource of the budget, the amount kube-apiserver's quota admission enforces in this namespace now (the ResourceQuota's status.hard). Empty while none of it is in force yet: then every create in the namespace is refused until it is.",
        ),
        used: quantityMap('Used is what the namespace uses of each resource in share, as quota admission counts it.'),
        pending: quantityMap(
          'Pending is each amount Paddock has written to the share (spec.hard) that kube-controller-manager has not put in force yet, usually for milliseconds; until then the amount in share is enforced. Absent when none.',
        ),
      },
    },
    [DEFINITION.tenantNamespaceList]: {
      description: 'TenantNamespaceList is a list of TenantNamespaces, ordered by name.',
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { description: API_VERSION, type: 'string' },
        items: arrayOf(DEFINITION.tenantNamespace, 'Items is the list of TenantNamespaces.', flavor),
        kind: { description: KIND, type: 'string' },
        metadata: ref(`${META}.ListMeta`, 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds', flavor),
      },
      'x-kubernetes-group-version-kind': gvk(TENANT_NAMESPACES.listKind),
    },
  };
}
