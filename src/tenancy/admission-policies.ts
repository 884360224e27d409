/**
 * What a tenant may use, enforced by kube-apiserver itself (SPEC §9): two cluster-scoped admission
 * policies with the Tenant as their parameter, and per Tenant one binding of each that it needs.
 *
 * - `paddock-tenant-restrictions` (ValidatingAdmissionPolicy) refuses a PersistentVolumeClaim, Ingress
 *   or Pod that uses a class, registry or node the Tenant does not allow, or an image reference the node
 *   could not pull (image-reference.ts). Refusals name the allowed values.
 * - `paddock-tenant-defaults` (MutatingAdmissionPolicy) fills in the Tenant's default classes and merges
 *   its nodeSelector into every pod's, before the validating policy runs.
 *
 * A binding selects the tenant's namespaces by the tenant label (which only Paddock writes on a
 * namespace: owners cannot write Namespace objects) and names the Tenant in `paramRef`; when the Tenant
 * is gone the binding denies (`parameterNotFoundAction: Deny`) until Paddock has removed it. The
 * policies read the Tenant live: `spec` for what it restricts (an absent field restricts nothing),
 * `status.allowed` for the class names its selectors resolve to, kept current by the reconciler.
 *
 * The objects are written with every field kube-apiserver would default already set, so that a live
 * policy compares equal to the desired one and a converged cluster needs no writes. Pure: no I/O.
 */
import { PADDOCK, type KubeObject, type Tenant } from '../kube/types';
import { imageVariables } from './image-reference';
import { TENANT_API_VERSION } from './names';
import { controllerRef, tenantLabels } from './ownership';

export const ADMISSION_GROUP = 'admissionregistration.k8s.io';
export const ADMISSION_API_VERSION = `${ADMISSION_GROUP}/v1`;

export const RESTRICTIONS_POLICY_NAME = 'paddock-tenant-restrictions';
export const DEFAULTS_POLICY_NAME = 'paddock-tenant-defaults';

/** The binding of the restrictions policy for `tenant`. */
export function restrictionsBindingName(tenant: string): string {
  return `paddock-restrictions-${tenant}`;
}

/** The binding of the defaults policy for `tenant`. */
export function defaultsBindingName(tenant: string): string {
  return `paddock-defaults-${tenant}`;
}

/** An admission policy or binding as Paddock writes it (the shapes of admissionregistration.k8s.io/v1). */
export interface AdmissionObject extends KubeObject {
  spec: Record<string, unknown>;
}

const CLASS_KINDS = ['storageClasses', 'ingressClasses', 'priorityClasses', 'runtimeClasses'] as const;

/** Whether `tenant` restricts anything the restrictions policy checks (and so needs its binding). */
export function needsRestrictions(tenant: Tenant): boolean {
  const spec = tenant.spec ?? ({} as Tenant['spec']);
  return CLASS_KINDS.some((k) => spec[k] !== undefined) || spec.containerRegistries !== undefined || hasNodeSelector(tenant);
}

/** Whether `tenant` has anything for the defaults policy to fill in (and so needs its binding). */
export function needsDefaults(tenant: Tenant): boolean {
  const spec = tenant.spec ?? ({} as Tenant['spec']);
  return CLASS_KINDS.some((k) => spec[k]?.default !== undefined) || hasNodeSelector(tenant);
}

function hasNodeSelector(tenant: Tenant): boolean {
  return Object.keys(tenant.spec?.nodeSelector ?? {}).length > 0;
}

const managedLabels = () => ({ [PADDOCK.managedByLabel]: PADDOCK.managedByValue });

const PARAM_KIND = { apiVersion: TENANT_API_VERSION, kind: 'Tenant' };

/** A resource rule as kube-apiserver stores it (scope defaulted to `*`). */
const rule = (group: string, resources: string[], operations: string[]) => ({
  apiGroups: [group],
  apiVersions: ['v1'],
  operations,
  resources,
  scope: '*',
});

/** matchConstraints / matchResources with their server defaults. */
const matchResources = (resourceRules: unknown[] | undefined, namespaceSelector: Record<string, unknown> = {}) => ({
  ...(resourceRules ? { resourceRules } : {}),
  matchPolicy: 'Equivalent',
  namespaceSelector,
  objectSelector: {},
});

// ---- CEL building blocks ----

/** The names a tenant allows for a class kind: listed in spec, or resolved into status.allowed. */
const allowedNames = (field: string) =>
  `params.spec.?${field}.?allowed.orValue([]) + params.?status.?allowed.?${field}.orValue([]).filter(n, !(n in params.spec.?${field}.?allowed.orValue([])))`;

/** `a, b, c` or `none`. */
const listText = (variable: string) => `(size(${variable}) == 0 ? 'none' : ${variable}.join(', '))`;

