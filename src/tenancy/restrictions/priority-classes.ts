import { patchOp } from './cel';
import { podClassKind } from './class-kind';

/**
 * Which PriorityClasses a tenant's Pods may use. kube-apiserver's Priority plugin has already set
 * spec.priority (0, or the global default's) when the default is filled in, and runs again after the
 * change; it refuses a priority that is not its class's, so the stale value goes with the new class name.
 */
export const priorityClasses = podClassKind(
  'priorityClasses',
  'priority class',
  'priorityClassName',
  ` + (request.resource.resource == 'pods' && has(params.spec.priorityClasses) && has(params.spec.priorityClasses.default) && !has(object.spec.priorityClassName) && has(object.spec.priority) ? [${patchOp('remove', "'/spec/priority'")}] : [])`,
);
