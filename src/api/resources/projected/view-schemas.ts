import type { ResourceNames } from '../../registration/served-resource';
import type { ViewDefinition } from './definition';
import { refPath, type Flavor } from '../../openapi/refs';

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const API_VERSION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

function ref(name: string, description: string, flavor: Flavor): Record<string, unknown> {
  return flavor === 'v2' ? { $ref: refPath(name, flavor), description } : { allOf: [{ $ref: refPath(name, flavor) }], description, default: {} };
}

/** A body field as `kubectl explain` shows it: typed, described, its inside left to the source kind's docs. */
function field(type: string, description: string): Record<string, unknown> {
  if (type === 'object') return { type, description, 'x-kubernetes-preserve-unknown-fields': true };
  if (type === 'array') return { type, description, items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };
  return { type, description };
}

/** The schemas of a view's kind and list kind (SPEC §9: the source's metadata and body under the view's kind). */
export function viewSchemas(flavor: Flavor, names: ResourceNames, definitions: { kind: string; list: string }, def: ViewDefinition): Record<string, Record<string, unknown>> {
  const gvk = (kind: string) => [{ group: names.group, kind, version: names.version }];
  const body = Object.fromEntries(Object.entries(def.fields).map(([name, [type, description]]) => [name, field(type, description)]));
  return {
    [definitions.kind]: {
      description: `${def.description} Read-only; served per caller from ${def.source.kind} objects (${def.source.apiVersion}).`,
      type: 'object',
      properties: {
        apiVersion: { description: API_VERSION, type: 'string' },
        kind: { description: KIND, type: 'string' },
        metadata: ref(`${META}.ObjectMeta`, `Standard object's metadata: name, uid, labels, annotations and creationTimestamp of the ${def.source.kind}.`, flavor),
        ...body,
      },
      'x-kubernetes-group-version-kind': gvk(names.kind),
    },
    [definitions.list]: {
      description: `${names.listKind} is a list of ${names.kind} objects, ordered by name.`,
      type: 'object',
      required: ['items'],
      properties: {
        apiVersion: { description: API_VERSION, type: 'string' },
        items: { description: `Items is the list of ${names.kind} objects.`, type: 'array', items: flavor === 'v2' ? { $ref: refPath(definitions.kind, flavor) } : { allOf: [{ $ref: refPath(definitions.kind, flavor) }], default: {} } },
        kind: { description: KIND, type: 'string' },
        metadata: ref(`${META}.ListMeta`, 'Standard list metadata.', flavor),
      },
      'x-kubernetes-group-version-kind': gvk(names.listKind),
    },
  };
}
