/**
 * The pieces restriction modules build their admission rules from: the request kinds the two policies
 * match (each a constant, so that modules naming the same one share one rule), the variables every
 * module may read, and small CEL helpers. Expressions read the request namespace's TenantRestriction
 * as `params` (guardrails/tenant-restriction.ts): `spec.<field>` for what the tenant restricts (an absent
 * field restricts nothing), `spec.allowed` for what its selectors resolve to, `spec.tenant` its name.
 */

/** A resource rule as kube-apiserver stores it (scope defaulted to `*`). */
export interface ResourceRule {
  apiGroups: string[];
  apiVersions: string[];
  operations: string[];
  resources: string[];
  scope: string;
}

const GATEWAY_GROUP = 'gateway.networking.k8s.io';

const rule = (group: string, resources: string[], operations: string[], apiVersions = ['v1']): ResourceRule => ({ apiGroups: [group], apiVersions, operations, resources, scope: '*' });
/**
 * Gateway API's kinds are matched in every version their CRDs serve (TLSRoute was v1alpha2 before it was
 * v1, and a rule for a version a CRD does not serve matches nothing): the fields read are the same in each.
 */
const gatewayRule = (resources: string[], operations: string[]) => rule(GATEWAY_GROUP, resources, operations, ['*']);

/** The requests the validating policy can match, in the order its rules list them. */
export const VALIDATE = {
  pvcs: rule('', ['persistentvolumeclaims'], ['CREATE', 'UPDATE']),
  ingresses: rule('networking.k8s.io', ['ingresses'], ['CREATE', 'UPDATE']),
  pods: rule('', ['pods', 'pods/ephemeralcontainers'], ['CREATE', 'UPDATE']),
  services: rule('', ['services'], ['CREATE', 'UPDATE']),
  deviceClaims: rule('resource.k8s.io', ['resourceclaims', 'resourceclaimtemplates'], ['CREATE', 'UPDATE']),
  networkPolicies: rule('networking.k8s.io', ['networkpolicies'], ['CREATE', 'UPDATE']),
  /** Gateway API (matched only where its CRDs are installed; a rule for an unserved resource matches nothing). */
  gateways: gatewayRule(['gateways'], ['CREATE', 'UPDATE']),
  gatewayHostnames: gatewayRule(['listenersets', 'httproutes', 'grpcroutes', 'tlsroutes'], ['CREATE', 'UPDATE']),
} as const;

/** The requests the mutating policy can match, in the order its rules list them. */
export const MUTATE = {
  pvcs: rule('', ['persistentvolumeclaims'], ['CREATE']),
  ingresses: rule('networking.k8s.io', ['ingresses'], ['CREATE']),
  pods: rule('', ['pods'], ['CREATE']),
  deviceClaims: rule('resource.k8s.io', ['resourceclaims', 'resourceclaimtemplates'], ['CREATE']),
  gateways: gatewayRule(['gateways'], ['CREATE']),
} as const;

export interface Variable {
  name: string;
  expression: string;
}

export interface Validation {
  expression: string;
  messageExpression: string;
  reason: 'Forbidden';
}

/** A mutation of the defaults policy: always a JSON Patch, which is empty when there is nothing to fill in. */
export interface Mutation {
  patchType: 'JSONPatch';
  jsonPatch: { expression: string };
}

export const isCreate = "request.operation == 'CREATE'";

/**
 * A request kind as the variable `requestKind` spells it: `group/resource/subresource`, as kube-apiserver
 * matched the request (`/pods/` for a pod, `/pods/ephemeralcontainers` for its ephemeral containers).
 */
export const requestKind = (group: string, resource: string, subresource = '') => `'${group}/${resource}/${subresource}'`;

const kindIs = (...kinds: string[]) => (kinds.length === 1 ? `variables.requestKind == ${kinds[0]}` : `variables.requestKind in [${kinds.join(', ')}]`);

