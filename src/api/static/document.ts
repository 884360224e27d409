import { createHash } from 'node:crypto';

/**
 * A response body serialized once at startup and served many times (discovery, OpenAPI), with the
 * strong ETag kube-apiserver computes for such documents: the upper-case hex SHA-512 of the bytes.
 */
export interface StaticDocument {
  readonly body: Buffer;
  /** Unquoted hash; the `ETag` header carries it in double quotes. */
  readonly hash: string;
  readonly contentType: string;
}

/** What to answer: status, headers and body (absent for 304 and redirects). */
export interface StaticResponse {
  status: number;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Serializes `value` as compact JSON once and hashes the bytes. */
export function staticJson(value: unknown, contentType = 'application/json'): StaticDocument {
  const body = Buffer.from(JSON.stringify(value));
  return Object.freeze({ body, hash: sha512Hex(body), contentType });
}

/** Upper-case hex SHA-512, as Go's fmt.Sprintf("%X", sha512.Sum512(b)). */
export function sha512Hex(bytes: Buffer | string): string {
  return createHash('sha512').update(bytes).digest('hex').toUpperCase();
}

/**
 * A 200 with `ETag`, or a 304 without body when `If-None-Match` carries the same quoted ETag (or `*`).
 * Extra headers (Vary, Cache-Control) are sent with both, as kube-apiserver does.
 */
export function conditionalResponse(doc: StaticDocument, ifNoneMatch: string | undefined, extraHeaders: Record<string, string> = {}): StaticResponse {
  const etag = `"${doc.hash}"`;
  const headers: Record<string, string> = { ETag: etag, ...extraHeaders };
  if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'Content-Type': doc.contentType, 'Content-Length': String(doc.body.length) }, body: doc.body };
}

/** If-None-Match holds one ETag, a list of them (weak ones compare by their opaque part), or `*`. */
function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(',')
    .map((t) => t.trim().replace(/^W\//, ''))
    .some((t) => t === etag || t === '*');
}