const isCreate = "request.operation == 'CREATE'";

/** The annotation a PVC's class was named by before spec.storageClassName; kube still reads it first. */
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/** The cluster-scoped ValidatingAdmissionPolicy every restricting tenant binds. */
export function restrictionsPolicy(): AdmissionObject {
  const pod = "request.resource.resource == 'pods'";
  // Every image a Pod makes its node pull: its containers' of each kind, and its image volumes'.
  const podImages = (o: string) =>
    `(${o}.spec.?containers.orValue([]) + ${o}.spec.?initContainers.orValue([]) + ${o}.spec.?ephemeralContainers.orValue([])).map(c, c.?image.orValue(''))` +
    ` + ${o}.spec.?volumes.orValue([]).filter(v, has(v.image)).map(v, v.image.?reference.orValue(''))`;
  const tenant = "' (tenant ' + params.metadata.name + ')'";
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name: RESTRICTIONS_POLICY_NAME, labels: managedLabels() },
    spec: {
      failurePolicy: 'Fail',
      paramKind: PARAM_KIND,
      matchConstraints: matchResources([
        rule('', ['persistentvolumeclaims'], ['CREATE', 'UPDATE']),
        rule('networking.k8s.io', ['ingresses'], ['CREATE', 'UPDATE']),
        rule('', ['pods', 'pods/ephemeralcontainers'], ['CREATE', 'UPDATE']),
      ]),
      variables: [
        { name: 'isPVC', expression: "request.resource.resource == 'persistentvolumeclaims' && request.?subResource.orValue('') == ''" },
        { name: 'isIngress', expression: "request.resource.resource == 'ingresses' && request.?subResource.orValue('') == ''" },
        { name: 'isPod', expression: `${pod} && (request.?subResource.orValue('') == '' || request.?subResource.orValue('') == 'ephemeralcontainers')` },
        { name: 'storageClasses', expression: allowedNames('storageClasses') },
        { name: 'ingressClasses', expression: allowedNames('ingressClasses') },
        { name: 'priorityClasses', expression: allowedNames('priorityClasses') },
        { name: 'runtimeClasses', expression: allowedNames('runtimeClasses') },
        { name: 'registries', expression: 'params.spec.?containerRegistries.?allowed.orValue([])' },
        // A PVC names its class in spec.storageClassName or in the beta annotation, which kube reads
        // first when present, even empty (GetPersistentVolumeClaimClass): every name given must be
        // allowed. An UPDATE that changes neither is not checked again.
        { name: 'storageClassNames', expression: `variables.isPVC ? [object.metadata.?annotations[?'${BETA_STORAGE_CLASS}'], object.spec.?storageClassName].filter(o, o.hasValue()).map(o, o.value()) : []` },
        {
          name: 'storageClassChecked',
          expression:
            `variables.isPVC && has(params.spec.storageClasses) && (${isCreate} || oldObject.spec.?storageClassName != object.spec.?storageClassName || ` +
            `oldObject.metadata.?annotations[?'${BETA_STORAGE_CLASS}'] != object.metadata.?annotations[?'${BETA_STORAGE_CLASS}'])`,
        },
        // An Ingress names its class in spec.ingressClassName or, the older way, in an annotation.
        { name: 'ingressClassNames', expression: "variables.isIngress ? [object.spec.?ingressClassName, object.metadata.?annotations[?'kubernetes.io/ingress.class']].filter(o, o.hasValue()).map(o, o.value()) : []" },
        {
          name: 'ingressClassChecked',
          expression:
            `variables.isIngress && has(params.spec.ingressClasses) && (${isCreate} || oldObject.spec.?ingressClassName != object.spec.?ingressClassName || ` +
            "oldObject.metadata.?annotations[?'kubernetes.io/ingress.class'] != object.metadata.?annotations[?'kubernetes.io/ingress.class'])",
        },
        { name: 'podCreate', expression: `variables.isPod && ${isCreate}` },
        // A Pod's generic ephemeral volumes become PVCs made from their templates by kube-controller-manager,
        // each admitted as a PVC; the classes the templates name are refused with the Pod already.
        {
          name: 'podClaimClassNames',
          expression:
            `variables.podCreate && has(params.spec.storageClasses) ? object.spec.?volumes.orValue([]).filter(v, v.?ephemeral.?volumeClaimTemplate.?metadata.?annotations[?'${BETA_STORAGE_CLASS}'].hasValue())` +
            `.map(v, v.ephemeral.volumeClaimTemplate.metadata.annotations['${BETA_STORAGE_CLASS}']) + ` +
            'object.spec.?volumes.orValue([]).filter(v, v.?ephemeral.?volumeClaimTemplate.?spec.?storageClassName.hasValue()).map(v, v.ephemeral.volumeClaimTemplate.spec.storageClassName) : []',
        },
        // Images a request brings in: all of a new pod's, and on an update those the pod did not have.
        { name: 'imagesChecked', expression: 'variables.isPod && has(params.spec.containerRegistries)' },
        { name: 'podImages', expression: `variables.imagesChecked ? ${podImages('object')} : []` },
        { name: 'oldPodImages', expression: `variables.imagesChecked && !(${isCreate}) ? ${podImages('oldObject')} : []` },
        { name: 'newImages', expression: 'variables.podImages.filter(i, !(i in variables.oldPodImages))' },
        ...imageVariables('newImages', 'registries'),
        { name: 'nodeSelector', expression: 'params.spec.?nodeSelector.orValue({})' },
        { name: 'nodeSelectorText', expression: "variables.nodeSelector.map(k, k + '=' + variables.nodeSelector[k]).sort().join(',')" },
      ],
      validations: [
        {
          expression: '!variables.storageClassChecked || (size(variables.storageClassNames) > 0 && variables.storageClassNames.all(n, n in variables.storageClasses))',
          messageExpression:
            "(size(variables.storageClassNames) > 0 ? 'storage class \"' + variables.storageClassNames.filter(n, !(n in variables.storageClasses)).join(', ') + '\" is not allowed' : 'a storage class is required and none could be defaulted')" +
            ` + ${tenant} + '; allowed: ' + ${listText('variables.storageClasses')}`,
          reason: 'Forbidden',
        },
        {
          expression: 'variables.podClaimClassNames.all(n, n in variables.storageClasses)',
          messageExpression:
            "'storage class \"' + variables.podClaimClassNames.filter(n, !(n in variables.storageClasses)).join(', ') + '\" of an ephemeral volume is not allowed'" +
            ` + ${tenant} + '; allowed: ' + ${listText('variables.storageClasses')}`,
          reason: 'Forbidden',
        },
        {
          expression: '!variables.ingressClassChecked || (size(variables.ingressClassNames) > 0 && variables.ingressClassNames.all(n, n in variables.ingressClasses))',
          messageExpression:
            "(size(variables.ingressClassNames) > 0 ? 'ingress class \"' + variables.ingressClassNames.filter(n, !(n in variables.ingressClasses)).join(', ') + '\" is not allowed' : 'an ingress class is required and none could be defaulted')" +
            ` + ${tenant} + '; allowed: ' + ${listText('variables.ingressClasses')}`,
          reason: 'Forbidden',
        },
        {
          expression: '!variables.podCreate || !has(params.spec.priorityClasses) || !has(object.spec.priorityClassName) || object.spec.priorityClassName in variables.priorityClasses',
          messageExpression: `'priority class "' + object.spec.priorityClassName + '" is not allowed' + ${tenant} + '; allowed: ' + ${listText('variables.priorityClasses')}`,
          reason: 'Forbidden',
        },
        {
          expression: '!variables.podCreate || !has(params.spec.runtimeClasses) || !has(object.spec.runtimeClassName) || object.spec.runtimeClassName in variables.runtimeClasses',
          messageExpression: `'runtime class "' + object.spec.runtimeClassName + '" is not allowed' + ${tenant} + '; allowed: ' + ${listText('variables.runtimeClasses')}`,
          reason: 'Forbidden',
        },
        {
          expression: 'size(variables.invalidImages) == 0',
          messageExpression: `'image ' + variables.invalidImages.join(', ') + ' is not a valid image reference: the node could not pull it' + ${tenant}`,
          reason: 'Forbidden',
        },
        {
          expression: 'size(variables.badImages) == 0',
          messageExpression: `'image ' + variables.badImages.join(', ') + ' is not from an allowed registry' + ${tenant} + '; allowed: ' + ${listText('variables.registries')}`,
          reason: 'Forbidden',
        },
        {
          expression: "!variables.podCreate || variables.nodeSelector.all(k, object.spec.?nodeSelector[?k] == optional.of(variables.nodeSelector[k]))",
          messageExpression: `'the pod\\'s nodeSelector must include ' + variables.nodeSelectorText + ${tenant}`,
          reason: 'Forbidden',
        },
        {
          expression: '!variables.podCreate || size(variables.nodeSelector) == 0 || !has(object.spec.nodeName)',
          messageExpression: `'spec.nodeName is not allowed: pods must be scheduled onto nodes matching ' + variables.nodeSelectorText + ${tenant}`,
          reason: 'Forbidden',
        },
      ],
    },
  };
}

