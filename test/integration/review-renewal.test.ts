import { httpsGet } from '../controlplane/controlplane';
import type { PaddockProcess } from '../controlplane/paddock';
import { issueClientCert, type CertFiles } from '../controlplane/pki';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { startReplicaBehindRelay, type HoldableRelay } from './holdable-relay';
import { ALICE, served, tenant, tnsPath } from './watch-fixtures';

jest.setTimeout(180_000);

/** Paddock's default time to live of a SubjectAccessReview's answer (kube's delegated authorizer's). */
const ANSWER_TTL_MS = 10_000;
/** Where in its life an answer in use is renewed (three quarters). */
const RENEW_AT_MS = 7_500;

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

/**
 * A caller who keeps using Paddock never waits for kube-apiserver to authorize her: the answers to her
 * SubjectAccessReviews are renewed in the background before they expire. And a revocation still takes
 * effect within their time to live, however busy the caller keeps them.
 */
describe('SubjectAccessReview answers in use', () => {
  const name = uniqueName('renew');
  const ns = `${name}-a`;
  let relay: HoldableRelay;
  let replica: PaddockProcess;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    await applyObject(tenant(name, ALICE, ['a']));
    await served([ns]);
    ({ relay, replica, stop } = await startReplicaBehindRelay('paddock-renewing'));
  });

  afterAll(async () => {
    await stop?.();
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await waitFor(`the rows of ${name} gone`, async () => (await kubectlJson('admin', ['get', 'tns', '--field-selector', `spec.tenant=${name}`])).items.length === 0, 170_000, 1000);
  });

  /** A list of tenantnamespaces with `cert`, straight from the replica: the names shown, or the status. */
  async function lists(cert: CertFiles): Promise<{ status: number; names: string[] }> {
    const { pki } = controlPlane();
    const res = await httpsGet(`https://127.0.0.1:${replica.port}${tnsPath()}`, pki, cert);
    const names = res.status === 200 ? (JSON.parse(res.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name) : [];
    return { status: res.status, names };
  }

  /** The replica's renewals of SubjectAccessReview answers that were answered (its metric). */
  async function renewed(): Promise<number> {
    const metrics = (await httpsRequest(`https://127.0.0.1:${replica.port}/metrics`, { cert: controlPlane().pki.users.admin })).body;
    return Number(/^paddock_review_renewals_total\{review="subjectaccessreview",result="answered"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  }

  it('renews an answer in use, so a use after the first answer\'s end does not wait for kube-apiserver', async () => {
    const alice = controlPlane().pki.users.alice;
    // Her first list asks kube-apiserver twice (may she list tenantnamespaces? may she list every namespace?).
    const asked = Date.now();
    expect(await lists(alice)).toMatchObject({ status: 200, names: expect.arrayContaining([ns]) });
    const answered = Date.now(); // both answers arrived in [asked, answered]
    expect(answered - asked).toBeLessThan(ANSWER_TTL_MS - RENEW_AT_MS - 500);
    // Past the point of renewal, before the end: answered from them, and both asked again in the background.
    const before = await renewed();
    await sleepUntil(answered + RENEW_AT_MS + 200);
    expect(await lists(alice)).toMatchObject({ status: 200, names: expect.arrayContaining([ns]) });
    await waitFor('both renewals answered', async () => (await renewed()) >= before + 2, 5_000, 50);
    // Past the first answers' end, within the renewed ones' life, with every answer of kube-apiserver held.
    await sleepUntil(asked + ANSWER_TTL_MS + 200);
    relay.hold();
    let timer: NodeJS.Timeout | undefined;
    try {
      const held = new Promise<'held'>((r) => (timer = setTimeout(() => r('held'), answered + RENEW_AT_MS + ANSWER_TTL_MS - 1_000 - Date.now())));
      // Without the renewal the first answers have expired: the list would wait for a held review.
      const first = await Promise.race([lists(alice), held]);
      expect(first).toMatchObject({ status: 200, names: expect.arrayContaining([ns]) });
    } finally {
      clearTimeout(timer);
      relay.release();
    }
  });

  it('takes a revocation within the answers\' time to live while the caller keeps renewing them', async () => {
    const user = uniqueName('auditor');
    const { pki } = controlPlane();
    const cert = issueClientCert(pki, user, { user, groups: [] });
    const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: user }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view-namespaces-' + user }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }] };
    await applyObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'view-namespaces-' + user }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }] });
    await applyObject(binding);
    // Listing namespaces cluster-wide, the user sees every row (it owns none).
    await waitFor(`${user} seeing ${ns}`, async () => (await lists(cert)).names.includes(ns), 30_000, 200);
    // It keeps listing (every 200 ms) through more than one renewal of its answers, then loses the binding.
    const busyUntil = Date.now() + ANSWER_TTL_MS;
    while (Date.now() < busyUntil) {
      expect((await lists(cert)).names).toContain(ns);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await kubectl('admin', ['delete', 'clusterrolebinding', user])).toMatchObject({ code: 0 });
    const revoked = Date.now();
    let listing = true;
    let seenGone = -1;
    try {
      while (listing && Date.now() - revoked < ANSWER_TTL_MS * 2) {
        const { status, names } = await lists(cert);
        expect(status).toBe(200);
        if (!names.includes(ns)) {
          seenGone = Date.now() - revoked;
          listing = false;
        } else await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await kubectl('admin', ['delete', 'clusterrole', 'view-namespaces-' + user, '--ignore-not-found']);
    }
    // An answer is used at most its time to live after it arrived (plus the list's own time).
    expect(seenGone).toBeGreaterThanOrEqual(0);
    expect(seenGone).toBeLessThanOrEqual(ANSWER_TTL_MS + 1_000);
  });
});
