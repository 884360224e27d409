/**
 * Identity of a caller, as kube-apiserver's `user.Info` carries it: the name, an optional UID, the groups
 * (always including `system:authenticated` once authenticated) and extra attributes keyed by lowercased
 * names. The same shape is sent back to kube-apiserver in SubjectAccessReviews.
 */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
  extra: Record<string, string[]>;
}

/**
 * The narrow slice of a kube-apiserver REST client this module needs. `path` is an absolute API path
 * (`/api/v1/...`, `/apis/...`); `body` is JSON-serialized when given. Resolves with the decoded JSON
 * response of a 2xx answer and rejects otherwise.
 */
export interface KubeRequester {
  request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
}

/** Group every authenticated caller belongs to. */
export const ALL_AUTHENTICATED = 'system:authenticated';
/** Group of the anonymous caller; a user carrying it is never given `system:authenticated`. */
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
/** Name kube-apiserver gives the anonymous caller. */
export const ANONYMOUS = 'system:anonymous';
/** Extra key naming the credential a user authenticated with (`X509SHA256=<hex>` for certificates). */
export const CREDENTIAL_ID_KEY = 'authentication.kubernetes.io/credential-id';
/** Group kube-apiserver authorizes unconditionally; delegated authorizers skip the review for it. */
export const SYSTEM_MASTERS = 'system:masters';

/**
 * Adds `system:authenticated` to the groups of an authenticated user, as kube's AuthenticatedGroupAdder
 * does: not for `system:anonymous`, and not when the user already carries `system:authenticated` or
 * `system:unauthenticated`. Returns a new object; the input is not changed.
 */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.name === ANONYMOUS) return user;
  if (user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}
