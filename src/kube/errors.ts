import type { Status } from './types';

/**
 * A request kube-apiserver answered with a failure `Status` (or an HTTP error whose body was not a
 * Status, which is then synthesised from the code). `code` is the HTTP status code, `reason` kube's
 * StatusReason (`NotFound`, `Conflict`, `Expired`, `Gone`, …).
 */
export class KubeApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly status: Status;

  constructor(status: Status) {
    super(status.message || `${status.reason ?? 'Unknown'} (${status.code})`);
    this.name = 'KubeApiError';
    this.code = status.code;
    this.reason = status.reason ?? '';
    this.status = status;
  }

  /** Builds the error from a response body; a non-Status body becomes the message of a synthetic Status. */
  static fromResponse(httpCode: number, body: string, what: string): KubeApiError {
    let parsed: unknown;
    try { parsed = body ? JSON.parse(body) : undefined; } catch { parsed = undefined; }
    if (isStatus(parsed)) return new KubeApiError({ ...parsed, code: parsed.code || httpCode });
    return new KubeApiError({
      apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code: httpCode,
      reason: reasonForCode(httpCode),
      message: `${what}: HTTP ${httpCode}${body ? `: ${body.slice(0, 512)}` : ''}`,
    });
  }
}

export function isStatus(v: unknown): v is Status {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Status';
}

/** kube's default reason for a bare HTTP status code (apimachinery `NewGenericServerResponse`). */
function reasonForCode(code: number): string {
  switch (code) {
    case 400: return 'BadRequest';
    case 401: return 'Unauthorized';
    case 403: return 'Forbidden';
    case 404: return 'NotFound';
    case 405: return 'MethodNotAllowed';
    case 406: return 'NotAcceptable';
    case 409: return 'Conflict';
    case 410: return 'Gone';
    case 415: return 'UnsupportedMediaType';
    case 422: return 'Invalid';
    case 429: return 'TooManyRequests';
    case 500: return 'InternalError';
    case 503: return 'ServiceUnavailable';
    case 504: return 'Timeout';
    default: return 'Unknown';
  }
}

function codeOf(err: unknown): number | undefined {
  return err instanceof KubeApiError ? err.code : undefined;
}

export const isNotFound = (err: unknown): boolean => codeOf(err) === 404;
export const isConflict = (err: unknown): boolean => codeOf(err) === 409;
export const isAlreadyExists = (err: unknown): boolean => err instanceof KubeApiError && err.reason === 'AlreadyExists';
/** 410: a resourceVersion or continue token is too old (`Expired` or `Gone`); the cure is a fresh list. */
export const isGone = (err: unknown): boolean => codeOf(err) === 410;
