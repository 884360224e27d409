import type { AnyServedResource } from '../registration/served-resource';
import { META_DEFINITIONS_V2, META_SCHEMAS_V3 } from './meta-schemas';
import { resourcePaths, resourcesPath } from './paths';
import { GROUP_VERSION } from '../group-version';
import type { Flavor } from './refs';

const { group: GROUP, version: VERSION } = GROUP_VERSION;

type Obj = Record<string, unknown>;

/** The key of this group version in the OpenAPI v3 index, as kube-apiserver names it. */
export const V3_GROUP_VERSION_PATH = `apis/${GROUP}/${VERSION}`;

/**
 * Meta types that kube-apiserver registers in every group version list those groups in their
 * x-kubernetes-group-version-kind; an aggregated server lists its own. (kube-aggregator ignores the
 * lists when it compares definitions, and merges them.)
 */
const PER_GROUP_META_KINDS = ['DeleteOptions', 'WatchEvent'];

function metaSchemas(flavor: Flavor): Record<string, Obj> {
  const source = (flavor === 'v2' ? META_DEFINITIONS_V2 : META_SCHEMAS_V3) as Record<string, Obj>;
  const out: Record<string, Obj> = {};
  for (const [name, schema] of Object.entries(source)) {
    const kind = PER_GROUP_META_KINDS.find((k) => name === `io.k8s.apimachinery.pkg.apis.meta.v1.${k}`);
    out[name] = kind
      ? { ...schema, 'x-kubernetes-group-version-kind': [{ group: GROUP, kind, version: VERSION }] }
      : schema;
  }
  return out;
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const BEARER = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };

/**
 * `GET /openapi/v2`: Swagger 2.0 with the paths and definitions of every served resource, and the meta.k8s.io
 * definitions they reference, equal to kube-apiserver's so that kube-aggregator merges them without
 * renaming.
 */
function paths(resources: readonly AnyServedResource[], flavor: Flavor): Obj {
  return Object.assign(resourcesPath(flavor), ...resources.map((r) => resourcePaths(r, flavor)));
}

function schemas(resources: readonly AnyServedResource[], flavor: Flavor): Record<string, Obj> {
  return Object.assign(metaSchemas(flavor), ...resources.map((r) => r.schemas(flavor)));
}

export function openAPIV2(resources: readonly AnyServedResource[]): Obj {
  return {
    swagger: '2.0',
    info: { title: 'Paddock', version: VERSION },
    paths: sorted(paths(resources, 'v2')),
    definitions: sorted(schemas(resources, 'v2')),
    securityDefinitions: BEARER,
    security: [{ BearerToken: [] }],
  };
}

/** `GET /openapi/v3/apis/tenancy.paddock.dev/v1alpha1`: the OpenAPI 3.0 document of the group version. */
export function openAPIV3GroupVersion(resources: readonly AnyServedResource[]): Obj {
  return {
    openapi: '3.0.0',
    info: { title: 'Paddock', version: VERSION },
    paths: sorted(paths(resources, 'v3')),
    components: {
      schemas: sorted(schemas(resources, 'v3')),
      securitySchemes: BEARER,
    },
    security: [{ BearerToken: [] }],
  };
}

/**
 * `GET /openapi/v3`: the index kube-aggregator and kubectl read first. Each group version's
 * `serverRelativeURL` carries the hash of its document, so clients may cache it for good.
 */
export function openAPIV3Index(groupVersionHash: string): Obj {
  const query = new URLSearchParams({ hash: groupVersionHash }).toString();
  return { paths: { [V3_GROUP_VERSION_PATH]: { serverRelativeURL: `/openapi/v3/${V3_GROUP_VERSION_PATH}?${query}` } } };
}
