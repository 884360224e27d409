import { PADDOCK } from '../../kube/types';
import { gatewayWithin, hostsOf, NAMES_HOSTS } from '../hostnames/cel';
import { HOSTNAME_LEDGER_NAME, HOSTNAME_LEDGER_NAMESPACE } from '../hostnames/ledger';
import { isCreate, REQUEST_VARIABLES, VALIDATE } from '../restrictions/cel';
import { RESTRICTION_KIND } from '../schema/restriction-crd';
import { TENANT_NAMESPACES, type Fence } from './fence';

/** The request variables the hosts are read with (restrictions/cel.ts), declared as that policy does. */
const KIND_VARIABLES = REQUEST_VARIABLES.filter((v) => ['requestKind', 'isIngress', 'isGateway', 'isListenerSet', 'isRoute'].includes(v.name));

/**
 * Hostnames allocated to one tenant are no other tenant's to serve (SPEC §10): in every tenant
 * namespace, kube-apiserver refuses an Ingress, Gateway, ListenerSet or route naming a host that
 * overlaps a pattern another tenant holds — also for tenants that list no hostnames of their own (for
 * those that do, their own list already says it). Its parameter is the hostname ledger
 * (hostnames/ledger.ts), one object for the cluster, read and written by Paddock alone; the request's tenant is its namespace's tenant
 * label, which only Paddock writes. Each request pays a walk over the held patterns; only requests
 * that name hosts pay it (no Pod does). Overlap is Gateway API's (patterns.ts): the wider rule.
 *
 * A rule, listener or route without a host serves every host: refused while another tenant holds any
 * pattern (a Gateway API listener of another protocol names none and is not judged, as in hostsOf).
 *
 * Not covered: a pattern is refused to others from the moment it is in the ledger (the holder's pass
 * wrote it) and kube-apiserver's informer has the new ledger, a second or so later; an object another
 * tenant created before then is not removed (a new claim does not evict, as a new namespace name does
 * not). Namespaces that are no tenant's are the cluster admin's and not judged.
 */
export const hostnamesFence: Fence = {
  name: 'paddock-tenant-hostnames',
  rules: [VALIDATE.ingresses, VALIDATE.gateways, VALIDATE.gatewayHostnames],
  namespaces: TENANT_NAMESPACES,
  param: { apiVersion: `${RESTRICTION_KIND.group}/${RESTRICTION_KIND.version}`, kind: RESTRICTION_KIND.kind, name: HOSTNAME_LEDGER_NAME, namespace: HOSTNAME_LEDGER_NAMESPACE, notFound: 'Allow' },
  variables: [
    ...KIND_VARIABLES,
    // '' is a rule, listener or route without a host: it serves every host, the held ones included.
    { name: 'hosts', expression: `${NAMES_HOSTS} ? ${hostsOf('object')} : []` },
    { name: 'hostsChanged', expression: `size(variables.hosts) > 0 && (${isCreate} || variables.hosts != ${hostsOf('oldObject')})` },
    {
      name: 'heldByOthers',
      expression:
        `variables.hostsChanged ? params.spec.?hostnameHolders.orValue({}).filter(p, params.spec.hostnameHolders[p] != namespaceObject.metadata.labels['${PADDOCK.tenantLabel}']) : []`,
    },
    {
      name: 'taken',
      expression: `variables.hosts.filter(h, h == '' ? size(variables.heldByOthers) > 0 : variables.heldByOthers.exists(p, ${gatewayWithin('h', 'p')} || ${gatewayWithin('p', 'h')}))` +
        ".map(h, h == '' ? '(none: every host)' : h)",
    },
  ],
  validations: [
    {
      expression: 'size(variables.taken) == 0',
      messageExpression: `'hostname "' + variables.taken.join(', ') + '" is allocated to another tenant (tenant ' + namespaceObject.metadata.labels['${PADDOCK.tenantLabel}'] + ')'`,
      reason: 'Forbidden',
    },
  ],
};
