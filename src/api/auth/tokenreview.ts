import { createHash } from 'node:crypto';
import { serviceUnavailable } from '../status';
import { REVIEW_RETRY_AFTER_SECONDS } from './authorizer';
import { reviewRenewals } from '../../metrics/api';
import { ReviewMemo } from './review-memo';
import type { KubeRequester, UserInfo } from './types';

/** authentication.k8s.io/v1 TokenReview, as far as it is sent and read. */
export interface TokenReview {
  apiVersion: 'authentication.k8s.io/v1';
  kind: 'TokenReview';
  spec: { token: string; audiences?: string[] };
  status?: {
    authenticated?: boolean;
    user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
    audiences?: string[];
    error?: string;
  };
}

export type TokenResult = { ok: true; user: UserInfo } | { ok: false; reason: string };

export interface TokenReviewerOptions {
  /** How long an answer, positive or negative, is reused; default 10 s (kube's `--authentication-token-webhook-cache-ttl`). */
  ttlMs?: number;
  /** Most cached answers; default 4096. */
  maxEntries?: number;
  /** Where renewals are asked (default: where reviews are), as the Authorizer's. */
  renewals?: KubeRequester;
  /** Audiences the token must be meant for; empty (the default) accepts kube-apiserver's own audiences. */
  audiences?: string[];
  now?: () => number;
}

/**
 * Authenticates bearer tokens by asking kube-apiserver (POST TokenReview), as kube's delegated token
 * authenticator does. Answers are kept by the SHA-256 of the token (never the token itself) for a short
 * TTL, concurrent reviews of one token share one request, and a token in steady use is renewed before its
 * answer expires (ReviewMemo). A review that could not be made (timeout, 5xx, network) is not a verdict
 * on the token: it rejects with 503 and Retry-After, and is not cached.
 */
export class TokenReviewer {
  readonly #client: KubeRequester;
  readonly #renewals: KubeRequester;
  readonly #audiences: string[];
  readonly #answers: ReviewMemo<TokenResult>;

  constructor(client: KubeRequester, opts: TokenReviewerOptions = {}) {
    this.#client = client;
    this.#renewals = opts.renewals ?? client;
    const ttlMs = opts.ttlMs ?? 10_000;
    this.#audiences = opts.audiences ?? [];
    this.#answers = new ReviewMemo({
      maxEntries: opts.maxEntries ?? 4096, ttlOf: () => ttlMs, renews: (r) => r.ok,
      onRenewal: (result) => reviewRenewals.inc({ review: 'tokenreview', result }), now: opts.now,
    });
  }

  /**
   * The user a token belongs to (groups as kube-apiserver reports them), or why it is not accepted.
   * Rejects with a 503 ServiceUnavailable StatusError when kube-apiserver could not be asked.
   */
  review(token: string): Promise<TokenResult> {
    const key = createHash('sha256').update(token).digest('base64');
    return this.#answers.get(key, (renewal) => this.#ask(token, renewal ? this.#renewals : this.#client).catch((err: Error): never => {
      throw serviceUnavailable(`authentication could not be checked (TokenReview failed: ${err.message}); retry`, REVIEW_RETRY_AFTER_SECONDS);
    }));
  }

  async #ask(token: string, client: KubeRequester): Promise<TokenResult> {
    const body: TokenReview = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } };
    if (this.#audiences.length) body.spec.audiences = this.#audiences;
    const answer = await client.request<TokenReview>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', body);
    const status = answer.status ?? {};
    if (!status.authenticated) return { ok: false, reason: status.error ? `invalid bearer token: ${status.error}` : 'invalid bearer token' };
    if (this.#audiences.length && !(status.audiences ?? []).some((a) => this.#audiences.includes(a))) {
      return { ok: false, reason: 'token audiences do not match' };
    }
    const u = status.user ?? {};
    if (!u.username) return { ok: false, reason: 'token review returned no user name' };
    const user: UserInfo = { name: u.username, groups: [...(u.groups ?? [])], extra: { ...(u.extra ?? {}) } };
    if (u.uid) user.uid = u.uid;
    return { ok: true, user };
  }
}
