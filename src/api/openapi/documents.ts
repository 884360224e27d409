import { TENANT_NAMESPACES } from '../resource';
import { META_DEFINITIONS_V2, META_SCHEMAS_V3 } from './meta-schemas';
import { tenantNamespacePaths } from './paths';
import { tenantNamespaceSchemas, type Flavor } from './schemas';

type Obj = Record<string, unknown>;

/** The key of this group version in the OpenAPI v3 index, as kube-apiserver names it. */
export const V3_GROUP_VERSION_PATH = `apis/${TENANT_NAMESPACES.groupVersion}`;

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
      ? { ...schema, 'x-kubernetes-group-version-kind': [{ group: TENANT_NAMESPACES.group, kind, version: TENANT_NAMESPACES.version }] }
      : schema;
  }
  return out;
}

function sorted<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const BEARER = { BearerToken: { description: 'Bearer Token authentication', in: 'header', name: 'authorization', type: 'apiKey' } };

/**
 * `GET /openapi/v2`: Swagger 2.0 with the TenantNamespace paths and definitions, and the meta.k8s.io
 * definitions they reference, equal to kube-apiserver's so that kube-aggregator merges them without
 * renaming.
 */
export function openAPIV2(): Obj {
  return {
    swagger: '2.0',
    info: { title: 'Paddock', version: TENANT_NAMESPACES.version },
    paths: sorted(tenantNamespacePaths('v2')),
    definitions: sorted({ ...metaSchemas('v2'), ...tenantNamespaceSchemas('v2') }),
    securityDefinitions: BEARER,
    security: [{ BearerToken: [] }],
  };
}

/** `GET /openapi/v3/apis/tenancy.paddock.dev/v1alpha1`: the OpenAPI 3.0 document of the group version. */
export function openAPIV3GroupVersion(): Obj {
  return {
    openapi: '3.0.0',
    info: { title: 'Paddock', version: TENANT_NAMESPACES.version },
    paths: sorted(tenantNamespacePaths('v3')),
    components: {
      schemas: sorted({ ...metaSchemas('v3'), ...tenantNamespaceSchemas('v3') }),
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
