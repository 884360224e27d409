import { notAcceptable, notAcceptableMessage, unsupportedMediaType, type StatusError } from '../status';
import { parseAccept } from './accept';

/** What the response body is: the resource itself, or one of the meta.k8s.io transforms of it. */
export type Target = 'Object' | 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

/** The meta.k8s.io versions a transform may be requested in. */
export type MetaGroupVersion = 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1';

/** Media types the server encodes responses in. */
export type OutputMediaType = 'application/json' | 'application/yaml';

/** The outcome of `Accept` negotiation. */
export interface Negotiated {
  /** How to encode the body. */
  mediaType: OutputMediaType;
  /** The `Content-Type` header to send (for watch: `application/json`, as kube-apiserver sends it). */
  contentType: string;
  target: Target;
  /** The meta.k8s.io group version of a Table or PartialObjectMetadata target; absent for Object. */
  groupVersion?: MetaGroupVersion;
  /** `pretty=1` was a parameter of the chosen clause. */
  pretty: boolean;
}

/** Response media types, in the order `*\/*` picks them (JSON is the default). Protobuf is not served. */
export const SERVED_MEDIA_TYPES: readonly OutputMediaType[] = ['application/json', 'application/yaml'];

/** Media types of watch streams (YAML has no stream framing, as in kube-apiserver). */
export const SERVED_STREAM_MEDIA_TYPES: readonly string[] = ['application/json;stream=watch'];

const STREAMABLE = new Set<OutputMediaType>(['application/json']);

/** `sv=` may only name the meta.k8s.io version of this server. */
const SERVER_META_VERSION = 'v1';

/**
 * Negotiates the response of a get, list or watch from the `Accept` header, as kube-apiserver's
 * NegotiateOutputMediaType with a resource endpoint's restrictions does:
 *
 * - no header, or `*\/*`: JSON, the object itself;
 * - clauses are tried in goautoneg order (q, then specificity, then header order); the first one that
 *   names a served type and an allowed transform wins; others (protobuf, CBOR, unknown `as=`) are skipped;
 * - `as=Table` needs `g=meta.k8s.io` and `v=v1|v1beta1`, and JSON or YAML;
 *   `as=PartialObjectMetadata|PartialObjectMetadataList` the same group and versions;
 *   any `as`, `g` or `v` that does not form one of those makes the clause unacceptable;
 * - `stream=` must be `watch` and only on JSON; `sv=` must be the server's meta version;
 * - nothing acceptable: 406 listing the served media types.
 *
 * For a watch (`watch: true`) the first acceptable clause must also be streamable: when it is YAML the
 * answer is 406 listing the stream media types, even if a later clause would have streamed — exactly as
 * kube-apiserver negotiates twice with the same header.
 *
 * Whether the target fits the response (PartialObjectMetadata for a single object, ...List for a list)
 * is checked by `checkTargetFits`.
 *
 * @throws StatusError 406 NotAcceptable
 */
export function negotiateOutput(accept: string | undefined, options: { watch?: boolean } = {}): Negotiated {
  const chosen = firstAcceptable(accept ?? '');
  if (!chosen) throw notAcceptable(SERVED_MEDIA_TYPES);
  if (options.watch) {
    if (!STREAMABLE.has(chosen.mediaType)) throw notAcceptable(SERVED_STREAM_MEDIA_TYPES);
    return { ...chosen, contentType: chosen.mediaType };
  }
  return chosen;
}

function firstAcceptable(header: string): Negotiated | undefined {
  if (header === '') return { mediaType: 'application/json', contentType: 'application/json', target: 'Object', pretty: false };
  for (const clause of parseAccept(header)) {
    for (const mediaType of SERVED_MEDIA_TYPES) {
      const [type, subType] = mediaType.split('/') as [string, string];
      const matches =
        (clause.type === type && (clause.subType === subType || clause.subType === '*')) || (clause.type === '*' && clause.subType === '*');
      if (!matches) continue;
      const options = acceptOptions(clause.params, mediaType);
      if (options) return { mediaType, contentType: mediaType, ...options };
    }
  }
  return undefined;
}

