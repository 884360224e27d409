import { Authorizer, type SubjectAccessReview } from './authorizer';
import { TokenReviewer, type TokenReview } from './tokenreview';
import type { KubeRequester, UserInfo } from './types';
import { isStatusError, type StatusError } from '../status';

/** Answers reviews with a function of the request body and records every call. */
class FakeReviews implements KubeRequester {
  calls: { path: string; body: unknown }[] = [];
  constructor(private readonly answer: (body: any) => unknown) {}
  async request<T>(_method: string, path: string, body?: unknown): Promise<T> {
    this.calls.push({ path, body });
    await new Promise((r) => setImmediate(r));
    return this.answer(body) as T;
  }
}

describe('TokenReviewer', () => {
  const answer = (body: TokenReview) => ({
    ...body,
    status: body.spec.token === 'good'
      ? { authenticated: true, user: { username: 'system:serviceaccount:ci:deployer', uid: 'u1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'] } } }
      : { authenticated: false, error: 'token expired' },
  });

  it('returns the user kube-apiserver reports for a valid token', async () => {
    const kube = new FakeReviews(answer);
    expect(await new TokenReviewer(kube).review('good')).toEqual({
      ok: true,
      user: { name: 'system:serviceaccount:ci:deployer', uid: 'u1', groups: ['system:serviceaccounts'], extra: { 'authentication.kubernetes.io/pod-name': ['p'] } },
    });
    expect(kube.calls).toEqual([{ path: '/apis/authentication.k8s.io/v1/tokenreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good' } } }]);
  });

  it('rejects an invalid token with kube-apiserver\'s reason', async () => {
    expect(await new TokenReviewer(new FakeReviews(answer)).review('bad')).toEqual({ ok: false, reason: 'invalid bearer token: token expired' });
  });

  it('asks once per token within the TTL, positive or negative, and shares concurrent reviews', async () => {
    let now = 0;
    const kube = new FakeReviews(answer);
    const reviewer = new TokenReviewer(kube, { ttlMs: 10_000, now: () => now });
    await Promise.all([reviewer.review('good'), reviewer.review('good'), reviewer.review('bad')]);
    await reviewer.review('good');
    await reviewer.review('bad');
    expect(kube.calls).toHaveLength(2);
    now += 10_000;
    await reviewer.review('good');
    expect(kube.calls).toHaveLength(3);
  });

  it('answers a review that could not be made (timeout, 5xx, network) with a retryable 503, not a rejected token, and does not cache it', async () => {
    let down = true;
    const kube = new FakeReviews((b) => {
      if (down) throw new Error('request timed out');
      return answer(b);
    });
    const reviewer = new TokenReviewer(kube);
    const failed = await reviewer.review('good').then(() => undefined, (err: unknown) => err);
    expect(isStatusError(failed)).toBe(true);
    expect((failed as StatusError).status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', message: expect.stringContaining('request timed out'), details: { retryAfterSeconds: 1 } });
    expect((failed as StatusError).retryAfter).toBe('1');
    down = false;
    expect((await reviewer.review('good')).ok).toBe(true);
  });

  it('asks renewals of a token\'s answer where it is told to', async () => {
    let now = 0;
    const [kube, renewals] = [new FakeReviews(answer), new FakeReviews(answer)];
    const reviewer = new TokenReviewer(kube, { renewals, now: () => now });
    await reviewer.review('good');
    now = 7_500;
    expect((await reviewer.review('good')).ok).toBe(true);
    await reviewer.review('bad'); // stored at 7,500
    now = 15_000;
    await reviewer.review('bad'); // past three quarters of its life: a rejected token is not renewed
    expect(renewals.calls).toHaveLength(1);
    now = 17_500;
    await reviewer.review('bad'); // expired: asked again
    expect([kube.calls.length, renewals.calls.length]).toEqual([3, 1]);
  });

  it('checks audiences when it asks for some', async () => {
    const kube = new FakeReviews((b: TokenReview) => ({ ...b, status: { authenticated: true, user: { username: 'x' }, audiences: ['other'] } }));
    expect(await new TokenReviewer(kube, { audiences: ['paddock'] }).review('t')).toEqual({ ok: false, reason: 'token audiences do not match' });
    expect((kube.calls[0].body as TokenReview).spec.audiences).toEqual(['paddock']);
  });
});

