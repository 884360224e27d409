import { GROUP_VERSION } from '../group-version';
import type { ResourceNames } from '../registration/served-resource';

/**
 * The discovery documents of this server, as kube-apiserver shapes them (k8s.io/apimachinery meta/v1
 * APIResourceList, APIGroup, APIGroupList; k8s.io/api apidiscovery/v2 APIGroupDiscoveryList). They never
 * change while the process runs.
 */

const groupVersion = { groupVersion: GROUP_VERSION.groupVersion, version: GROUP_VERSION.version };

/** `GET /apis/tenancy.paddock.dev/v1alpha1`: also the APIService availability probe. */
export function apiResourceList(resources: readonly ResourceNames[]): object {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: GROUP_VERSION.groupVersion,
    resources: resources.map((r) => ({
      name: r.resource,
      singularName: r.singular,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs],
      shortNames: [...r.shortNames],
      categories: [...r.categories],
    })),
  };
}

/** The APIGroup entry, without kind/apiVersion as it appears inside an APIGroupList. */
function groupEntry(): object {
  return { name: GROUP_VERSION.group, versions: [groupVersion], preferredVersion: groupVersion };
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
export function apiGroupDiscoveryList(version: AggregatedDiscoveryVersion, resources: readonly ResourceNames[]): object {
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: `apidiscovery.k8s.io/${version}`,
    metadata: {},
    items: [
      {
        metadata: { name: GROUP_VERSION.group },
        versions: [
          {
            version: GROUP_VERSION.version,
            resources: resources.map((r) => ({
              resource: r.resource,
              responseKind: { group: r.group, version: r.version, kind: r.kind },
              scope: r.namespaced ? 'Namespaced' : 'Cluster',
              singularResource: r.singular,
              verbs: [...r.verbs],
              shortNames: [...r.shortNames],
              categories: [...r.categories],
            })),
            freshness: 'Current',
          },
        ],
      },
    ],
  };
}
