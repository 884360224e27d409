import { serviceUnavailable } from '../status';
import { reviewRenewals } from '../../metrics/api';
import { ReviewMemo } from './review-memo';
import { type KubeRequester, SYSTEM_MASTERS, type UserInfo } from './types';

/** Retry-After of a request whose review could not be made: reviews are retried within about a second. */
export const REVIEW_RETRY_AFTER_SECONDS = 1;

/** An action on a resource, as in a SubjectAccessReview's `resourceAttributes`. Cluster scope: no namespace. */
export interface ResourceAttributes {
  verb: string;
  /** API group; '' for the core group. */
  group: string;
  version?: string;
  resource: string;
  subresource?: string;
  name?: string;
  namespace?: string;
}

/** An action on a non-resource URL such as `/metrics`. */
export interface NonResourceAttributes {
  verb: string;
  path: string;
}

export type AccessAttributes = ResourceAttributes | NonResourceAttributes;

/** authorization.k8s.io/v1 SubjectAccessReview, as far as it is sent and read. */
export interface SubjectAccessReview {
  apiVersion: 'authorization.k8s.io/v1';
  kind: 'SubjectAccessReview';
  spec: {
    resourceAttributes?: ResourceAttributes;
    nonResourceAttributes?: NonResourceAttributes;
    user: string;
    groups: string[];
    extra?: Record<string, string[]>;
    uid?: string;
  };
  status?: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

/** The answer for one access check; `reason` is kube-apiserver's explanation, worth logging, not showing. */
export interface Decision {
  allowed: boolean;
  reason: string;
}

export interface AuthorizerOptions {
  /** How long an allowed answer is reused; default 10 s (kube's delegated `--authorization-webhook-cache-authorized-ttl`). */
  allowTtlMs?: number;
  /** How long a denied answer is reused; default 10 s (`--authorization-webhook-cache-unauthorized-ttl`). */
  denyTtlMs?: number;
  /** Most cached answers; default 8192. */
  maxEntries?: number;
  /**
   * Most characters of cache keys, all answers together; default 4 Mi. A key is the review's spec: the
   * caller's identity (groups and extra as the authenticator gave them) and the request's attributes, a
   * resource name from the URL among them (at most 253 characters: a longer one is never kept).
   */
  maxKeyChars?: number;
  /**
   * Where renewals are asked (default: where reviews are): the same budget with a User-Agent of its own,
   * so kube-apiserver's audit log tells a renewal no request waited for from a review one did.
   */
  renewals?: KubeRequester;
  /**
   * Groups allowed everything without a review; default `system:masters`, which kube-apiserver authorizes
   * unconditionally anyway (kube's delegated authorizer does the same). Pass [] to always ask.
   */
  alwaysAllowGroups?: string[];
  now?: () => number;
}

/** Request attributes in SAR form; fields left empty are dropped so equal checks share a cache key. */
function toSpecAttributes(attrs: AccessAttributes): Pick<SubjectAccessReview['spec'], 'resourceAttributes' | 'nonResourceAttributes'> {
  if ('path' in attrs) return { nonResourceAttributes: { verb: attrs.verb, path: attrs.path } };
  const r: ResourceAttributes = { verb: attrs.verb, group: attrs.group, resource: attrs.resource };
  if (attrs.version) r.version = attrs.version;
  if (attrs.subresource) r.subresource = attrs.subresource;
  if (attrs.name) r.name = attrs.name;
  if (attrs.namespace) r.namespace = attrs.namespace;
  return { resourceAttributes: r };
}

/** The review kube-apiserver is asked for `user` doing `attrs`; extra keys are sorted for a stable cache key. */
export function subjectAccessReview(user: UserInfo, attrs: AccessAttributes): SubjectAccessReview {
  const spec: SubjectAccessReview['spec'] = { ...toSpecAttributes(attrs), user: user.name, groups: [...user.groups] };
  const extraKeys = Object.keys(user.extra).sort();
  if (extraKeys.length) spec.extra = Object.fromEntries(extraKeys.map((k) => [k, [...user.extra[k]]]));
  if (user.uid) spec.uid = user.uid;
  return { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec };
}

/** The longest name an object of any kind can have (a DNS subdomain). */
const MAX_OBJECT_NAME = 253;

/**
 * Authorizes by SubjectAccessReview against kube-apiserver (RBAC and whatever else the cluster runs), as
 * kube's delegated authorizer does: answers are reused briefly, from a bounded map, concurrent identical
 * checks share one request, and a check in steady use is renewed before it expires (ReviewMemo), a
 * denial too: "may this caller list every namespace?" is a denial for every owner, asked on each
 * request. A review that could not be made (timeout, 5xx, network) is not an answer: the request fails
 * with 503 and Retry-After, which clients retry, instead of a 403 nobody deserved; it is not cached.
 */
export class Authorizer {
  readonly #client: KubeRequester;
  readonly #renewals: KubeRequester;
  readonly #alwaysAllowGroups: ReadonlySet<string>;
  readonly #answers: ReviewMemo<Decision>;

