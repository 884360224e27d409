import { PADDOCK } from '../../kube/types';
import { PADDOCK_USER } from '../ownership';
import { isDns1123Label } from '../syntax';
import { allowedList, checkAllowedLists, checkCidr, CIDR_ITEM } from './allowed-lists';
import { listText, TENANT, VALIDATE } from './cel';
import type { Restriction } from './restriction';

/** The label kube-apiserver sets on every namespace to its name, and lets nobody change. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/**
 * Whether the ingress peer `p` admits only sources the tenant may let in:
 * - an `ipBlock` within a CIDR the Tenant lists (`except` only narrows it); a CIDR the CEL library
 *   cannot read admits nothing here;
 * - a `namespaceSelector` pinned by its `matchLabels` to this tenant's label, or to the name label of a
 *   namespace the Tenant lists. The terms of a selector are ANDed — every other label and every
 *   `matchExpressions` term, and a `podSelector` beside it, only narrow what the pin selects;
 * - a `podSelector` alone: pods of the policy's own namespace.
 * Anything else (an empty peer, which kube-apiserver refuses itself) is not.
 */
const PEER_ADMITS_ONLY_ALLOWED =
  'has(p.ipBlock) ? (isCIDR(p.ipBlock.cidr) && variables.ingressFromCidrs.exists(c, isCIDR(c) && cidr(c).containsCIDR(cidr(p.ipBlock.cidr)))) : ' +
  `has(p.namespaceSelector) ? (p.namespaceSelector.?matchLabels[?'${PADDOCK.tenantLabel}'].orValue('') == params.spec.tenant || ` +
  `p.namespaceSelector.?matchLabels[?'${NAMESPACE_NAME_LABEL}'].orValue('') in variables.ingressFromNamespaces) : ` +
  'has(p.podSelector)';

const WHY_NOT =
  "has(p.ipBlock) ? 'ipBlock ' + p.ipBlock.cidr + ' is not within an allowed CIDR' : " +
  "has(p.namespaceSelector) ? 'namespaceSelector is not pinned to the tenant or an allowed namespace' : 'an empty peer admits every source'";

/**
 * NetworkPolicies of the tenant's own (SPEC §10): their ingress may admit only this tenant's pods and the
 * sources its Tenant lists in `spec.networkPolicyIngressFrom` — a namespace by name (an ingress
 * controller's) or a CIDR. A rule without `from` admits every source and is refused; every peer must
 * admit only allowed sources (see PEER_ADMITS_ONLY_ALLOWED). Egress is not checked: what a tenant's pods
 * may reach is the tenant's business.
 *
 * Checked on every create and update, the whole policy (a policy admitted before the Tenant narrowed
 * its list must be brought within it to be changed; it can always be deleted). Paddock's own policies
 * (the isolation policy and the cluster admin's `spec.networkPolicies`) are written by Paddock and not
 * checked; no one else may write them (fences/managed-objects.ts).
 *
 * NetworkPolicies add up: a pod selected by any policy admits the union of what they admit. So an
 * owner's policy can only add sources to what Paddock's isolation policy admits (every pod of the
 * tenant) — it cannot narrow traffic inside the tenant unless the Tenant turns `networkIsolation`
 * off — and, being held to the tenant's own sources, it can never let another tenant in.
 */
export const networkPolicyIngress: Restriction = {
  field: 'networkPolicyIngressFrom',
  schema: {
    type: 'object',
    description:
      "Sources outside the tenant that the tenant's own NetworkPolicies may admit ingress from, besides its own namespaces' pods (always allowed). Absent: none. Paddock's policies (networkIsolation, networkPolicies) are not limited by it.",
    properties: {
      namespaces: allowedList(
        'Namespaces (by name) an ingress peer may select, pinned with namespaceSelector.matchLabels kubernetes.io/metadata.name: <name> (an ingress controller\'s, a monitoring system\'s).',
        { type: 'string', minLength: 1, maxLength: 63 },
        32,
      ),
      ipBlocks: allowedList('CIDRs an ingress peer\'s ipBlock.cidr must be within. List only addresses outside the cluster\'s pod network: a CIDR holding pod IPs would admit other tenants\' pods.', CIDR_ITEM, 32),
    },
  },
  validate: (path, value, add) =>
    checkAllowedLists(path, value, add, {
      namespaces: (n, at) => {
        if (typeof n !== 'string' || !isDns1123Label(n)) add(at, 'FieldValueInvalid', `${JSON.stringify(n)} is not a namespace name (a DNS-1123 label)`);
      },
      ipBlocks: (c, at) => checkCidr(c, at, add),
    }),
  validating: {
    rules: [VALIDATE.networkPolicies],
    variables: [
      { name: 'isOwnerNetworkPolicy', expression: `request.resource.resource == 'networkpolicies' && request.?subResource.orValue('') == '' && request.userInfo.username != '${PADDOCK_USER}'` },
      { name: 'ingressFromNamespaces', expression: 'params.spec.?networkPolicyIngressFrom.?namespaces.?allowed.orValue([])' },
      { name: 'ingressFromCidrs', expression: 'params.spec.?networkPolicyIngressFrom.?ipBlocks.?allowed.orValue([])' },
      { name: 'ownerIngress', expression: 'variables.isOwnerNetworkPolicy ? object.spec.?ingress.orValue([]) : []' },
      {
        // Each rule that admits every source, and each peer that admits a source not allowed, by its path.
        name: 'openIngress',
        expression:
          "variables.ownerIngress.transformList(i, r, size(r.?from.orValue([])) == 0, 'spec.ingress[' + string(i) + '] (no from: every source)') + " +
          `variables.ownerIngress.transformList(i, r, r.?from.orValue([]).transformList(j, p, !(${PEER_ADMITS_ONLY_ALLOWED}), 'spec.ingress[' + string(i) + '].from[' + string(j) + '] (' + (${WHY_NOT}) + ')')).flatten()`,
      },
    ],
    validations: [
      {
        expression: '!variables.isOwnerNetworkPolicy || size(variables.openIngress) == 0',
        messageExpression:
          `'NetworkPolicy ingress may come only from the tenant and the sources it lists' + ${TENANT} + '; not allowed: ' + variables.openIngress.join(', ') + ` +
          `'; allowed peers: a podSelector alone, a namespaceSelector with matchLabels ${PADDOCK.tenantLabel}: ' + params.spec.tenant + ` +
          `', or ${NAMESPACE_NAME_LABEL}: one of ' + ${listText('variables.ingressFromNamespaces')} + ', an ipBlock within ' + ${listText('variables.ingressFromCidrs')}`,
        reason: 'Forbidden',
      },
    ],
  },
};
