import type { PaddockCache } from '../../cache/paddock-cache';
import type { KubeObject } from '../../kube/types';
import type { ServedResource } from '../registration/served-resource';
import { DEVICE_CLASSES, GATEWAY_CLASSES, INGRESS_CLASSES, PRIORITY_CLASSES, RUNTIME_CLASSES, STORAGE_CLASSES } from './classes';
import { viewResource, type ViewDefinition } from './projected/define';
import type { ResourceVersionSeal } from '../storage/version-seal';
import { NODES } from './nodes';
import { OWNED_TENANTS } from './owned-tenants';

/** The read-only views of SPEC §9, in discovery order. */
export const VIEWS: readonly ViewDefinition[] = [STORAGE_CLASSES, INGRESS_CLASSES, PRIORITY_CLASSES, RUNTIME_CLASSES, GATEWAY_CLASSES, DEVICE_CLASSES, NODES, OWNED_TENANTS];

/** Every view, served from the shared cache. */
export function viewResources(cache: PaddockCache, window: number, seal: ResourceVersionSeal): ServedResource<KubeObject>[] {
  return VIEWS.map((def) => viewResource(def, cache, window, seal));
}