  constructor(client: KubeRequester, opts: AuthorizerOptions = {}) {
    this.#client = client;
    this.#renewals = opts.renewals ?? client;
    const allowTtlMs = opts.allowTtlMs ?? 10_000;
    const denyTtlMs = opts.denyTtlMs ?? 10_000;
    this.#alwaysAllowGroups = new Set(opts.alwaysAllowGroups ?? [SYSTEM_MASTERS]);
    this.#answers = new ReviewMemo({
      maxEntries: opts.maxEntries ?? 8192, maxKeyChars: opts.maxKeyChars ?? 4 * 2 ** 20, ttlOf: (d) => (d.allowed ? allowTtlMs : denyTtlMs),
      onRenewal: (result) => reviewRenewals.inc({ review: 'subjectaccessreview', result }), now: opts.now,
    });
  }

  /**
   * Whether `user` may do `attrs`. Rejects with a 503 ServiceUnavailable StatusError (Retry-After) when
   * kube-apiserver could not be asked.
   */
  authorize(user: UserInfo, attrs: AccessAttributes): Promise<Decision> {
    if (user.groups.some((g) => this.#alwaysAllowGroups.has(g))) return Promise.resolve({ allowed: true, reason: '' });
    const review = subjectAccessReview(user, attrs);
    const ask = (renewal: boolean) => (renewal ? this.#renewals : this.#client).request<SubjectAccessReview>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', review)
      .then((answer) => {
        const status = answer.status;
        const reason = [status?.reason, status?.evaluationError].filter(Boolean).join('; ');
        return { allowed: status?.allowed === true && status.denied !== true, reason };
      }, (err: Error): never => {
        throw serviceUnavailable(`authorization could not be checked (SubjectAccessReview failed: ${err.message}); retry`, REVIEW_RETRY_AFTER_SECONDS);
      });
    // A name no object can have (past 253 characters, the longest of any kind) is answered, never kept:
    // long names from URLs would otherwise push every caller's kept answers out in a few hundred requests.
    if ('name' in attrs && attrs.name && attrs.name.length > MAX_OBJECT_NAME) return ask(false);
    return this.#answers.get(JSON.stringify(review.spec), ask);
  }

  /**
   * Whether `user` may list `resource` of `group` at cluster scope — such a caller sees every row of a
   * served resource whose source it is (SPEC §4, §9 Visibility).
   */
  async canListAll(user: UserInfo, source: { group: string; resource: string }): Promise<boolean> {
    return (await this.authorize(user, { verb: 'list', group: source.group, resource: source.resource })).allowed;
  }

  /** `canListAll` for namespaces: the source of TenantNamespaces. */
  canListAllNamespaces(user: UserInfo): Promise<boolean> {
    return this.canListAll(user, { group: '', resource: 'namespaces' });
  }
}