/** The cluster-scoped MutatingAdmissionPolicy every tenant with a default or a nodeSelector binds. */
export function defaultsPolicy(): AdmissionObject {
  const patch = (path: string, value: string) => `JSONPatch{op: 'add', path: '${path}', value: ${value}}`;
  const classDefault = (resource: string, field: string, absent: string, path: string) =>
    `(request.resource.resource == '${resource}' && has(params.spec.${field}) && has(params.spec.${field}.default) && ${absent} ? [${patch(path, `params.spec.${field}.default`)}] : [])`;
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'MutatingAdmissionPolicy',
    metadata: { name: DEFAULTS_POLICY_NAME, labels: managedLabels() },
    spec: {
      failurePolicy: 'Fail',
      paramKind: PARAM_KIND,
      matchConstraints: matchResources([
        rule('', ['persistentvolumeclaims'], ['CREATE']),
        rule('networking.k8s.io', ['ingresses'], ['CREATE']),
        rule('', ['pods'], ['CREATE']),
      ]),
      reinvocationPolicy: 'IfNeeded',
      mutations: [
        {
          patchType: 'JSONPatch',
          jsonPatch: {
            expression: classDefault('persistentvolumeclaims', 'storageClasses', `!has(object.spec.storageClassName) && !(has(object.metadata.annotations) && '${BETA_STORAGE_CLASS}' in object.metadata.annotations)`, '/spec/storageClassName'),
          },
        },
        {
          patchType: 'JSONPatch',
          jsonPatch: {
            expression: classDefault('ingresses', 'ingressClasses', "!has(object.spec.ingressClassName) && !(has(object.metadata.annotations) && 'kubernetes.io/ingress.class' in object.metadata.annotations)", '/spec/ingressClassName'),
          },
        },
        {
          // kube-apiserver's Priority plugin has already set spec.priority (0, or the global default's)
          // and runs again after this change; it refuses a priority that is not its class's, so the
          // stale value goes with the new class name.
          patchType: 'JSONPatch',
          jsonPatch: {
            expression:
              classDefault('pods', 'priorityClasses', '!has(object.spec.priorityClassName)', '/spec/priorityClassName') +
              " + (request.resource.resource == 'pods' && has(params.spec.priorityClasses) && has(params.spec.priorityClasses.default) && !has(object.spec.priorityClassName) && has(object.spec.priority) ? [JSONPatch{op: 'remove', path: '/spec/priority'}] : [])",
          },
        },
        { patchType: 'JSONPatch', jsonPatch: { expression: classDefault('pods', 'runtimeClasses', '!has(object.spec.runtimeClassName)', '/spec/runtimeClassName') } },
        {
          // The tenant's nodeSelector is added to the pod's; a key the pod sets to another value is
          // left for the validating policy to refuse.
          patchType: 'JSONPatch',
          jsonPatch: {
            expression:
              "request.resource.resource != 'pods' || !has(params.spec.nodeSelector) ? [] : " +
              `!has(object.spec.nodeSelector) ? (size(params.spec.nodeSelector) == 0 ? [] : [${patch('/spec/nodeSelector', 'params.spec.nodeSelector')}]) : ` +
              "params.spec.nodeSelector.filter(k, !(k in object.spec.nodeSelector)).map(k, JSONPatch{op: 'add', path: '/spec/nodeSelector/' + jsonpatch.escapeKey(k), value: params.spec.nodeSelector[k]})",
          },
        },
      ],
    },
  };
}