/**
 * The variables every module of the validating policy may read: what kind of request this is. The
 * request is read once, into `requestKind`; every other test of its kind is a comparison with it.
 */
export const REQUEST_VARIABLES: readonly Variable[] = [
  { name: 'requestKind', expression: "request.resource.group + '/' + request.resource.resource + '/' + request.?subResource.orValue('')" },
  { name: 'isPVC', expression: kindIs(requestKind('', 'persistentvolumeclaims')) },
  { name: 'isIngress', expression: kindIs(requestKind('networking.k8s.io', 'ingresses')) },
  { name: 'isPod', expression: kindIs(requestKind('', 'pods'), requestKind('', 'pods', 'ephemeralcontainers')) },
  { name: 'podCreate', expression: `variables.isPod && ${isCreate}` },
  { name: 'isService', expression: kindIs(requestKind('', 'services')) },
  { name: 'isGateway', expression: kindIs(requestKind(GATEWAY_GROUP, 'gateways')) },
  { name: 'isListenerSet', expression: kindIs(requestKind(GATEWAY_GROUP, 'listenersets')) },
  { name: 'isRoute', expression: kindIs(...['httproutes', 'grpcroutes', 'tlsroutes'].map((r) => requestKind(GATEWAY_GROUP, r))) },
];

/** ` (tenant <name>)`, for refusals. */
export const TENANT = "' (tenant ' + params.spec.tenant + ')'";

/** `a, b, c` or `none`. */
export const listText = (variable: string) => `(size(${variable}) == 0 ? 'none' : ${variable}.join(', '))`;

/** The names a tenant allows for a class kind: listed, or resolved from its selector into `allowed`. */
export const allowedNames = (field: string) =>
  `params.spec.?${field}.?allowed.orValue([]) + params.spec.?allowed.?${field}.orValue([]).filter(n, !(n in params.spec.?${field}.?allowed.orValue([])))`;

/**
 * One JSON Patch operation as a plain CEL map, `{'op', 'path', 'value'}` (no `value` for `remove`); `path`
 * and `value` are CEL expressions. Modules build their patch lists of these rather than of `JSONPatch`
 * objects because the defaults policy reads the same list twice: its match condition (is it empty?),
 * where kube-apiserver declares neither the JSONPatch type nor the `jsonpatch` library (escape a key with
 * `escapedKey`), and its mutation, which turns each map into one (`toJsonPatches`). Every member is typed
 * `dyn`, so that all the modules' maps have one type and their lists can be joined.
 */
export const patchOp = (op: 'add' | 'remove', path: string, value?: string) =>
  `{'op': dyn('${op}'), 'path': dyn(${path})${value === undefined ? '' : `, 'value': dyn(${value})`}}`;

/** A map key as a JSON Patch path segment (RFC 6901: `~` as `~0`, `/` as `~1`), without the `jsonpatch` library. */
export const escapedKey = (key: string) => `${key}.replace('~', '~0').replace('/', '~1')`;

/** A JSON Patch `add` operation at a fixed path (see `patchOp`). */
export const addPatch = (path: string, value: string) => patchOp('add', `'${path}'`, value);

/** The JSON Patch mutation that applies `ops`, a CEL list of `patchOp` maps. */
export const toJsonPatches = (ops: string): Mutation => ({
  patchType: 'JSONPatch',
  jsonPatch: { expression: `(${ops}).map(p, JSONPatch{op: string(p.op), path: string(p.path), ?value: p.?value})` },
});


/**
 * The patch that fills in a class kind's default: for requests of `resource`, when the tenant names a
 * default for `field` and `absent` holds of the object.
 */
export const classDefault = (resource: string, field: string, absent: string, path: string) =>
  `(request.resource.resource == '${resource}' && has(params.spec.${field}) && has(params.spec.${field}.default) && ${absent} ? [${addPatch(path, `params.spec.${field}.default`)}] : [])`;
