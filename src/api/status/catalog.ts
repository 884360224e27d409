import type { Status } from '../../kube/types';
import type { GroupKind, GroupResource } from './group-resource';
import { aggregateFieldErrors, fieldErrorBody, type FieldError } from './field-errors';
import { goQuote, truncateForMessage } from './quote';
import { StatusError } from './status-error';

/**
 * The error catalog: every Kubernetes `Status` this server answers with is built here, with the `reason`,
 * `code`, message format and `details` that kube-apiserver uses (k8s.io/apimachinery pkg/api/errors and
 * k8s.io/apiserver pkg/endpoints). Handlers throw what these functions return; nothing else writes a
 * status code by hand.
 */

/** metav1.StatusReason → HTTP status code. One row per reason this server can answer with. */
export const STATUS_REASONS = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  NotAcceptable: 406,
  AlreadyExists: 409,
  Conflict: 409,
  Gone: 410,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServerTimeout: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const;

export type StatusReason = keyof typeof STATUS_REASONS;

type Details = NonNullable<Status['details']>;

/**
 * The longest message a Status carries (characters). Messages quote client input; each quote is cut
 * short where it is made, and this bounds what several quotes add up to.
 */
export const MAX_MESSAGE = 4096;

/** Builds a Failure Status with kube's field order: kind, apiVersion, metadata, status, message, reason, details, code. */
export function failure(reason: StatusReason, message: string, details?: Details, metadata: Status['metadata'] = {}): StatusError {
  message = truncateForMessage(message, MAX_MESSAGE);
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, reason } as Status;
  if (details !== undefined) status.details = details;
  status.code = STATUS_REASONS[reason];
  return new StatusError(status);
}