const paramRef = (tenant: string) => ({ name: tenant, parameterNotFoundAction: 'Deny' });
const tenantNamespaces = (tenant: string) => ({ matchLabels: { [PADDOCK.tenantLabel]: tenant } });

/** The binding of the restrictions policy to `tenant`'s namespaces, with the Tenant as its parameter. */
export function restrictionsBinding(tenant: Tenant): AdmissionObject {
  const name = tenant.metadata.name;
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: restrictionsBindingName(name), labels: tenantLabels(name), ownerReferences: [controllerRef(tenant)] },
    spec: {
      policyName: RESTRICTIONS_POLICY_NAME,
      paramRef: paramRef(name),
      matchResources: matchResources(undefined, tenantNamespaces(name)),
      validationActions: ['Deny'],
    },
  };
}

/** The binding of the defaults policy to `tenant`'s namespaces, with the Tenant as its parameter. */
export function defaultsBinding(tenant: Tenant): AdmissionObject {
  const name = tenant.metadata.name;
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: defaultsBindingName(name), labels: tenantLabels(name), ownerReferences: [controllerRef(tenant)] },
    spec: {
      policyName: DEFAULTS_POLICY_NAME,
      paramRef: paramRef(name),
      matchResources: matchResources(undefined, tenantNamespaces(name)),
    },
  };
}

/** The bindings `tenant` needs, restrictions first. */
export function desiredBindings(tenant: Tenant): AdmissionObject[] {
  const out: AdmissionObject[] = [];
  if (needsRestrictions(tenant)) out.push(restrictionsBinding(tenant));
  if (needsDefaults(tenant)) out.push(defaultsBinding(tenant));
  return out;
}
