import { TENANT_NAMESPACES } from '../resource';

/**
 * The discovery documents of this server, as kube-apiserver shapes them (k8s.io/apimachinery meta/v1
 * APIResourceList, APIGroup, APIGroupList; k8s.io/api apidiscovery/v2 APIGroupDiscoveryList). They never
 * change while the process runs.
 */

const groupVersion = { groupVersion: TENANT_NAMESPACES.groupVersion, version: TENANT_NAMESPACES.version };

/** `GET /apis/tenancy.paddock.dev/v1alpha1`: also the APIService availability probe. */
export function apiResourceList(): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: TENANT_NAMESPACES.groupVersion,
    resources: [
      {
        name: TENANT_NAMESPACES.resource,
        singularName: TENANT_NAMESPACES.singular,
        namespaced: TENANT_NAMESPACES.namespaced,
        kind: TENANT_NAMESPACES.kind,
        verbs: [...TENANT_NAMESPACES.verbs],
        shortNames: [...TENANT_NAMESPACES.shortNames],
        categories: [...TENANT_NAMESPACES.categories],
      },
    ],
  };
}

/** The APIGroup entry, without kind/apiVersion as it appears inside an APIGroupList. */
function groupEntry(): object {
  return { name: TENANT_NAMESPACES.group, versions: [groupVersion], preferredVersion: groupVersion };
}

/** `GET /apis/tenancy.paddock.dev` */
export function apiGroup(): object {
  return { kind: 'APIGroup', apiVersion: 'v1', ...groupEntry() };
}

/** `GET /apis` without aggregated discovery in Accept. */
export function apiGroupList(): object {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [groupEntry()] };
}

/** The apidiscovery versions served for `GET /apis`. */
export type AggregatedDiscoveryVersion = 'v2' | 'v2beta1';

/**
 * `GET /apis` with `Accept: application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList` — what
 * kube-aggregator asks every aggregated server for. v2beta1 has the same shape.
 */
export function apiGroupDiscoveryList(version: AggregatedDiscoveryVersion): object {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: [
      {
        metadata: { name: TENANT_NAMESPACES.group },
        versions: [
          {
            version: TENANT_NAMESPACES.version,
            resources: [
              {
                resource: TENANT_NAMESPACES.resource,
                responseKind: { group: TENANT_NAMESPACES.group, version: TENANT_NAMESPACES.version, kind: TENANT_NAMESPACES.kind },
                scope: TENANT_NAMESPACES.namespaced ? 'Namespaced' : 'Cluster',
                singularResource: TENANT_NAMESPACES.singular,
                verbs: [...TENANT_NAMESPACES.verbs],
                shortNames: [...TENANT_NAMESPACES.shortNames],
                categories: [...TENANT_NAMESPACES.categories],
              },
            ],
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}
