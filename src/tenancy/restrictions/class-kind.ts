import type { ClassField } from '../../kube/types';
import { labelSelectorFromMetav1 } from '../../selectors/label-selector';
import { isRecord } from '../json';
import type { AddProblem } from '../problems';
import { isDns1123Subdomain } from '../syntax';
import { allowedNames, classDefault, listText, MUTATE, TENANT, VALIDATE, type ResourceRule, type Validation, type Variable } from './cel';
import type { Restriction } from './restriction';
import type { Schema } from '../schema/schema';

/** `{allowed, selector, default}` in the Tenant CRD; the default must itself be listed. */
const CLASS_POLICY_SCHEMA: Schema = {
  type: 'object',
  description: "Which classes the tenant's workloads may use; absent means any. A class is allowed when listed or when its labels match the selector.",
  'x-kubernetes-validations': [
    {
      rule: '!has(self.default) || (has(self.allowed) && self.default in self.allowed)',
      message: 'default must itself be allowed: list it in allowed',
      fieldPath: '.default',
    },
  ],
  properties: {
    allowed: {
      type: 'array',
      maxItems: 256,
      'x-kubernetes-list-type': 'set',
      items: { type: 'string', minLength: 1, maxLength: 253 },
    },
    selector: {
      type: 'object',
      properties: {
        matchLabels: { type: 'object', additionalProperties: { type: 'string' } },
        matchExpressions: {
          type: 'array',
          items: {
            type: 'object',
            required: ['key', 'operator'],
            'x-kubernetes-validations': [
              {
                rule: "self.operator in ['In', 'NotIn'] ? has(self.values) && size(self.values) > 0 : !has(self.values) || size(self.values) == 0",
                message: 'In and NotIn need values; Exists and DoesNotExist take none',
              },
            ],
            properties: {
              key: { type: 'string' },
              operator: { type: 'string', enum: ['In', 'NotIn', 'Exists', 'DoesNotExist'] },
              values: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    default: { type: 'string', minLength: 1, maxLength: 253 },
  },
};

/**
 * A class kind a tenant may restrict (`{allowed, selector, default}`): restricted when the field is set,
 * defaulted when it names a default. The allowed names are the policy variable named after the field
 * (`variables.storageClasses`): listed, or resolved from the selector into `status.allowed`.
 */
export function classKind(field: ClassField, parts: {
  validating: { rules: readonly ResourceRule[]; variables: readonly Variable[]; validations: readonly Validation[] };
  mutating: { rules: readonly ResourceRule[]; patches: string };
}): Restriction {
  return {
    field,
    schema: CLASS_POLICY_SCHEMA,
    resolvesNames: true,
    validate: validateClassPolicy,
    validating: { ...parts.validating, variables: [{ name: field, expression: allowedNames(field) }, ...parts.validating.variables] },
    mutating: { ...parts.mutating, when: `has(params.spec.${field}) && has(params.spec.${field}.default)` },
  };
}

/**
 * The refusal of a class that is not allowed: `names` (a list variable) are the classes the request
 * names, `checked` whether this request is one to check; with none named, no default could be applied.
 */
export function classRefusal(field: ClassField, what: string, names: string, checked: string, article = 'a'): Validation {
  return {
    expression: `!${checked} || (size(${names}) > 0 && ${names}.all(n, n in variables.${field}))`,
    messageExpression:
      `(size(${names}) > 0 ? '${what} "' + ${names}.filter(n, !(n in variables.${field})).join(', ') + '" is not allowed' : '${article} ${what} is required and none could be defaulted')` +
      ` + ${TENANT} + '; allowed: ' + ${listText(`variables.${field}`)}`,
    reason: 'Forbidden',
  };
}

/**
 * A class policy: names are object names, the selector must parse as a label selector, and the default
 * must be one of the listed names (a default chosen by a selector would stop being allowed, unnoticed,
 * the moment someone relabels the class).
 */
function validateClassPolicy(path: string, policy: unknown, add: AddProblem): void {
  if (policy === undefined) return;
  if (!isRecord(policy)) return add(path, 'FieldValueInvalid', 'must be an object');
  const allowed = policy.allowed;
  if (allowed !== undefined && !(Array.isArray(allowed) && allowed.every((n) => typeof n === 'string' && isDns1123Subdomain(n)))) {
    add(`${path}.allowed`, 'FieldValueInvalid', 'must be a list of object names');
  }
  if (policy.selector !== undefined) {
    try {
      if (!isRecord(policy.selector)) throw new Error('must be a label selector');
      labelSelectorFromMetav1(policy.selector as Parameters<typeof labelSelectorFromMetav1>[0]);
    } catch (err) {
      add(`${path}.selector`, 'FieldValueInvalid', `not a valid label selector: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const def = policy.default;
  if (def === undefined) return;
  if (typeof def !== 'string' || !isDns1123Subdomain(def)) return add(`${path}.default`, 'FieldValueInvalid', 'must be an object name');
  if (!(Array.isArray(allowed) && allowed.includes(def))) {
    add(`${path}.default`, 'FieldValueInvalid', `${JSON.stringify(def)} must itself be allowed: list it in ${path}.allowed`);
  }
}

/**
 * A class kind a Pod names in one spec field (immutable once the pod exists, so checked at create):
 * a pod that names none is accepted (it uses none); the default fills the field in when absent.
 * `alsoOnDefault` adds to the defaulting patch (a CEL list of patches appended to it).
 */
export function podClassKind(field: ClassField, what: string, specField: string, alsoOnDefault = ''): Restriction {
  return classKind(field, {
    validating: {
      rules: [VALIDATE.pods],
      variables: [],
      validations: [
        {
          expression: `!variables.podCreate || !has(params.spec.${field}) || !has(object.spec.${specField}) || object.spec.${specField} in variables.${field}`,
          messageExpression: `'${what} "' + object.spec.${specField} + '" is not allowed' + ${TENANT} + '; allowed: ' + ${listText(`variables.${field}`)}`,
          reason: 'Forbidden',
        },
      ],
    },
    mutating: {
      rules: [MUTATE.pods],
      patches: classDefault('pods', field, `!has(object.spec.${specField})`, `/spec/${specField}`) + alsoOnDefault,
    },
  });
}