/** `<resource>.<group>`, or `<resource>` for the core group: schema.GroupResource.String(). */
export function groupResourceString(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

function groupKindString(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/** StatusDetails naming an object; empty fields are left out as Go's omitempty does. */
function resourceDetails(gr: GroupResource, name?: string): Details {
  const d: Details = {};
  if (name) d.name = name;
  if (gr.group) d.group = gr.group;
  if (gr.resource) d.kind = gr.resource;
  return d;
}

/** 404 NotFound: `tenantnamespaces.tenancy.paddock.dev "x" not found`. */
export function notFound(gr: GroupResource, name: string): StatusError {
  return failure('NotFound', `${groupResourceString(gr)} ${goQuote(name)} not found`, resourceDetails(gr, name));
}

/** 409 AlreadyExists: `tenantnamespaces.tenancy.paddock.dev "x" already exists`. */
export function alreadyExists(gr: GroupResource, name: string): StatusError {
  return failure('AlreadyExists', `${groupResourceString(gr)} ${goQuote(name)} already exists`, resourceDetails(gr, name));
}

/** 409 Conflict: `Operation cannot be fulfilled on <gr> "x": <reason>`. */
export function conflict(gr: GroupResource, name: string, reason: string): StatusError {
  return failure('Conflict', `Operation cannot be fulfilled on ${groupResourceString(gr)} ${goQuote(name)}: ${reason}`, resourceDetails(gr, name));
}

/** Who was refused what, for `forbidden`. */
export interface ForbiddenRequest {
  /** User name as authenticated; may be empty. */
  user: string;
  /** Kubernetes verb: get, list, watch, create, delete, ... */
  verb: string;
  /** Namespace of a namespaced request; absent at the cluster scope. */
  namespace?: string;
  subresource?: string;
}

/** kube-apiserver escapes what could read as HTML in forbidden messages; quotes stay. */
function sanitize(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * 403 Forbidden for a resource request, in the authorizer's words:
 * `tenantnamespaces.tenancy.paddock.dev is forbidden: User "alice" cannot list resource "tenantnamespaces"
 * in API group "tenancy.paddock.dev" at the cluster scope`, with `"<name>"` after the resource when a
 * name is given and `: <reason>` appended when a reason is given.
 */
export function forbidden(gr: GroupResource, name: string, user: string, verb: string, reason?: string): StatusError;
export function forbidden(gr: GroupResource, name: string, request: ForbiddenRequest, reason?: string): StatusError;
export function forbidden(gr: GroupResource, name: string, userOrRequest: string | ForbiddenRequest, verbOrReason?: string, maybeReason?: string): StatusError {
  const request: ForbiddenRequest = typeof userOrRequest === 'string' ? { user: userOrRequest, verb: verbOrReason ?? '' } : userOrRequest;
  const reason = typeof userOrRequest === 'string' ? maybeReason : verbOrReason;
  const resource = request.subresource ? `${gr.resource}/${request.subresource}` : gr.resource;
  const scope = request.namespace ? `in the namespace ${goQuote(request.namespace)}` : 'at the cluster scope';
  const who = `User ${goQuote(request.user)} cannot ${request.verb} resource ${goQuote(resource)} in API group ${goQuote(gr.group)} ${scope}`;
  return forbiddenBecause(gr, name, reason ? `${sanitize(who)}: ${reason}` : sanitize(who));
}

/** 403 Forbidden for a non-resource path: `forbidden: User "bob" cannot get path "/metrics"`. */
export function forbiddenPath(user: string, verb: string, path: string, reason?: string): StatusError {
  const who = sanitize(`User ${goQuote(user)} cannot ${verb} path ${goQuote(path)}`);
  return forbiddenBecause({ group: '', resource: '' }, '', reason ? `${who}: ${reason}` : who);
}

/**
 * 403 Forbidden with a policy reason instead of an authorizer decision (admission-style), e.g.
 * `tenantnamespaces.tenancy.paddock.dev "oil-production" is forbidden: declared in Tenant "oil"; ...`.
 */
export function forbiddenBecause(gr: GroupResource, name: string, reason: string): StatusError {
  const grs = groupResourceString(gr);
  let message: string;
  if (!gr.group && !gr.resource) message = `forbidden: ${reason}`;
  else if (!name) message = `${grs} is forbidden: ${reason}`;
  else message = `${grs} ${goQuote(name)} is forbidden: ${reason}`;
  return failure('Forbidden', message, resourceDetails(gr, name));
}

/** 401 Unauthorized, as the authentication filter answers a request without identity. */
export function unauthorized(message = 'Unauthorized'): StatusError {
  return failure('Unauthorized', message || 'not authorized');
}

/** 400 BadRequest with the message as given. */
export function badRequest(message: string): StatusError {
  return failure('BadRequest', message);
}

/** 400 for a field selector on a label the resource does not support, as kube-apiserver words it. */
export function unsupportedFieldLabel(label: string): StatusError {
  return badRequest(`field label not supported: ${label.slice(0, 256)}`);
}

/**
 * 422 Invalid: `TenantNamespace.tenancy.paddock.dev "Oil" is invalid: metadata.name: Invalid value: ...`,
 * one cause per field error (`reason` = error type, `message` = its body, `field` = its path).
 */
export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): StatusError {
  const causes = errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field }));
  const details: Details = {};
  if (name) details.name = name;
  if (gk.group) details.group = gk.group;
  if (gk.kind) details.kind = gk.kind;
  if (causes.length > 0) details.causes = causes;
  const aggregated = aggregateFieldErrors(errors);
  const head = `${groupKindString(gk)} ${goQuote(name)} is invalid`;
  return failure('Invalid', aggregated ? `${head}: ${aggregated}` : head, details);
}

/**
 * 410 Expired: the requested content is gone from this server (resourceVersion too old, continue token
 * too old). `continueToken`, when given, is returned in `metadata.continue` so a client may go on with an
 * inconsistent list, as the etcd3 store does after compaction.
 */
export function expired(message: string, continueToken?: string): StatusError {
  return failure('Expired', message, undefined, continueToken ? { continue: continueToken } : {});
}

/** 410 Gone (deprecated by kube in favour of Expired; kept for completeness). */
export function gone(message: string): StatusError {
  return failure('Gone', message);
}

/** Messages kube's storage layers use for the 410 cases. */
export const EXPIRED_MESSAGES = {
  /** watch cache, list or watch at a resourceVersion older than what is kept. */
  tooOldResourceVersion: (rv: string | number, oldest?: string | number): string =>
    oldest === undefined ? `too old resource version: ${rv}` : `too old resource version: ${rv} (${oldest})`,
  /** etcd3 store, list at a compacted revision. */
  listTooOld: 'The resourceVersion for the provided list is too old.',
  /** etcd3 store, watch at a compacted revision. */
  watchTooOld: 'The resourceVersion for the provided watch is too old.',
  /** etcd3 store, continue token whose snapshot is gone. */
  continueTooOld:
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter.',
  /** The same, when a token to continue inconsistently is offered in metadata.continue. */
  continueTooOldInconsistent:
    'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
} as const;