/** The transform and flags a clause's parameters ask for, or undefined when this type cannot honour them. */
function acceptOptions(params: Readonly<Record<string, string>>, mediaType: OutputMediaType): Omit<Negotiated, 'mediaType' | 'contentType'> | undefined {
  let convert: { kind: string; group: string; version: string } | undefined;
  let pretty = false;
  for (const [key, value] of Object.entries(params)) {
    switch (key) {
      case 'as':
        convert = { group: '', version: '', ...convert, kind: value };
        break;
      case 'g':
        convert = { kind: '', version: '', ...convert, group: value };
        break;
      case 'v':
        convert = { kind: '', group: '', ...convert, version: value };
        break;
      case 'stream':
        if (value && (!STREAMABLE.has(mediaType) || value !== 'watch')) return undefined;
        break;
      case 'sv':
        if (value && value !== SERVER_META_VERSION) return undefined;
        break;
      case 'pretty':
        pretty = value === '1';
        break;
      default:
        // Unrecognized parameters (charset, export, profile, ...) are ignored.
        break;
    }
  }
  if (!convert) return { target: 'Object', pretty };
  if (convert.group !== 'meta.k8s.io' || (convert.version !== 'v1' && convert.version !== 'v1beta1')) return undefined;
  switch (convert.kind) {
    case 'Table':
    case 'PartialObjectMetadata':
    case 'PartialObjectMetadataList':
      return { target: convert.kind, groupVersion: `meta.k8s.io/${convert.version}`, pretty };
    default:
      return undefined;
  }
}

/** Go type names kube-apiserver prints in transform errors, for the two shapes this resource has. */
const GO_TYPE = { object: '*tenancy.TenantNamespace', list: '*tenancy.TenantNamespaceList' } as const;

/**
 * Checks that a negotiated PartialObjectMetadata target fits the response, as kube-apiserver does when it
 * transforms: PartialObjectMetadata of a list, or PartialObjectMetadataList of a single object, is a 406.
 * Table fits both. Call for get and list responses; watch events are transformed per object (see
 * `watchEventTarget`).
 *
 * @throws StatusError 406 NotAcceptable
 */
export function checkTargetFits(negotiated: Pick<Negotiated, 'target'>, response: 'object' | 'list'): void {
  const err = targetMismatch(negotiated.target, response);
  if (err) throw err;
}

function targetMismatch(target: Target, response: 'object' | 'list'): StatusError | undefined {
  if (target === 'PartialObjectMetadata' && response === 'list') {
    return notAcceptableMessage(`you requested PartialObjectMetadata, but the requested object is a list (${GO_TYPE.list})`);
  }
  if (target === 'PartialObjectMetadataList' && response === 'object') {
    return notAcceptableMessage(`you requested PartialObjectMetadataList, but the requested object is not a list (${GO_TYPE.object})`);
  }
  return undefined;
}

/**
 * What each event object of a watch is rendered as. Kube-apiserver transforms every event object on its
 * own: PartialObjectMetadataList cannot apply to one object, so it logs the failure and sends the object
 * unchanged; the other targets apply as negotiated.
 */
export function watchEventTarget(negotiated: Pick<Negotiated, 'target'>): Target {
  return negotiated.target === 'PartialObjectMetadataList' ? 'Object' : negotiated.target;
}

/**
 * Whether to indent the response: the `pretty` query parameter when given (Go's ParseBool; unparsable is
 * false), else `pretty=1` in the Accept clause, else clients known to be humans (curl, Wget, browsers).
 */
export function wantsPretty(negotiated: Pick<Negotiated, 'pretty'>, prettyParam: string | null | undefined, userAgent: string | undefined): boolean {
  if (negotiated.pretty) return true;
  if (prettyParam) return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(prettyParam);
  const ua = userAgent ?? '';
  return ua.startsWith('curl') || ua.startsWith('Wget') || ua.startsWith('Mozilla/5.0');
}

/** Request body media types the server reads. */
export const READABLE_MEDIA_TYPES: readonly OutputMediaType[] = ['application/json', 'application/yaml'];

/**
 * The format of a request body from its `Content-Type` (parameters such as charset ignored, type
 * case-insensitive); absent means JSON.
 *
 * @throws StatusError 415 UnsupportedMediaType
 */
export function negotiateInput(contentType: string | undefined): OutputMediaType {
  if (!contentType) return 'application/json';
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  const found = READABLE_MEDIA_TYPES.find((t) => t === essence);
  if (!found) throw unsupportedMediaType(READABLE_MEDIA_TYPES);
  return found;
}
