import { isCreate, listText, MUTATE, TENANT, VALIDATE } from './cel';
import type { Restriction } from './restriction';

const POLICIES = ['Always', 'IfNotPresent', 'Never'];

/**
 * `[what, policy]` for every image a Pod pulls: each container of each kind and each image volume (typed
 * strings: the lists' elements arrive typed dyn).
 * kube-apiserver has defaulted every policy before admission (Always for `:latest` or no tag, else
 * IfNotPresent), so an absent one (`''`) can only be refused.
 */
const pulls = (o: string) =>
  `(${o}.spec.?containers.orValue([]) + ${o}.spec.?initContainers.orValue([]) + ${o}.spec.?ephemeralContainers.orValue([])).map(c, ['container ' + string(c.name), string(c.?imagePullPolicy.orValue(''))])` +
  ` + ${o}.spec.?volumes.orValue([]).filter(v, has(v.image)).map(v, ['image volume ' + string(v.name), string(v.image.?pullPolicy.orValue(''))])`;

/** The one policy to set, when the tenant allows exactly one. */
const only = 'params.spec.imagePullPolicies[0]';
/**
 * One JSON Patch `add` (which replaces a member that exists) per item of the list `field` that `needs`
 * the policy set, at `<field>/<index>/<member>`: nothing at all when every item has it already.
 */
const setEach = (field: string, needs: string, member: string) =>
  `object.spec.?${field}.orValue([]).transformList(i, x, ${needs}, JSONPatch{op: 'add', path: '/spec/${field}/' + string(i) + '${member}', value: ${only}})`;
/**
 * Which image pull policies a tenant's Pods may use (`Always` makes the node check the tenant's right to
 * an image at every start, instead of running one another tenant pulled). A request is checked for the
 * pulls it brings in: all of a new pod's, and the ephemeral containers an update adds. When the tenant
 * allows one policy only, the defaults policy sets it on every container and image volume of a new pod,
 * so that kube's own defaulting (IfNotPresent for a tagged image) does not get the pod refused.
 */
export const imagePullPolicies: Restriction = {
  field: 'imagePullPolicies',
  schema: {
    type: 'array',
    description: 'The image pull policies the tenant\'s pods may use; absent means any. With one listed, it is set on every container and image volume.',
    maxItems: 3,
    'x-kubernetes-list-type': 'set',
    items: { type: 'string', enum: POLICIES },
  },
  validating: {
    rules: [VALIDATE.pods],
    variables: [
      { name: 'pullPolicies', expression: 'params.spec.?imagePullPolicies.orValue([])' },
      { name: 'pullsChecked', expression: 'variables.isPod && has(params.spec.imagePullPolicies)' },
      { name: 'podPulls', expression: `variables.pullsChecked ? ${pulls('object')} : []` },
      { name: 'oldPodPulls', expression: `variables.pullsChecked && !(${isCreate}) ? ${pulls('oldObject')} : []` },
      {
        name: 'badPulls',
        expression: "variables.podPulls.filter(p, !(p in variables.oldPodPulls) && !(p[1] in variables.pullPolicies)).map(p, p[0] + ' (' + (p[1] == '' ? 'no policy' : p[1]) + ')')",
      },
    ],
    validations: [
      {
        expression: 'size(variables.badPulls) == 0',
        messageExpression: `'image pull policy not allowed: ' + variables.badPulls.join(', ') + ${TENANT} + '; allowed: ' + ${listText('variables.pullPolicies')}`,
        reason: 'Forbidden',
      },
    ],
  },
  mutating: {
    rules: [MUTATE.pods],
    when: 'size(params.spec.?imagePullPolicies.orValue([])) == 1',
    patches: `request.resource.resource == 'pods' && size(params.spec.?imagePullPolicies.orValue([])) == 1 ? ` +
          [
            setEach('containers', `x.?imagePullPolicy.orValue('') != ${only}`, '/imagePullPolicy'),
            setEach('initContainers', `x.?imagePullPolicy.orValue('') != ${only}`, '/imagePullPolicy'),
            setEach('volumes', `has(x.image) && x.image.?pullPolicy.orValue('') != ${only}`, '/image/pullPolicy'),
          ].join(' + ') +
          ' : []',
  },
};
