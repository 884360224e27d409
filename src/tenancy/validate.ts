/**
 * Checks on a Tenant that its CRD schema cannot express (or that an older copy of the schema may not
 * have had). A Tenant with problems is never applied: the reconciler reports `Ready=False, InvalidSpec`
 * naming the first field, and leaves the cluster as it is. Never throws, whatever the input.
 */
import { validateTenantQuota } from './quota/validate';
import { PADDOCK, type Labels, type Tenant, type TenantOwner, type TenantSubject } from '../kube/types';
import {
  MANAGED_METADATA_ANNOTATION,
  NAMESPACE_NAME_LABEL,
  NODE_SELECTOR_ANNOTATION,
  PADDOCK_KEY_PREFIX,
  POD_SECURITY_ENFORCE_LABEL,
  POD_SECURITY_VERSION_LABEL,
  declaredNamespaceName,
} from './names';
import { isRecord } from './json';
import { isQuantity } from './quantity-equal';
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isPathSegmentName, isQualifiedName } from './syntax';
import type { AddProblem, ProblemReason, SpecProblem } from './problems';
import { DELETION_POLICIES, LIMIT_TYPES, OWNER_KINDS, OWNER_ROLES, POD_SECURITY_LEVELS, POLICY_TYPES } from './schema/enums';
import { RESTRICTIONS } from './restrictions/registry';

export type { SpecProblem } from './problems';

/** Pod Security Admission's own version grammar (pod-security-admission api.ParseVersion). */
const PSA_VERSION = /^(latest|v1\.(0|[1-9][0-9]*))$/;
const LIMIT_MAPS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** Label keys whose value Paddock decides; setting them through namespaceMetadata would fight it. */
const RESERVED_LABELS = new Set<string>([
  PADDOCK.tenantLabel,
  PADDOCK.managedByLabel,
  POD_SECURITY_ENFORCE_LABEL,
  POD_SECURITY_VERSION_LABEL,
  NAMESPACE_NAME_LABEL,
]);
const RESERVED_ANNOTATIONS = new Set<string>([NODE_SELECTOR_ANNOTATION, MANAGED_METADATA_ANNOTATION]);

/** Every problem of `tenant`, in field order; empty when the Tenant can be applied. */
export function validateTenant(tenant: Tenant): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const add = (field: string, reason: ProblemReason, message: string) => problems.push({ field, reason, message });
  if (!isRecord(tenant)) {
    add('', 'FieldValueInvalid', 'not a Tenant object');
    return problems;
  }
  const name = tenant.metadata?.name;
  if (typeof name !== 'string' || !isDns1123Label(name)) add('metadata.name', 'FieldValueInvalid', 'must be a DNS-1123 label');
  if (!tenant.metadata?.uid) add('metadata.uid', 'FieldValueRequired', 'needed to own the objects Paddock creates');
  const spec = tenant.spec;
  if (!isRecord(spec)) {
    add('spec', 'FieldValueRequired', 'a Tenant needs a spec');
    return problems;
  }
  validateOwners(spec.owners, add);
  validateNamespaces(typeof name === 'string' ? name : '', spec.namespaces, add);
  if (spec.namespaceQuota !== undefined && !(Number.isInteger(spec.namespaceQuota) && spec.namespaceQuota >= 0 && spec.namespaceQuota <= 2 ** 31 - 1)) {
    add('spec.namespaceQuota', 'FieldValueInvalid', 'must be a whole number from 0 to 2147483647');
  }
  validateMetadata(spec.namespaceMetadata, add);
  validateQuotas(spec.resourceQuotas, add);
  validateTenantQuota(spec.quota, add);
  validateLimitRanges(spec.limitRanges, add);
  validatePolicies(spec.networkPolicies, add);
  validateAdditionalRoleBindings(spec.additionalRoleBindings, add);
  if (spec.networkIsolation !== undefined && typeof spec.networkIsolation !== 'boolean') {
    add('spec.networkIsolation', 'FieldValueInvalid', 'must be true or false');
  }
  validateLabelMap('spec.nodeSelector', spec.nodeSelector, add);
  validatePodSecurity(spec.podSecurity, add);
  for (const r of RESTRICTIONS) r.validate?.(`spec.${r.field}`, spec[r.field], add);
  if (spec.deletionPolicy !== undefined && !DELETION_POLICIES.includes(spec.deletionPolicy)) {
    add('spec.deletionPolicy', 'FieldValueNotSupported', 'must be Retain or Delete');
  }
  return problems;
}

