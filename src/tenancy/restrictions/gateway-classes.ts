import { classDefault, isCreate, MUTATE, VALIDATE } from './cel';
import { classKind, classRefusal } from './class-kind';

/**
 * Which GatewayClasses (gateway.networking.k8s.io/v1) a tenant's Gateways may use: the one named in
 * spec.gatewayClassName. The field is required by Gateway API's schema, which kube-apiserver checks
 * after mutating admission, so the tenant's default fills in a Gateway that names none. An UPDATE that
 * keeps the class is not checked again. Where Gateway API is not installed the rules match nothing.
 */
export const gatewayClasses = classKind('gatewayClasses', {
  validating: {
    rules: [VALIDATE.gateways],
    variables: [
      { name: 'gatewayClassNames', expression: "variables.isGateway && object.spec.?gatewayClassName.orValue('') != '' ? [object.spec.gatewayClassName] : []" },
      {
        name: 'gatewayClassChecked',
        expression: `variables.isGateway && has(params.spec.gatewayClasses) && (${isCreate} || oldObject.spec.?gatewayClassName != object.spec.?gatewayClassName)`,
      },
    ],
    validations: [classRefusal('gatewayClasses', 'gateway class', 'variables.gatewayClassNames', 'variables.gatewayClassChecked')],
  },
  mutating: {
    rules: [MUTATE.gateways],
    patches: classDefault('gateways', 'gatewayClasses', "object.spec.?gatewayClassName.orValue('') == ''", '/spec/gatewayClassName'),
  },
});
