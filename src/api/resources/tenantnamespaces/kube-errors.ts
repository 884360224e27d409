import { KubeApiError } from '../../../kube/errors';
import { ClaimContention, TenantGone } from '../../../tenancy/claim-ledger';
import { TNS_KIND, TNS_RESOURCE } from './names';
import { alreadyExists, conflict, failure, forbiddenBecause, isStatusError, serviceUnavailable, timeout, tooManyRequests, type StatusError } from '../../status';

/**
 * What a failure met while self-serving `name` means to the caller, as the Status kube-apiserver would
 * give for the same cause: 409 (exists, terminating, changed), 403, 422, 429, 504. A fault of
 * kube-apiserver or of the connection to it is a retryable 503, never a 500 from this server.
 */
export function selfServiceError(err: unknown, name: string): unknown {
  if (isStatusError(err)) return err;
  if (err instanceof ClaimContention) return tooManyRequests(1, err.message);
  if (err instanceof TenantGone) return forbiddenBecause(TNS_RESOURCE, name, err.message);
  if (err instanceof KubeApiError) return fromKube(err, name);
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return timeout(`creating namespace ${JSON.stringify(name)} did not complete in time`, 1);
  return serviceUnavailable(`kube-apiserver could not be reached: ${err instanceof Error ? err.message.slice(0, 200) : 'unknown error'}`);
}

function fromKube(err: KubeApiError, name: string): StatusError {
  const message = (err.status.message ?? err.message).slice(0, 512);
  switch (err.code) {
    case 409:
      return err.reason === 'AlreadyExists' ? alreadyExists(TNS_RESOURCE, name) : conflict(TNS_RESOURCE, name, message);
    case 403:
      return forbiddenBecause(TNS_RESOURCE, name, message);
    case 422: {
      const causes = (err.status.details?.causes ?? []).slice(0, 20);
      return failure('Invalid', `${TNS_KIND.kind}.${TNS_KIND.group} ${JSON.stringify(name)} is invalid: ${message}`, { name, group: TNS_KIND.group, kind: TNS_KIND.kind, causes });
    }
    case 429:
      return tooManyRequests(err.status.details?.retryAfterSeconds ?? 1, message);
    case 504:
      return timeout(message, err.status.details?.retryAfterSeconds ?? 1);
    default:
      if (err.code >= 400 && err.code < 500) return failure('BadRequest', message);
      return serviceUnavailable(message);
  }
}
