import type { PaddockCache } from '../../../cache/paddock-cache';
import type { KubeObject } from '../../../kube/types';
import { GROUP_VERSION } from '../../group-version';
import type { ResourceNames, ServedResource } from '../../registration/served-resource';
import type { ResourceVersionSeal } from '../../storage/version-seal';
import type { ViewDefinition } from './definition';
import { ProjectedView } from './projected-view';
import { viewSchemas } from './view-schemas';

export type { ViewDefinition } from './definition';

/**
 * The only annotations a view shows: those that mark a cluster default, which the built-in printers
 * read (`standard (default)`). Others stay with the source object (SPEC §9: name, uid, labels,
 * creationTimestamp); they are the cluster admin's, not the tenant's.
 */
const SHOWN_ANNOTATIONS = new Set([
  'storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class', 'ingressclass.kubernetes.io/is-default-class',
]);

export function viewNames(def: ViewDefinition): ResourceNames {
  return {
    group: GROUP_VERSION.group,
    version: GROUP_VERSION.version,
    groupVersion: GROUP_VERSION.groupVersion,
    resource: def.resource,
    singular: def.kind.toLowerCase(),
    kind: def.kind,
    listKind: `${def.kind}List`,
    shortNames: [def.shortName],
    categories: ['paddock'],
    namespaced: false,
    verbs: ['get', 'list', 'watch'],
  };
}

/** The source object as the view serves it: its name, uid, labels, default-class annotation and creation time, and its body. */
function projector(def: ViewDefinition, names: ResourceNames) {
  return (obj: KubeObject): KubeObject => {
    const m = obj.metadata;
    const metadata: KubeObject['metadata'] = { name: m.name };
    if (m.uid) metadata.uid = m.uid;
    if (m.creationTimestamp) metadata.creationTimestamp = m.creationTimestamp;
    if (m.labels && Object.keys(m.labels).length) metadata.labels = Object.isFrozen(m.labels) ? m.labels : { ...m.labels };
    const annotations = Object.fromEntries(Object.entries(m.annotations ?? {}).filter(([k]) => SHOWN_ANNOTATIONS.has(k)));
    if (Object.keys(annotations).length) metadata.annotations = annotations;
    if (def.body) {
      // One literal with every field, so that they are all stored inside the object, and inside the
      // stamped copies made of it (added one by one, they would spill into a separate array in each).
      const { spec, status } = def.body(obj);
      return { apiVersion: names.groupVersion, kind: names.kind, metadata, spec, status } as KubeObject;
    }
    const { apiVersion: _v, kind: _k, metadata: _m, ...rest } = obj as KubeObject & Record<string, unknown>;
    return { apiVersion: names.groupVersion, kind: names.kind, metadata, ...rest };
  };
}

/** Serves `def` from the shared cache: a projected view, read-only, filtered per caller. */
export function viewResource(def: ViewDefinition, cache: PaddockCache, window: number, seal: ResourceVersionSeal): ServedResource<KubeObject> {
  const names = viewNames(def);
  const view = new ProjectedView<KubeObject>({ source: def.informer(cache), mayUse: def.mayUse, relevant: def.relevant, sameNameOnly: def.sameNameOnly, project: projector(def, names) }, cache.tenants, window, seal);
  const prefix = GROUP_VERSION.definitionPrefix;
  const definitions = { kind: `${prefix}.${def.kind}`, list: `${prefix}.${def.kind}List` };
  return {
    names,
    storage: view.store,
    table: def.table,
    fields: { labels: ['metadata.name'], of: (o) => ({ 'metadata.name': o.metadata.name }) },
    seesAllWith: { group: def.source.group, resource: def.source.resource },
    definitions,
    schemas: (flavor) => viewSchemas(flavor, names, definitions, def),
  };
}
