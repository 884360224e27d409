import { classDefault, isCreate, MUTATE, VALIDATE } from './cel';
import { classKind, classRefusal } from './class-kind';

const ANNOTATION = 'kubernetes.io/ingress.class';

/**
 * Which IngressClasses a tenant's Ingresses may use. An Ingress names its class in spec.ingressClassName
 * or, the older way, in an annotation: every name given must be allowed. An UPDATE that changes neither
 * is not checked again.
 */
export const ingressClasses = classKind('ingressClasses', {
  validating: {
    rules: [VALIDATE.ingresses],
    variables: [
      { name: 'ingressClassNames', expression: `variables.isIngress ? [object.spec.?ingressClassName, object.metadata.?annotations[?'${ANNOTATION}']].filter(o, o.hasValue()).map(o, o.value()) : []` },
      {
        name: 'ingressClassChecked',
        expression:
          `variables.isIngress && has(params.spec.ingressClasses) && (${isCreate} || oldObject.spec.?ingressClassName != object.spec.?ingressClassName || ` +
          `oldObject.metadata.?annotations[?'${ANNOTATION}'] != object.metadata.?annotations[?'${ANNOTATION}'])`,
      },
    ],
    validations: [classRefusal('ingressClasses', 'ingress class', 'variables.ingressClassNames', 'variables.ingressClassChecked', 'an')],
  },
  mutating: {
    rules: [MUTATE.ingresses],
    patches: classDefault('ingresses', 'ingressClasses', `!has(object.spec.ingressClassName) && !(has(object.metadata.annotations) && '${ANNOTATION}' in object.metadata.annotations)`, '/spec/ingressClassName'),
  },
});
