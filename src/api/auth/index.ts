/**
 * Who is calling and what may they do: authentication (front proxy, client certificate, bearer token)
 * configured from and hot-reloaded with `kube-system/extension-apiserver-authentication`, authorization by
 * SubjectAccessReview, and the owner-subject keys of the visibility rule (SPEC §4, §6).
 */
export { ALL_AUTHENTICATED, ANONYMOUS, CREDENTIAL_ID_KEY, SYSTEM_MASTERS, withAuthenticatedGroup, type KubeRequester, type UserInfo } from './types';
export {
  AUTHENTICATION_CONFIGMAP, AuthConfigSource, EMPTY_AUTHENTICATION_CONFIG, parseAuthenticationConfig,
  type AuthConfigSourceOptions, type AuthenticationConfig, type RequestHeaderConfig, type TrustBundle,
} from './config';
export { Authenticator, peerChain, userFromCertificate, type Authentication, type AuthenticatorOptions, type AuthMethod, type Credentials } from './authenticator';
export { Authorizer, subjectAccessReview, type AccessAttributes, type AuthorizerOptions, type Decision, type NonResourceAttributes, type ResourceAttributes } from './authorizer';
export { TokenReviewer, type TokenResult, type TokenReviewerOptions } from './tokenreview';
export { reloadServingCertificate, reloadTlsOnChange, secureContextOptions, tlsServerOptions, type ServingCertificate } from './tls';
export { bearerToken, identityFromHeaders, WEBSOCKET_BEARER_PROTOCOL_PREFIX, websocketBearerToken, type DistinctHeaders } from './headers';
export { certSubject, parseCertBundle, verifyClientChain, type ChainVerification } from './x509';
