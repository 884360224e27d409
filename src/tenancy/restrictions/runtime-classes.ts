import { podClassKind } from './class-kind';

/** Which RuntimeClasses a tenant's Pods may use. */
export const runtimeClasses = podClassKind('runtimeClasses', 'runtime class', 'runtimeClassName');
