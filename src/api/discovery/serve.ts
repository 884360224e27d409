import type { ResourceNames } from '../registration/served-resource';
import { parseAccept } from '../negotiation';
import { notAcceptable } from '../status';
import { conditionalResponse, staticJson, type StaticDocument, type StaticResponse } from '../static/document';
import { GROUP_VERSION } from '../group-version';
import { apiGroup, apiGroupDiscoveryList, apiGroupList, apiResourceList, type AggregatedDiscoveryVersion } from './documents';

/** Discovery paths this server answers. */
export const DISCOVERY_PATHS = {
  apis: '/apis',
  group: `/apis/${GROUP_VERSION.group}`,
  groupVersion: `/apis/${GROUP_VERSION.groupVersion}`,
} as const;

/** Every discovery document, serialized once. */
export interface DiscoveryDocuments {
  apiResourceList: StaticDocument;
  apiGroup: StaticDocument;
  apiGroupList: StaticDocument;
  aggregated: Record<AggregatedDiscoveryVersion, StaticDocument>;
}

/** Serializes the discovery documents; call once at startup. */
export function buildDiscoveryDocuments(resources: readonly ResourceNames[]): DiscoveryDocuments {
  const aggregatedType = (v: AggregatedDiscoveryVersion) => `application/json;g=apidiscovery.k8s.io;v=${v};as=APIGroupDiscoveryList`;
  return Object.freeze({
    apiResourceList: staticJson(apiResourceList(resources)),
    apiGroup: staticJson(apiGroup()),
    apiGroupList: staticJson(apiGroupList()),
    aggregated: Object.freeze({
      v2: staticJson(apiGroupDiscoveryList('v2', resources), aggregatedType('v2')),
      v2beta1: staticJson(apiGroupDiscoveryList('v2beta1', resources), aggregatedType('v2beta1')),
    }),
  });
}

/** The request facts discovery depends on. */
export interface DiscoveryRequest {
  path: string;
  accept?: string;
  ifNoneMatch?: string;
}

/**
 * Answers a discovery GET, or undefined when the path is not a discovery path.
 *
 * - `/apis`: the aggregated APIGroupDiscoveryList when an Accept clause asks for it
 *   (`g=apidiscovery.k8s.io;v=v2|v2beta1;as=APIGroupDiscoveryList` on JSON), with `ETag`, `Vary: Accept`,
 *   `Cache-Control: public`, a Content-Type naming the GVK, and 304 on a matching If-None-Match — as
 *   kube-apiserver and kube-aggregator expect; otherwise the APIGroupList.
 * - `/apis/tenancy.paddock.dev` and `/apis/tenancy.paddock.dev/v1alpha1`: APIGroup and APIResourceList.
 *
 * Non-aggregated documents are JSON only; an Accept header that admits no plain JSON gets 406.
 */
export function serveDiscovery(docs: DiscoveryDocuments, request: DiscoveryRequest): StaticResponse | undefined {
  const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
  let doc: StaticDocument;
  switch (path) {
    case DISCOVERY_PATHS.apis: {
      const aggregated = aggregatedVersion(request.accept);
      if (aggregated) {
        return conditionalResponse(docs.aggregated[aggregated], request.ifNoneMatch, { Vary: 'Accept', 'Cache-Control': 'public' });
      }
      doc = docs.apiGroupList;
      break;
    }
    case DISCOVERY_PATHS.group:
      doc = docs.apiGroup;
      break;
    case DISCOVERY_PATHS.groupVersion:
      doc = docs.apiResourceList;
      break;
    default:
      return undefined;
  }
  if (!acceptsPlainJson(request.accept)) {
    const err = notAcceptable(['application/json']);
    return { status: err.code, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(err.body) };
  }
  return conditionalResponse(doc, request.ifNoneMatch);
}

/** The first Accept clause (in negotiation order) that asks for aggregated discovery on JSON, if any. */
export function aggregatedVersion(accept: string | undefined): AggregatedDiscoveryVersion | undefined {
  if (!accept) return undefined;
  for (const clause of parseAccept(accept)) {
    if (!jsonMatches(clause.type, clause.subType)) continue;
    const { g, v, as } = clause.params;
    if (g === 'apidiscovery.k8s.io' && as === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) return v;
  }
  return undefined;
}

function acceptsPlainJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return parseAccept(accept).some((c) => jsonMatches(c.type, c.subType) && c.params['as'] === undefined && c.params['g'] === undefined && c.params['v'] === undefined);
}

function jsonMatches(type: string, subType: string): boolean {
  return (type === 'application' && (subType === 'json' || subType === '*')) || (type === '*' && subType === '*');
}