type Add = AddProblem;

function validateOwners(owners: unknown, add: Add): void {
  if (!Array.isArray(owners) || owners.length === 0) {
    add('spec.owners', 'FieldValueRequired', 'a Tenant needs at least one owner');
    return;
  }
  const seen = new Map<string, number>();
  owners.forEach((owner: unknown, i) => {
    const field = `spec.owners[${i}]`;
    const key = validateSubject(field, owner, 'owner', add);
    if (key === undefined) return;
    const o = owner as Partial<TenantOwner>;
    if (o.role !== undefined && !OWNER_ROLES.includes(o.role)) add(`${field}.role`, 'FieldValueNotSupported', 'must be admin, operator or viewer');
    const first = seen.get(key);
    if (first !== undefined) add(field, 'FieldValueDuplicate', `${key} is already spec.owners[${first}]; list each owner once with one role`);
    else seen.set(key, i);
  });
}

/**
 * Checks one user, group or ServiceAccount (`who`: an owner, a subject) and returns its key
 * (`Group/devs`, `ServiceAccount/ci/deployer`), or undefined when it is too broken to have one.
 */
function validateSubject(field: string, subject: unknown, who: string, add: Add): string | undefined {
  if (!isRecord(subject)) {
    add(field, 'FieldValueInvalid', 'must be an object');
    return undefined;
  }
  const s = subject as Partial<TenantSubject>;
  if (!OWNER_KINDS.includes(s.kind as string)) {
    add(`${field}.kind`, 'FieldValueNotSupported', 'must be User, Group or ServiceAccount');
    return undefined;
  }
  if (typeof s.name !== 'string' || s.name === '') {
    add(`${field}.name`, 'FieldValueRequired', 'must not be empty');
    return undefined;
  }
  if (s.kind === 'ServiceAccount') {
    if (!isDns1123Subdomain(s.name)) add(`${field}.name`, 'FieldValueInvalid', 'a ServiceAccount name must be a DNS-1123 subdomain');
    if (typeof s.namespace !== 'string' || !isDns1123Label(s.namespace)) add(`${field}.namespace`, 'FieldValueRequired', `a ServiceAccount ${who} needs its namespace`);
  } else if (s.namespace !== undefined) {
    add(`${field}.namespace`, 'FieldValueForbidden', `only a ServiceAccount ${who} has a namespace, not a ${s.kind}`);
  }
  return `${s.kind}/${s.kind === 'ServiceAccount' ? `${s.namespace}/` : ''}${s.name}`;
}

/**
 * spec.additionalRoleBindings as a schema would check it: each cluster role named once (its binding is
 * named after it) and a valid RBAC name, each with subjects, none twice. Whether the role may be bound
 * is the installation's to say, not the spec's: see bindable.ts.
 */