describe('Authorizer', () => {
  const alice: UserInfo = { name: 'alice', uid: 'a-1', groups: ['system:authenticated'], extra: { z: ['1'], a: ['2'] } };
  const admin: UserInfo = { name: 'admin', groups: ['system:masters', 'system:authenticated'], extra: {} };
  const rbac = (body: SubjectAccessReview) => ({
    ...body,
    status: body.spec.user === 'admin' ? { allowed: true, reason: 'RBAC: allowed' } : { allowed: false, reason: 'no RBAC policy matched' },
  });

  it('sends the user, groups, extra and uid with resource attributes', async () => {
    const kube = new FakeReviews(rbac);
    const decision = await new Authorizer(kube).authorize(alice, { verb: 'get', group: 'tenancy.paddock.dev', resource: 'tenantnamespaces', name: 'oil-dev' });
    expect(decision).toEqual({ allowed: false, reason: 'no RBAC policy matched' });
    expect(kube.calls).toEqual([{
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: {
        apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
        spec: {
          resourceAttributes: { verb: 'get', group: 'tenancy.paddock.dev', resource: 'tenantnamespaces', name: 'oil-dev' },
          user: 'alice', groups: ['system:authenticated'], extra: { a: ['2'], z: ['1'] }, uid: 'a-1',
        },
      },
    }]);
  });

  it('sends non-resource attributes for a path', async () => {
    const kube = new FakeReviews(rbac);
    await new Authorizer(kube).authorize(alice, { verb: 'get', path: '/metrics' });
    expect((kube.calls[0].body as SubjectAccessReview).spec.nonResourceAttributes).toEqual({ verb: 'get', path: '/metrics' });
  });

  it('allows system:masters without asking, unless told to always ask', async () => {
    const kube = new FakeReviews(rbac);
    expect(await new Authorizer(kube).authorize(admin, { verb: 'delete', group: '', resource: 'namespaces' })).toEqual({ allowed: true, reason: '' });
    expect(kube.calls).toHaveLength(0);
    expect((await new Authorizer(kube, { alwaysAllowGroups: [] }).authorize(admin, { verb: 'delete', group: '', resource: 'namespaces' })).allowed).toBe(true);
    expect(kube.calls).toHaveLength(1);
  });

  it('caches allowed and denied answers for their TTLs, per distinct check', async () => {
    let now = 0;
    const kube = new FakeReviews(rbac);
    const authz = new Authorizer(kube, { alwaysAllowGroups: [], allowTtlMs: 10_000, denyTtlMs: 5_000, now: () => now });
    const list = { verb: 'list', group: '', resource: 'namespaces' };
    await Promise.all([authz.authorize(alice, list), authz.authorize(alice, list), authz.authorize(admin, list)]);
    expect(kube.calls).toHaveLength(2);
    await authz.authorize(alice, { ...list, namespace: 'x' });
    expect(kube.calls).toHaveLength(3);
    now += 4_999;
    await authz.authorize(admin, list); // allowed, young: from memory
    expect(kube.calls).toHaveLength(3);
    now += 1;
    await authz.authorize(alice, list); // denial expired: asked again
    expect(kube.calls).toHaveLength(4);
    now += 2_500;
    await authz.authorize(admin, list); // allowed, past three quarters of its life: from memory, renewed in the background
    expect(kube.calls).toHaveLength(5);
    await new Promise((r) => setImmediate(r)); // the renewal is answered (stored at 7,500)
    now += 1_250;
    expect((await authz.authorize(alice, list)).allowed).toBe(false); // a denial in use (stored at 5,000, for 5 s) past three quarters: renewed too
    expect(kube.calls).toHaveLength(6);
    await new Promise((r) => setImmediate(r));
    now += 1_250;
    await authz.authorize(admin, list); // the first answer has expired (10,000): the renewed one, in memory
    await authz.authorize(alice, list); // so has the first denial: the renewed one
    expect(kube.calls).toHaveLength(6);
  });

  it('keeps no answer for a name no object can have, so long names from URLs push no kept answer out', async () => {
    const kube = new FakeReviews(rbac);
    const authz = new Authorizer(kube, { alwaysAllowGroups: [], maxKeyChars: 4_000 });
    const get = (name: string) => authz.authorize(alice, { verb: 'get', group: 'tenancy.paddock.dev', resource: 'tenantnamespaces', name });
    await get('n'.repeat(253));
    await get('n'.repeat(253));
    expect(kube.calls).toHaveLength(1); // the longest name an object can have: kept
    for (let i = 0; i < 10; i++) await get(`${i}`.repeat(3_000)); // each alone would take most of the bound
    expect(kube.calls).toHaveLength(11);
    await get('n'.repeat(253));
    expect(kube.calls).toHaveLength(11); // still kept
    await get('x'.repeat(254));
    await get('x'.repeat(254));
    expect(kube.calls).toHaveLength(13); // answered each time, never kept
  });

  it('asks renewals where it is told to (a User-Agent of their own), and first reviews where reviews go', async () => {
    let now = 0;
    const [kube, renewals] = [new FakeReviews(rbac), new FakeReviews(rbac)];
    const authz = new Authorizer(kube, { alwaysAllowGroups: [], renewals, now: () => now });
    const list = { verb: 'list', group: '', resource: 'namespaces' };
    await authz.authorize(admin, list);
    now = 7_500;
    await authz.authorize(admin, list);
    expect([kube.calls.length, renewals.calls.length]).toEqual([1, 1]);
    expect(renewals.calls[0].body).toEqual(kube.calls[0].body);
  });

  it('answers a review that could not be made with a retryable 503 (never a silent deny), and asks again next time', async () => {
    let down = true;
    const kube = new FakeReviews((b) => {
      if (down) throw new Error('timeout');
      return rbac(b);
    });
    const authz = new Authorizer(kube, { alwaysAllowGroups: [] });
    const failed = await authz.authorize(admin, { verb: 'get', path: '/metrics' }).then(() => undefined, (err: unknown) => err);
    expect(isStatusError(failed)).toBe(true);
    expect((failed as StatusError).status).toMatchObject({ code: 503, reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
    expect((failed as StatusError).retryAfter).toBe('1');
    down = false;
    expect((await authz.authorize(admin, { verb: 'get', path: '/metrics' })).allowed).toBe(true);
  });

  it('treats an explicit denial as a denial even if allowed is set', async () => {
    const kube = new FakeReviews((b) => ({ ...b, status: { allowed: true, denied: true, reason: 'confused webhook' } }));
    expect((await new Authorizer(kube).authorize(alice, { verb: 'get', path: '/x' })).allowed).toBe(false);
  });

  it('asks about listing namespaces at cluster scope for canListAllNamespaces', async () => {
    const kube = new FakeReviews(rbac);
    const authz = new Authorizer(kube, { alwaysAllowGroups: [] });
    expect(await authz.canListAllNamespaces(alice)).toBe(false);
    expect(await authz.canListAllNamespaces(admin)).toBe(true);
    expect((kube.calls[0].body as SubjectAccessReview).spec.resourceAttributes).toEqual({ verb: 'list', group: '', resource: 'namespaces' });
  });
});
