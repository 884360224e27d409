import type { AnyServedResource } from '../registration/served-resource';
import { parseAccept } from '../negotiation';
import { conditionalResponse, staticJson, type StaticDocument, type StaticResponse } from '../static/document';
import { openAPIV2, openAPIV3GroupVersion, openAPIV3Index, V3_GROUP_VERSION_PATH } from './documents';

/** OpenAPI paths this server answers. */
export const OPENAPI_PATHS = {
  v2: '/openapi/v2',
  v3: '/openapi/v3',
  v3GroupVersion: `/openapi/v3/${V3_GROUP_VERSION_PATH}`,
} as const;

/** The OpenAPI documents, serialized once. */
export interface OpenAPIDocuments {
  v2: StaticDocument;
  v3Index: StaticDocument;
  v3GroupVersion: StaticDocument;
}

/** Builds and serializes the OpenAPI documents; call once at startup. */
export function buildOpenAPIDocuments(resources: readonly AnyServedResource[]): OpenAPIDocuments {
  const v3GroupVersion = staticJson(openAPIV3GroupVersion(resources));
  return Object.freeze({
    v2: staticJson(openAPIV2(resources)),
    v3Index: staticJson(openAPIV3Index(v3GroupVersion.hash)),
    v3GroupVersion,
  });
}

export interface OpenAPIRequest {
  path: string;
  /** The `hash` query parameter of a v3 group version request. */
  hash?: string | null;
  accept?: string;
  ifNoneMatch?: string;
}

/**
 * Answers an OpenAPI GET as kube-openapi's handlers do, or undefined when the path is not OpenAPI's.
 *
 * - `/openapi/v2` and `/openapi/v3`: JSON with `ETag`; 304 on a matching If-None-Match.
 * - `/openapi/v3/apis/tenancy.paddock.dev/v1alpha1`: with `?hash=` equal to the document's, also
 *   `Cache-Control: public, immutable` and a one-year `Expires`; with a stale hash, a 301 to the current
 *   URL; `Vary: Accept` always. JSON only: an Accept that admits no JSON (protobuf) gets 406.
 *
 * `now` stamps the Expires header.
 */
export function serveOpenAPI(docs: OpenAPIDocuments, request: OpenAPIRequest, now: Date = new Date()): StaticResponse | undefined {
  const path = request.path.length > 1 ? request.path.replace(/\/+$/, '') : request.path;
  switch (path) {
    case OPENAPI_PATHS.v2:
      if (!acceptsJson(request.accept)) return { status: 406, headers: {} };
      return conditionalResponse(docs.v2, request.ifNoneMatch, { Vary: 'Accept' });
    case OPENAPI_PATHS.v3:
      return conditionalResponse(docs.v3Index, request.ifNoneMatch);
    case OPENAPI_PATHS.v3GroupVersion: {
      const doc = docs.v3GroupVersion;
      if (!acceptsJson(request.accept)) return { status: 406, headers: { Vary: 'Accept' } };
      if (request.hash) {
        if (request.hash !== doc.hash) {
          const query = new URLSearchParams({ hash: doc.hash }).toString();
          return { status: 301, headers: { Vary: 'Accept', Location: `${OPENAPI_PATHS.v3GroupVersion}?${query}` } };
        }
        const expires = new Date(now.getTime());
        expires.setUTCFullYear(expires.getUTCFullYear() + 1);
        return conditionalResponse(doc, request.ifNoneMatch, { Vary: 'Accept', 'Cache-Control': 'public, immutable', Expires: expires.toUTCString() });
      }
      return conditionalResponse(doc, request.ifNoneMatch, { Vary: 'Accept' });
    }
    default:
      return undefined;
  }
}

/** kube-openapi serves JSON to any clause naming application/json, application/* or *\/*; no header means *\/*. */
function acceptsJson(accept: string | undefined): boolean {
  if (!accept) return true;
  return parseAccept(accept).some((c) => (c.type === 'application' || c.type === '*') && (c.subType === 'json' || c.subType === '*'));
}
