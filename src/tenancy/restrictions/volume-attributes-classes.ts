import { classDefault, isCreate, listText, MUTATE, TENANT, VALIDATE } from './cel';
import { classKind } from './class-kind';

/**
 * Which VolumeAttributesClasses a tenant's PersistentVolumeClaims may use (spec.volumeAttributesClassName).
 * The field is mutable — changing it is how a volume is modified — so an UPDATE that changes it is
 * checked as a CREATE is. kube treats an empty name as it treats an absent one (no class is applied,
 * pv_controller matches both to a volume without one), so a PVC naming "" or none uses no class and is
 * accepted; the default fills in only an absent name ("" is an explicit choice of none). A Pod's generic
 * ephemeral volumes become PVCs made by kube-controller-manager, each admitted as a PVC; the classes
 * their templates name are refused with the Pod already.
 */
export const volumeAttributesClasses = classKind('volumeAttributesClasses', {
  validating: {
    rules: [VALIDATE.pvcs, VALIDATE.pods],
    variables: [
      {
        name: 'volumeAttributesClassNames',
        expression:
          "variables.isPVC && has(params.spec.volumeAttributesClasses) && object.spec.?volumeAttributesClassName.orValue('') != '' && " +
          `(${isCreate} || oldObject.spec.?volumeAttributesClassName != object.spec.?volumeAttributesClassName) ? [object.spec.volumeAttributesClassName] : []`,
      },
      {
        name: 'podClaimAttributesClassNames',
        expression:
          'variables.podCreate && has(params.spec.volumeAttributesClasses) ? ' +
          "object.spec.?volumes.orValue([]).filter(v, v.?ephemeral.?volumeClaimTemplate.?spec.?volumeAttributesClassName.orValue('') != '')" +
          '.map(v, v.ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName) : []',
      },
    ],
    validations: [
      {
        expression: 'variables.volumeAttributesClassNames.all(n, n in variables.volumeAttributesClasses)',
        messageExpression:
          "'volume attributes class \"' + variables.volumeAttributesClassNames.join(', ') + '\" is not allowed'" +
          ` + ${TENANT} + '; allowed: ' + ${listText('variables.volumeAttributesClasses')}`,
        reason: 'Forbidden',
      },
      {
        expression: 'variables.podClaimAttributesClassNames.all(n, n in variables.volumeAttributesClasses)',
        messageExpression:
          "'volume attributes class \"' + variables.podClaimAttributesClassNames.filter(n, !(n in variables.volumeAttributesClasses)).join(', ') + '\" of an ephemeral volume is not allowed'" +
          ` + ${TENANT} + '; allowed: ' + ${listText('variables.volumeAttributesClasses')}`,
        reason: 'Forbidden',
      },
    ],
  },
  mutating: {
    rules: [MUTATE.pvcs],
    patches: classDefault('persistentvolumeclaims', 'volumeAttributesClasses', '!has(object.spec.volumeAttributesClassName)', '/spec/volumeAttributesClassName'),
  },
});
