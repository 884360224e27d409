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

const rule = (group: string, resources: string[], operations: string[]): ResourceRule => ({ apiGroups: [group], apiVersions: ['v1'], operations, resources, scope: '*' });

/** The requests the validating policy can match, in the order its rules list them. */
export const VALIDATE = {
  pvcs: rule('', ['persistentvolumeclaims'], ['CREATE', 'UPDATE']),
  ingresses: rule('networking.k8s.io', ['ingresses'], ['CREATE', 'UPDATE']),
  pods: rule('', ['pods', 'pods/ephemeralcontainers'], ['CREATE', 'UPDATE']),
  services: rule('', ['services'], ['CREATE', 'UPDATE']),
  deviceClaims: rule('resource.k8s.io', ['resourceclaims', 'resourceclaimtemplates'], ['CREATE', 'UPDATE']),
} as const;

/** The requests the mutating policy can match, in the order its rules list them. */
export const MUTATE = {
  pvcs: rule('', ['persistentvolumeclaims'], ['CREATE']),
  ingresses: rule('networking.k8s.io', ['ingresses'], ['CREATE']),
  pods: rule('', ['pods'], ['CREATE']),
  deviceClaims: rule('resource.k8s.io', ['resourceclaims', 'resourceclaimtemplates'], ['CREATE']),
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

/** The variables every module of the validating policy may read: what kind of request this is. */
export const REQUEST_VARIABLES: readonly Variable[] = [
  { name: 'isPVC', expression: "request.resource.resource == 'persistentvolumeclaims' && request.?subResource.orValue('') == ''" },
  { name: 'isIngress', expression: "request.resource.resource == 'ingresses' && request.?subResource.orValue('') == ''" },
  {
    name: 'isPod',
    expression: "request.resource.resource == 'pods' && (request.?subResource.orValue('') == '' || request.?subResource.orValue('') == 'ephemeralcontainers')",
  },
  { name: 'podCreate', expression: `variables.isPod && ${isCreate}` },
  { name: 'isService', expression: "request.resource.resource == 'services' && request.?subResource.orValue('') == ''" },
];

/** ` (tenant <name>)`, for refusals. */
export const TENANT = "' (tenant ' + params.spec.tenant + ')'";

/** `a, b, c` or `none`. */
export const listText = (variable: string) => `(size(${variable}) == 0 ? 'none' : ${variable}.join(', '))`;

/** The names a tenant allows for a class kind: listed, or resolved from its selector into `allowed`. */
export const allowedNames = (field: string) =>
  `params.spec.?${field}.?allowed.orValue([]) + params.spec.?allowed.?${field}.orValue([]).filter(n, !(n in params.spec.?${field}.?allowed.orValue([])))`;

/** A JSON Patch `add` operation. */
export const addPatch = (path: string, value: string) => `JSONPatch{op: 'add', path: '${path}', value: ${value}}`;

/** One JSON Patch mutation of the defaults policy. */
export const jsonPatch = (expression: string): Mutation => ({ patchType: 'JSONPatch', jsonPatch: { expression } });


/**
 * The patch that fills in a class kind's default: for requests of `resource`, when the tenant names a
 * default for `field` and `absent` holds of the object.
 */
export const classDefault = (resource: string, field: string, absent: string, path: string) =>
  `(request.resource.resource == '${resource}' && has(params.spec.${field}) && has(params.spec.${field}.default) && ${absent} ? [${addPatch(path, `params.spec.${field}.default`)}] : [])`;
