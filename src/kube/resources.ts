/**
 * Identifies a REST resource: `group` is '' for the core group. Paths follow kube's layout:
 * `/api/v1/...` for the core group, `/apis/<group>/<version>/...` otherwise.
 */
export interface ResourceRef {
  readonly group: string;
  readonly version: string;
  /** Plural, lower case: `namespaces`, `tenants`. */
  readonly resource: string;
  readonly namespaced: boolean;
  /** The object kind (`Namespace`), used to fill `kind` on list items. */
  readonly kind: string;
}

export interface PathParts {
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** The URL path of a collection, an object or a subresource. Namespaced resources without a namespace → all namespaces. */
export function resourcePath(ref: ResourceRef, parts: PathParts = {}): string {
  let path = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  if (ref.namespaced && parts.namespace) path += `/namespaces/${encodeURIComponent(parts.namespace)}`;
  path += `/${ref.resource}`;
  if (parts.name !== undefined) path += `/${encodeURIComponent(parts.name)}`;
  if (parts.subresource) path += `/${parts.subresource}`;
  return path;
}

/** `apiVersion` of the resource's objects: `v1` or `<group>/<version>`. */
export function apiVersionOf(ref: ResourceRef): string {
  return ref.group === '' ? ref.version : `${ref.group}/${ref.version}`;
}

/** `namespaces`, `tenants.paddock.dev`: the resource's name as kube prints it. */
export function groupResource(ref: ResourceRef): string {
  return ref.group === '' ? ref.resource : `${ref.resource}.${ref.group}`;
}

const core = (resource: string, kind: string, namespaced: boolean): ResourceRef => ({ group: '', version: 'v1', resource, kind, namespaced });

/** The resources Paddock reads and writes, but for the guardrail kinds (src/tenancy/guardrails: each declares its own). */
export const RESOURCES = {
  namespaces: core('namespaces', 'Namespace', false),
  events: core('events', 'Event', true),
  clusterRoles: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', namespaced: false },
  clusterRoleBindings: { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', namespaced: false },
  leases: { group: 'coordination.k8s.io', version: 'v1', resource: 'leases', kind: 'Lease', namespaced: true },
  tenants: { group: 'paddock.dev', version: 'v1alpha1', resource: 'tenants', kind: 'Tenant', namespaced: false },
  nodes: core('nodes', 'Node', false),
  storageClasses: { group: 'storage.k8s.io', version: 'v1', resource: 'storageclasses', kind: 'StorageClass', namespaced: false },
  ingressClasses: { group: 'networking.k8s.io', version: 'v1', resource: 'ingressclasses', kind: 'IngressClass', namespaced: false },
  priorityClasses: { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses', kind: 'PriorityClass', namespaced: false },
  runtimeClasses: { group: 'node.k8s.io', version: 'v1', resource: 'runtimeclasses', kind: 'RuntimeClass', namespaced: false },
  volumeAttributesClasses: { group: 'storage.k8s.io', version: 'v1', resource: 'volumeattributesclasses', kind: 'VolumeAttributesClass', namespaced: false },
  deviceClasses: { group: 'resource.k8s.io', version: 'v1', resource: 'deviceclasses', kind: 'DeviceClass', namespaced: false },
  /** Gateway API: served only where its CRDs are installed. */
  gatewayClasses: { group: 'gateway.networking.k8s.io', version: 'v1', resource: 'gatewayclasses', kind: 'GatewayClass', namespaced: false },
  validatingAdmissionPolicies: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies', kind: 'ValidatingAdmissionPolicy', namespaced: false },
  mutatingAdmissionPolicies: { group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingadmissionpolicies', kind: 'MutatingAdmissionPolicy', namespaced: false },
  validatingAdmissionPolicyBindings: {
    group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicybindings', kind: 'ValidatingAdmissionPolicyBinding', namespaced: false,
  },
  mutatingAdmissionPolicyBindings: {
    group: 'admissionregistration.k8s.io', version: 'v1', resource: 'mutatingadmissionpolicybindings', kind: 'MutatingAdmissionPolicyBinding', namespaced: false,
  },
} as const satisfies Record<string, ResourceRef>;
