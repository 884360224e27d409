import { classDefault, isCreate, listText, MUTATE, TENANT, VALIDATE } from './cel';
import { classKind, classRefusal } from './class-kind';

/** The annotation a PVC's class was named by before spec.storageClassName; kube still reads it first. */
export const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

/**
 * Which StorageClasses a tenant's PersistentVolumeClaims may use. A PVC names its class in
 * spec.storageClassName or in the beta annotation, which kube reads first when present, even empty
 * (GetPersistentVolumeClaimClass): every name given must be allowed. An UPDATE that changes neither is
 * not checked again. A Pod's generic ephemeral volumes become PVCs made from their templates by
 * kube-controller-manager, each admitted as a PVC; the classes the templates name are refused with the
 * Pod already.
 */
export const storageClasses = classKind('storageClasses', {
  validating: {
    rules: [VALIDATE.pvcs, VALIDATE.pods],
    variables: [
      { name: 'storageClassNames', expression: `variables.isPVC ? [object.metadata.?annotations[?'${BETA_STORAGE_CLASS}'], object.spec.?storageClassName].filter(o, o.hasValue()).map(o, o.value()) : []` },
      {
        name: 'storageClassChecked',
        expression:
          `variables.isPVC && has(params.spec.storageClasses) && (${isCreate} || oldObject.spec.?storageClassName != object.spec.?storageClassName || ` +
          `oldObject.metadata.?annotations[?'${BETA_STORAGE_CLASS}'] != object.metadata.?annotations[?'${BETA_STORAGE_CLASS}'])`,
      },
      {
        name: 'podClaimClassNames',
        expression:
          `variables.podCreate && has(params.spec.storageClasses) ? object.spec.?volumes.orValue([]).filter(v, v.?ephemeral.?volumeClaimTemplate.?metadata.?annotations[?'${BETA_STORAGE_CLASS}'].hasValue())` +
          `.map(v, v.ephemeral.volumeClaimTemplate.metadata.annotations['${BETA_STORAGE_CLASS}']) + ` +
          'object.spec.?volumes.orValue([]).filter(v, v.?ephemeral.?volumeClaimTemplate.?spec.?storageClassName.hasValue()).map(v, v.ephemeral.volumeClaimTemplate.spec.storageClassName) : []',
      },
    ],
    validations: [
      classRefusal('storageClasses', 'storage class', 'variables.storageClassNames', 'variables.storageClassChecked'),
      {
        expression: 'variables.podClaimClassNames.all(n, n in variables.storageClasses)',
        messageExpression:
          "'storage class \"' + variables.podClaimClassNames.filter(n, !(n in variables.storageClasses)).join(', ') + '\" of an ephemeral volume is not allowed'" +
          ` + ${TENANT} + '; allowed: ' + ${listText('variables.storageClasses')}`,
        reason: 'Forbidden',
      },
    ],
  },
  mutating: {
    rules: [MUTATE.pvcs],
    patches: classDefault('persistentvolumeclaims', 'storageClasses', `!has(object.spec.storageClassName) && !(has(object.metadata.annotations) && '${BETA_STORAGE_CLASS}' in object.metadata.annotations)`, '/spec/storageClassName'),
  },
});