function validateAdditionalRoleBindings(items: unknown, add: Add): void {
  if (items === undefined) return;
  if (!Array.isArray(items)) return add('spec.additionalRoleBindings', 'FieldValueInvalid', 'must be a list');
  const roles = new Map<string, number>();
  items.forEach((item: unknown, i) => {
    const field = `spec.additionalRoleBindings[${i}]`;
    if (!isRecord(item)) return add(field, 'FieldValueInvalid', 'must be an object');
    const role = item.clusterRoleName;
    if (typeof role !== 'string' || !isPathSegmentName(role)) {
      add(`${field}.clusterRoleName`, 'FieldValueInvalid', 'must be the name of a ClusterRole');
    } else if (roles.has(role)) {
      add(`${field}.clusterRoleName`, 'FieldValueDuplicate', `${role} is already spec.additionalRoleBindings[${roles.get(role)}]; list each cluster role once with all its subjects`);
    } else {
      roles.set(role, i);
    }
    const subjects = item.subjects;
    if (!Array.isArray(subjects) || subjects.length === 0) return add(`${field}.subjects`, 'FieldValueRequired', 'must list at least one subject');
    const seen = new Map<string, number>();
    subjects.forEach((subject: unknown, j) => {
      const key = validateSubject(`${field}.subjects[${j}]`, subject, 'subject', add);
      if (key === undefined) return;
      const first = seen.get(key);
      if (first !== undefined) add(`${field}.subjects[${j}]`, 'FieldValueDuplicate', `${key} is already ${field}.subjects[${first}]`);
      else seen.set(key, j);
    });
  });
}

function validateNamespaces(tenant: string, namespaces: unknown, add: Add): void {
  if (namespaces === undefined) return;
  if (!Array.isArray(namespaces)) return add('spec.namespaces', 'FieldValueInvalid', 'must be a list of names');
  const seen = new Set<string>();
  namespaces.forEach((n: unknown, i) => {
    const field = `spec.namespaces[${i}]`;
    if (typeof n !== 'string' || !isDns1123Label(n)) return add(field, 'FieldValueInvalid', 'must be a DNS-1123 label');
    if (!isDns1123Label(declaredNamespaceName(tenant, n))) add(field, 'FieldValueInvalid', `${declaredNamespaceName(tenant, n)} is longer than 63 characters`);
    if (seen.has(n)) add(field, 'FieldValueDuplicate', `${n} is listed twice`);
    seen.add(n);
  });
}

function validateMetadata(metadata: unknown, add: Add): void {
  if (metadata === undefined) return;
  if (!isRecord(metadata)) return add('spec.namespaceMetadata', 'FieldValueInvalid', 'must be an object');
  validateLabelMap('spec.namespaceMetadata.labels', metadata.labels, add, RESERVED_LABELS);
  const annotations = metadata.annotations;
  if (annotations === undefined) return;
  if (!isStringMap(annotations)) return add('spec.namespaceMetadata.annotations', 'FieldValueInvalid', 'must map keys to strings');
  for (const key of Object.keys(annotations)) {
    const field = `spec.namespaceMetadata.annotations[${key}]`;
    if (!isQualifiedName(key)) add(field, 'FieldValueInvalid', 'not a valid annotation key');
    else if (RESERVED_ANNOTATIONS.has(key) || key.startsWith(PADDOCK_KEY_PREFIX)) add(field, 'FieldValueForbidden', 'Paddock sets this key itself');
  }
}

function validateLabelMap(path: string, labels: unknown, add: Add, reserved?: Set<string>): void {
  if (labels === undefined) return;
  if (!isStringMap(labels)) return add(path, 'FieldValueInvalid', 'must map keys to strings');
  for (const [key, value] of Object.entries(labels)) {
    const field = `${path}[${key}]`;
    if (!isQualifiedName(key)) add(field, 'FieldValueInvalid', 'not a valid label key');
    else if (reserved && (reserved.has(key) || key.startsWith(PADDOCK_KEY_PREFIX))) add(field, 'FieldValueForbidden', 'Paddock sets this key itself');
    if (!isLabelValue(value)) add(field, 'FieldValueInvalid', `${JSON.stringify(value)} is not a valid label value`);
  }
}

