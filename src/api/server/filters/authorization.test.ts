import { Authorizer, type SubjectAccessReview } from '../../auth/authorizer';
import type { KubeRequester, UserInfo } from '../../auth/types';
import type { ServedResource } from '../../registration/served-resource';
import { isStatusError } from '../../status';
import { ResourceAuthorization } from './authorization';

/** kube-apiserver's review endpoint, answering each review only when the test says how. */
class HeldReviews implements KubeRequester {
  readonly asked: { review: SubjectAccessReview; answer(allowed: boolean): void; fail(err: Error): void }[] = [];
  request<T>(_method: string, _path: string, body?: unknown): Promise<T> {
    return new Promise((resolve, reject) => {
      const review = body as SubjectAccessReview;
      this.asked.push({ review, answer: (allowed) => resolve({ ...review, status: { allowed } } as T), fail: reject });
    });
  }
}

const alice: UserInfo = { name: 'alice', groups: ['system:authenticated'], extra: {} };
const resource = {
  names: { group: 'tenancy.paddock.dev', version: 'v1alpha1', resource: 'tenantnamespaces', kind: 'TenantNamespace' },
  seesAllWith: { group: '', resource: 'namespaces' },
} as unknown as ServedResource;

const verbOf = (r: SubjectAccessReview) => `${r.spec.resourceAttributes?.verb} ${r.spec.resourceAttributes?.resource}`;

describe('ResourceAuthorization.authorizedViewer', () => {
  it('asks both reviews at once, and gives the caller with what the second said', async () => {
    const kube = new HeldReviews();
    const viewer = new ResourceAuthorization(new Authorizer(kube)).authorizedViewer(resource, alice, 'list');
    await Promise.resolve();
    expect(kube.asked.map((a) => verbOf(a.review)).sort()).toEqual(['list namespaces', 'list tenantnamespaces']);
    for (const a of kube.asked) a.answer(verbOf(a.review) === 'list tenantnamespaces');
    expect(await viewer).toEqual({ name: 'alice', groups: ['system:authenticated'], seesAll: false });
  });

  it('refuses with 403 when the request is not allowed, whatever became of the other review (no unhandled failure)', async () => {
    const kube = new HeldReviews();
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const viewer = new ResourceAuthorization(new Authorizer(kube)).authorizedViewer(resource, alice, 'get', 'oil-dev');
      await Promise.resolve();
      kube.asked.find((a) => verbOf(a.review) === 'list namespaces')!.fail(new Error('timeout'));
      kube.asked.find((a) => verbOf(a.review) === 'get tenantnamespaces')!.answer(false);
      const err = await viewer.then(() => undefined, (e: unknown) => e);
      expect(isStatusError(err) && err.status.code).toBe(403);
      await new Promise((r) => setImmediate(r));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('fails with the review\'s 503 when the request is allowed and the other review could not be made', async () => {
    const kube = new HeldReviews();
    const viewer = new ResourceAuthorization(new Authorizer(kube)).authorizedViewer(resource, alice, 'watch');
    await Promise.resolve();
    kube.asked.find((a) => verbOf(a.review) === 'watch tenantnamespaces')!.answer(true);
    kube.asked.find((a) => verbOf(a.review) === 'list namespaces')!.fail(new Error('timeout'));
    const err = await viewer.then(() => undefined, (e: unknown) => e);
    expect(isStatusError(err) && err.status.code).toBe(503);
  });
});
