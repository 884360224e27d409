import type { ServiceType } from '../../kube/types';
import type { AddProblem } from '../problems';
import { isQualifiedName } from '../syntax';
import { isCreate, listText, TENANT, VALIDATE, type Variable } from './cel';
import { allowedList, checkAllowedLists, checkCidr, CIDR_ITEM } from './allowed-lists';
import type { Restriction } from './restriction';

const SERVICE_TYPES: readonly ServiceType[] = ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'];

/**
 * The steps that judge a list of externalIPs (`ips`, a policy variable of strings) against a list of
 * CIDRs (`cidrs`): each address is read by the CEL library's `ip()` (ip-address.ts says how), which
 * refuses what another reader could take for another address — a leading zero, an IPv4-mapped IPv6
 * address — so that the address judged is the address kube-proxy routes. An address it cannot read is
 * refused; one it reads must be in a listed CIDR (a CIDR it cannot read allows nothing).
 */
export function externalIPVariables(ips: string, cidrs: string): Variable[] {
  return [
    { name: 'malformedExternalIPs', expression: `variables.${ips}.filter(i, !isIP(i))` },
    { name: 'outsideExternalIPs', expression: `variables.${ips}.filter(i, isIP(i) && !variables.${cidrs}.exists(c, isCIDR(c) && cidr(c).containsIP(ip(i))))` },
  ];
}

/**
 * Which Services a tenant may make (SPEC §10): of the types it lists (ClusterIP always; any without
 * `types`), with externalIPs only inside the CIDRs it lists — **none without them**, since a Service's
 * externalIPs capture that address's traffic for every pod of the cluster (CVE-2020-8554) — and, with
 * `loadBalancerClasses`, a load balancer only of a class it lists. The externalIP check therefore holds in
 * every tenant namespace, whether its Tenant sets the field or not (the field is absent from its
 * TenantRestriction then).
 *
 * A request is checked for what it brings in, as the image checks are: all of a new Service, and on an
 * update a type, externalIPs or load balancer class the Service did not have. A value admitted earlier
 * (before the Tenant restricted it) stays while the Service keeps it; it grants nothing new.
 */
export const services: Restriction = {
  field: 'services',
  schema: {
    type: 'object',
    description:
      "Which Services the tenant may make: their types (ClusterIP is always allowed; absent means any), the CIDRs their externalIPs must be in (absent means no externalIPs at all), and the load balancer classes a LoadBalancer Service must name (absent means any, or none).",
    properties: {
      types: allowedList('The Service types the tenant may make besides ClusterIP, which is always allowed.', { type: 'string', enum: SERVICE_TYPES }, SERVICE_TYPES.length),
      externalIPs: allowedList('The CIDRs every externalIP of a Service must be in; with none listed, a Service may have no externalIPs.', CIDR_ITEM, 64),
      loadBalancerClasses: allowedList(
        'The loadBalancerClass a LoadBalancer Service must name, one of these: one without a class (the cluster\'s default load balancer) is refused.',
        { type: 'string', minLength: 1, maxLength: 316 },
        64,
      ),
    },
  },
  validate: validateServices,
  validating: {
    rules: [VALIDATE.services],
    variables: [
      { name: 'serviceTypes', expression: "['ClusterIP'] + params.spec.?services.?types.?allowed.orValue([]).filter(t, t != 'ClusterIP')" },
      // kube-apiserver has defaulted an absent type to ClusterIP before admission.
      { name: 'serviceType', expression: "variables.isService ? object.spec.?type.orValue('ClusterIP') : ''" },
      { name: 'oldServiceType', expression: `variables.isService && !(${isCreate}) ? oldObject.spec.?type.orValue('ClusterIP') : ''` },
      { name: 'externalIPCidrs', expression: 'params.spec.?services.?externalIPs.?allowed.orValue([])' },
      { name: 'serviceExternalIPs', expression: 'variables.isService ? object.spec.?externalIPs.orValue([]) : []' },
      { name: 'oldExternalIPs', expression: `variables.isService && !(${isCreate}) ? oldObject.spec.?externalIPs.orValue([]) : []` },
      { name: 'newExternalIPs', expression: 'variables.serviceExternalIPs.filter(i, !(i in variables.oldExternalIPs))' },
      ...externalIPVariables('newExternalIPs', 'externalIPCidrs'),
      { name: 'loadBalancerClasses', expression: 'params.spec.?services.?loadBalancerClasses.?allowed.orValue([])' },
      { name: 'loadBalancerClass', expression: "variables.isService ? object.spec.?loadBalancerClass.orValue('') : ''" },
      {
        // A class is named only on a LoadBalancer (kube-apiserver refuses it elsewhere, and cannot change
        // it once set): checked on a new load balancer, and on an update that changes the type or class.
        name: 'loadBalancerClassChecked',
        expression:
          "variables.isService && params.spec.?services.?loadBalancerClasses.hasValue() && (variables.serviceType == 'LoadBalancer' || variables.loadBalancerClass != '') && " +
          `(${isCreate} || variables.serviceType != variables.oldServiceType || variables.loadBalancerClass != oldObject.spec.?loadBalancerClass.orValue(''))`,
      },
    ],
    validations: [
      {
        expression: '!variables.isService || !params.spec.?services.?types.hasValue() || variables.serviceType == variables.oldServiceType || variables.serviceType in variables.serviceTypes',
        messageExpression: `'Service type ' + variables.serviceType + ' is not allowed' + ${TENANT} + '; allowed: ' + ${listText('variables.serviceTypes')}`,
        reason: 'Forbidden',
      },
      {
        expression: 'size(variables.malformedExternalIPs) == 0',
        messageExpression:
          `'externalIPs ' + variables.malformedExternalIPs.join(', ') + ' not allowed: not an IP address in standard form (no leading zeros, no IPv4-mapped IPv6 address)' + ${TENANT}`,
        reason: 'Forbidden',
      },
      {
        expression: 'size(variables.outsideExternalIPs) == 0',
        messageExpression: `'externalIPs ' + variables.outsideExternalIPs.join(', ') + ' not allowed' + ${TENANT} + '; allowed: ' + ${listText('variables.externalIPCidrs')}`,
        reason: 'Forbidden',
      },
      {
        expression: '!variables.loadBalancerClassChecked || variables.loadBalancerClass in variables.loadBalancerClasses',
        messageExpression:
          `(variables.loadBalancerClass == '' ? 'a LoadBalancer Service must name a loadBalancerClass' : 'loadBalancerClass "' + variables.loadBalancerClass + '" is not allowed')` +
          ` + ${TENANT} + '; allowed: ' + ${listText('variables.loadBalancerClasses')}`,
        reason: 'Forbidden',
      },
    ],
  },
};

/** What the CRD schema says, and what an older copy of it may not have: types, CIDRs, class names. */
function validateServices(path: string, value: unknown, add: AddProblem): void {
  checkAllowedLists(path, value, add, {
    types: (t, at) => {
      if (!SERVICE_TYPES.includes(t as ServiceType)) add(at, 'FieldValueNotSupported', `must be one of ${SERVICE_TYPES.join(', ')}`);
    },
    externalIPs: (c, at) => checkCidr(c, at, add),
    loadBalancerClasses: (n, at) => {
      if (typeof n !== 'string' || !isQualifiedName(n)) add(at, 'FieldValueInvalid', `${JSON.stringify(n)} is not a load balancer class name ([prefix/]name, as kube requires of spec.loadBalancerClass)`);
    },
  });
}