function validateQuotas(quotas: unknown, add: Add): void {
  if (quotas === undefined) return;
  if (!Array.isArray(quotas)) return add('spec.resourceQuotas', 'FieldValueInvalid', 'must be a list');
  quotas.forEach((quota: unknown, i) => {
    if (!isRecord(quota)) return add(`spec.resourceQuotas[${i}]`, 'FieldValueInvalid', 'must be an object');
    validateQuantities(`spec.resourceQuotas[${i}].hard`, quota.hard, add);
  });
}

function validateLimitRanges(ranges: unknown, add: Add): void {
  if (ranges === undefined) return;
  if (!Array.isArray(ranges)) return add('spec.limitRanges', 'FieldValueInvalid', 'must be a list');
  ranges.forEach((range: unknown, i) => {
    const field = `spec.limitRanges[${i}].limits`;
    if (!isRecord(range) || !Array.isArray(range.limits)) return add(field, 'FieldValueRequired', 'must be a list of limits');
    range.limits.forEach((item: unknown, j) => {
      if (!isRecord(item)) return add(`${field}[${j}]`, 'FieldValueInvalid', 'must be an object');
      if (!LIMIT_TYPES.includes(item.type as string)) add(`${field}[${j}].type`, 'FieldValueNotSupported', 'must be Pod, Container or PersistentVolumeClaim');
      for (const map of LIMIT_MAPS) validateQuantities(`${field}[${j}].${map}`, item[map], add);
    });
  });
}

function validateQuantities(path: string, map: unknown, add: Add): void {
  if (map === undefined) return;
  if (!isRecord(map)) return add(path, 'FieldValueInvalid', 'must map resource names to quantities');
  for (const [key, value] of Object.entries(map)) {
    if ((typeof value !== 'string' && typeof value !== 'number') || !isQuantity(value)) {
      add(`${path}[${key}]`, 'FieldValueInvalid', `${JSON.stringify(value)} is not a quantity (like 500m, 2, 16Gi)`);
    }
  }
}

function validatePolicies(policies: unknown, add: Add): void {
  if (policies === undefined) return;
  if (!Array.isArray(policies)) return add('spec.networkPolicies', 'FieldValueInvalid', 'must be a list');
  policies.forEach((policy: unknown, i) => {
    const field = `spec.networkPolicies[${i}]`;
    if (!isRecord(policy)) return add(field, 'FieldValueInvalid', 'must be a NetworkPolicySpec');
    if (policy.podSelector !== undefined && !isRecord(policy.podSelector)) add(`${field}.podSelector`, 'FieldValueInvalid', 'must be a label selector');
    for (const direction of ['ingress', 'egress']) {
      const rules = policy[direction];
      if (rules !== undefined && !(Array.isArray(rules) && rules.every(isRecord))) add(`${field}.${direction}`, 'FieldValueInvalid', 'must be a list of rules');
    }
    const types = policy.policyTypes;
    if (types !== undefined && !(Array.isArray(types) && types.every((t) => POLICY_TYPES.includes(t as string)))) {
      add(`${field}.policyTypes`, 'FieldValueNotSupported', 'may hold only Ingress and Egress');
    }
  });
}

function validatePodSecurity(podSecurity: unknown, add: Add): void {
  if (podSecurity === undefined) return;
  if (!isRecord(podSecurity)) return add('spec.podSecurity', 'FieldValueInvalid', 'must be an object');
  if (podSecurity.enforce !== undefined && !POD_SECURITY_LEVELS.includes(podSecurity.enforce as string)) {
    add('spec.podSecurity.enforce', 'FieldValueNotSupported', 'must be privileged, baseline or restricted');
  }
  if (podSecurity.version !== undefined && !(typeof podSecurity.version === 'string' && PSA_VERSION.test(podSecurity.version))) {
    add('spec.podSecurity.version', 'FieldValueInvalid', `${JSON.stringify(podSecurity.version)} is not "latest" or "v1.<minor>"`);
  }
}

function isStringMap(value: unknown): value is Labels {
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}
