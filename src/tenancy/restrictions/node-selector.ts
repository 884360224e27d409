import { addPatch, MUTATE, TENANT, VALIDATE } from './cel';
import type { Restriction } from './restriction';

/**
 * Which nodes a tenant's Pods may run on: the tenant's nodeSelector is merged into every new pod's
 * (a key the pod sets to another value is left for the validating policy to refuse), and a pod that
 * names its node (`spec.nodeName`, which bypasses scheduling) is refused. The field's syntax is
 * validated with the Tenant's other label maps (validate.ts).
 */
export const nodeSelector: Restriction = {
  field: 'nodeSelector',
  schema: { type: 'object', description: "Labels a node must have for the tenant's pods; also decides which nodes the tenant may see.", additionalProperties: { type: 'string' } },
  validating: {
    rules: [VALIDATE.pods],
    variables: [
      { name: 'nodeSelector', expression: 'params.spec.?nodeSelector.orValue({})' },
      { name: 'nodeSelectorText', expression: "variables.nodeSelector.map(k, k + '=' + variables.nodeSelector[k]).sort().join(',')" },
    ],
    validations: [
      {
        expression: '!variables.podCreate || variables.nodeSelector.all(k, object.spec.?nodeSelector[?k] == optional.of(variables.nodeSelector[k]))',
        messageExpression: `'the pod\\'s nodeSelector must include ' + variables.nodeSelectorText + ${TENANT}`,
        reason: 'Forbidden',
      },
      {
        expression: '!variables.podCreate || size(variables.nodeSelector) == 0 || !has(object.spec.nodeName)',
        messageExpression: `'spec.nodeName is not allowed: pods must be scheduled onto nodes matching ' + variables.nodeSelectorText + ${TENANT}`,
        reason: 'Forbidden',
      },
    ],
  },
  mutating: {
    rules: [MUTATE.pods],
    when: 'size(params.spec.?nodeSelector.orValue({})) > 0',
    patches: "request.resource.resource != 'pods' || !has(params.spec.nodeSelector) ? [] : " +
          `!has(object.spec.nodeSelector) ? (size(params.spec.nodeSelector) == 0 ? [] : [${addPatch('/spec/nodeSelector', 'params.spec.nodeSelector')}]) : ` +
          "params.spec.nodeSelector.filter(k, !(k in object.spec.nodeSelector)).map(k, JSONPatch{op: 'add', path: '/spec/nodeSelector/' + jsonpatch.escapeKey(k), value: params.spec.nodeSelector[k]})",
  },
};
