import { isCreate, listText, MUTATE, TENANT, VALIDATE } from './cel';
import { classKind } from './class-kind';

/** The device requests of a ResourceClaim (spec.devices) or a ResourceClaimTemplate (spec.spec.devices). */
const REQUESTS =
  "(request.resource.resource == 'resourceclaims' ? object.spec.?devices.?requests.orValue([]) : object.spec.?spec.?devices.?requests.orValue([]))";
/** Where those requests are, as a JSON Patch path prefix. */
const REQUESTS_PATH = "(request.resource.resource == 'resourceclaims' ? '/spec/devices/requests/' : '/spec/spec/devices/requests/')";

const setDefault = (path: string) => `JSONPatch{op: 'add', path: ${path}, value: params.spec.deviceClasses.default}`;

/**
 * Which DeviceClasses (resource.k8s.io/v1) a tenant's ResourceClaims and ResourceClaimTemplates may
 * name. A device request names its class in exactly one of two places: `exactly.deviceClassName`, or
 * `deviceClassName` of each of its `firstAvailable` subrequests; a template holds a claim's spec under
 * `spec.spec`. Every name there must be allowed. Both kinds' specs are immutable, so only a create is
 * judged. A request that names no class where one is required is kube-apiserver's own error, unless the
 * tenant's default fills it in first (the mutating policy sets it wherever the name is empty).
 */
export const deviceClasses = classKind('deviceClasses', {
  validating: {
    rules: [VALIDATE.deviceClaims],
    variables: [
      {
        name: 'deviceRequests',
        expression:
          "(request.resource.resource == 'resourceclaims' || request.resource.resource == 'resourceclaimtemplates') && request.?subResource.orValue('') == '' && " +
          `${isCreate} && has(params.spec.deviceClasses) ? ${REQUESTS} : []`,
      },
      {
        name: 'deniedDeviceClasses',
        expression:
          "variables.deviceRequests.filter(r, r.?exactly.?deviceClassName.orValue('') != '' && !(r.exactly.deviceClassName in variables.deviceClasses)).map(r, r.exactly.deviceClassName) + " +
          "variables.deviceRequests.map(r, r.?firstAvailable.orValue([]).filter(s, s.?deviceClassName.orValue('') != '' && !(s.deviceClassName in variables.deviceClasses))" +
          ".map(s, s.deviceClassName).join(', ')).filter(t, t != '')",
      },
    ],
    validations: [
      {
        expression: 'size(variables.deniedDeviceClasses) == 0',
        messageExpression:
          "'device class \"' + variables.deniedDeviceClasses.join(', ') + '\" is not allowed'" +
          ` + ${TENANT} + '; allowed: ' + ${listText('variables.deviceClasses')}`,
        reason: 'Forbidden',
      },
    ],
  },
  mutating: {
    rules: [MUTATE.deviceClaims],
    patches: "((request.resource.resource == 'resourceclaims' || request.resource.resource == 'resourceclaimtemplates') && has(params.spec.deviceClasses) && has(params.spec.deviceClasses.default) ? " +
          `${REQUESTS}.transformList(i, r, r.?exactly.hasValue() && r.exactly.?deviceClassName.orValue('') == '', ${setDefault(`${REQUESTS_PATH} + string(i) + '/exactly/deviceClassName'`)}) + ` +
          `${REQUESTS}.transformList(i, r, r.?firstAvailable.hasValue(), r.firstAvailable.transformList(j, s, s.?deviceClassName.orValue('') == '', ` +
          `${setDefault(`${REQUESTS_PATH} + string(i) + '/firstAvailable/' + string(j) + '/deviceClassName'`)})).flatten() : [])`,
  },
});
