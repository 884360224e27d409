import { gatewayWithin, hostsOf, ingressWithin, NAMES_HOSTS } from '../hostnames/cel';
import { HOSTNAME_PATTERN, IP_PATTERN, patternProblem } from '../hostnames/patterns';
import { isRecord } from '../json';
import type { AddProblem } from '../problems';
import type { Schema } from '../schema/schema';
import { isCreate, listText, TENANT, VALIDATE } from './cel';
import type { Restriction } from './restriction';

const SCHEMA: Schema = {
  type: 'object',
  description:
    'Which hostnames the tenant may serve: exact names and "*." wildcards, for Ingress rule and TLS hosts, Gateway listener and ' +
    'HTTPRoute/GRPCRoute/TLSRoute hostnames. Absent: any host not allocated to another tenant. A pattern is allocated to one tenant only.',
  properties: {
    allowed: {
      type: 'array',
      maxItems: 64,
      'x-kubernetes-list-type': 'set',
      items: {
        type: 'string',
        minLength: 1,
        maxLength: 253,
        pattern: HOSTNAME_PATTERN,
        'x-kubernetes-validations': [{ rule: `!self.matches('${IP_PATTERN}')`, message: 'must be a name, not an IP address' }],
      },
    },
  },
};

const ALLOWED = 'params.spec.hostnames.?allowed.orValue([])';

/**
 * Which hostnames a tenant's Ingresses, Gateways, ListenerSets and routes may name (SPEC §10): each
 * host must be within a listed pattern, matched as the component that serves it matches (patterns.ts),
 * and a rule, listener or route without a host is refused (it would serve every host, others' too).
 * Checked on create and on an update that changes the hosts. That no other tenant's objects serve a
 * host of these patterns is the allocation's work (hostnames/ and the hostnames fence).
 */
export const hostnames: Restriction = {
  field: 'hostnames',
  schema: SCHEMA,
  validate: validateHostnames,
  validating: {
    rules: [VALIDATE.ingresses, VALIDATE.gateways, VALIDATE.gatewayHostnames],
    variables: [
      { name: 'requestHosts', expression: `has(params.spec.hostnames) && (${NAMES_HOSTS}) ? ${hostsOf('object')} : []` },
      { name: 'hostnamesChecked', expression: `size(variables.requestHosts) > 0 && (${isCreate} || variables.requestHosts != ${hostsOf('oldObject')})` },
      {
        name: 'deniedHosts',
        expression: `variables.hostnamesChecked ? variables.requestHosts.filter(h, !${ALLOWED}.exists(p, variables.isIngress ? ${ingressWithin('h', 'p')} : ${gatewayWithin('h', 'p')})) : []`,
      },
    ],
    validations: [
      {
        expression: 'size(variables.deniedHosts) == 0',
        messageExpression:
          `'hostname "' + variables.deniedHosts.map(h, h == '' ? '(none: every host)' : h).join(', ') + '" is not allowed'` +
          ` + ${TENANT} + '; allowed: ' + ${listText(ALLOWED)}`,
        reason: 'Forbidden',
      },
    ],
  },
};

/** Each pattern as patterns.ts parses it (the schema says the same; this names the pattern and why). */
function validateHostnames(path: string, value: unknown, add: AddProblem): void {
  if (value === undefined) return;
  if (!isRecord(value)) return add(path, 'FieldValueInvalid', 'must be an object');
  const allowed = value.allowed;
  if (allowed === undefined) return;
  if (!Array.isArray(allowed)) return add(`${path}.allowed`, 'FieldValueInvalid', 'must be a list of hostnames');
  allowed.forEach((p, i) => {
    const problem = typeof p === 'string' ? patternProblem(p) : 'must be a string';
    if (problem) add(`${path}.allowed[${i}]`, 'FieldValueInvalid', `${JSON.stringify(p)} ${problem}`);
  });
}
