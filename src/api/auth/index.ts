/**
 * Who is calling and what may they do: authentication (front proxy, client certificate, bearer token)
 * configured from and hot-reloaded with `kube-system/extension-apiserver-authentication`, authorization by
 * SubjectAccessReview, and the owner-subject keys of the visibility rule. What the server reads of it:
 */
export type { KubeRequester, UserInfo } from './types';
export { AuthConfigSource } from './config';
export { Authenticator, type Authentication } from './authenticator';
export { Authorizer } from './authorizer';
export { TokenReviewer } from './tokenreview';
export { reloadServingCertificate, reloadTlsOnChange, tlsServerOptions, type ServingCertificate } from './tls';
export { WEBSOCKET_BEARER_PROTOCOL_PREFIX } from './headers';