/**
 * 400 for a continue token that cannot be decoded: kube answers BadRequest (not 410) with
 * `invalid continue token: continue key is not valid: <detail>`.
 */
export function invalidContinueToken(detail?: string): StatusError {
  return badRequest(`invalid continue token: continue key is not valid${detail ? `: ${detail}` : ''}`);
}

/** 406 NotAcceptable from Accept negotiation: `only the following media types are accepted: a, b`. */
export function notAcceptable(accepted: readonly string[]): StatusError {
  return failure('NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);
}

/** 406 NotAcceptable with a message of its own (a transform the response cannot take). */
export function notAcceptableMessage(message: string): StatusError {
  return failure('NotAcceptable', message);
}

/** 415 UnsupportedMediaType for a request body in a format the server does not read. */
export function unsupportedMediaType(accepted: readonly string[]): StatusError {
  return failure('UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);
}

/** 405 MethodNotAllowed: `<action> is not supported on resources of kind "<gr>"`. */
export function methodNotSupported(gr: GroupResource, action: string): StatusError {
  const details: Details = {};
  if (gr.group) details.group = gr.group;
  if (gr.resource) details.kind = gr.resource;
  return failure('MethodNotAllowed', `${action} is not supported on resources of kind ${goQuote(groupResourceString(gr))}`, details);
}

/** 429 TooManyRequests with `details.retryAfterSeconds` (the renderer sends it as `Retry-After` too). */
export function tooManyRequests(retryAfterSeconds: number, message = 'Too many requests, please try again later.'): StatusError {
  return failure('TooManyRequests', message, { retryAfterSeconds: Math.max(0, Math.floor(retryAfterSeconds)) });
}

/** 413 RequestEntityTooLarge: `Request entity too large: limit is 3145728`. */
export function requestEntityTooLarge(limitBytes: number): StatusError {
  return failure('RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);
}

/** 500 InternalError: `Internal error occurred: <err>`, with the error as the one cause. */
export function internalError(err: unknown): StatusError {
  const text = err instanceof Error ? err.message : String(err);
  return failure('InternalError', `Internal error occurred: ${text}`, { causes: [{ message: text }] });
}

/** 504 Timeout: `Timeout: <message>`. */
export function timeout(message = 'request did not complete within the allotted timeout', retryAfterSeconds = 0): StatusError {
  const details: Details = {};
  if (retryAfterSeconds > 0) details.retryAfterSeconds = retryAfterSeconds;
  return failure('Timeout', `Timeout: ${message}`, details);
}

/**
 * 504 Timeout for a resourceVersion this replica has not reached in time, as kube-apiserver's
 * storage.NewTooLargeResourceVersionError: retried after 1 s, with the cause client-go looks for
 * (`ResourceVersionTooLarge`) to tell it from any other timeout.
 */
export function tooLargeResourceVersion(rv: string, current: string): StatusError {
  return failure('Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    retryAfterSeconds: 1, causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
  });
}

/**
 * 408 with reason Timeout: the client did not send its request (its body) in time. kube-apiserver has no
 * separate body deadline (its 60 s request deadline answers 504); a body that stalls is the client's doing,
 * so it gets a 4xx, with the reason clients already treat as "try again".
 */
export function clientTimeout(message: string): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Timeout: ${message}`, reason: 'Timeout', details: {} } as Status;
  status.code = 408;
  return new StatusError(status);
}

/**
 * 503 ServiceUnavailable with the message as given (e.g. caches not yet synced); with `retryAfterSeconds`
 * also `Retry-After`, which client-go and kubectl honour by retrying.
 */
export function serviceUnavailable(message: string, retryAfterSeconds?: number): StatusError {
  return failure('ServiceUnavailable', message, retryAfterSeconds ? { retryAfterSeconds: Math.max(1, Math.floor(retryAfterSeconds)) } : undefined);
}

/**
 * Any thrown value as a Status: a StatusError's own, anything else a 500 InternalError (kube-apiserver
 * logs those as programmer errors).
 */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  if (err instanceof Error && err.name === 'StatusError' && typeof (err as StatusError).status === 'object') return err as StatusError;
  return internalError(err);
}

/**
 * A Success Status, as kube-apiserver returns for a DELETE that has no object to return.
 * `details` names the object deleted.
 */
export function success(gr: GroupResource, name: string, uid?: string): Status {
  const details: Details = resourceDetails(gr, name);
  if (uid) details.uid = uid;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
}
