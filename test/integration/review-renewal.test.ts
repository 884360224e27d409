import { httpsGet } from '../controlplane/controlplane';
import type { PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { startReplicaBehindRelay, type HoldableRelay } from './holdable-relay';
import { ALICE, served, tenant, tnsPath } from './watch-fixtures';

jest.setTimeout(180_000);

/** Paddock's default time to live of a SubjectAccessReview's answer (kube's delegated authorizer's). */
const ANSWER_TTL_MS = 10_000;

/**
 * An owner who keeps using Paddock never waits for kube-apiserver to authorize her: the answers to her
 * SubjectAccessReviews are renewed in the background once past half their life. Proven on a replica whose
 * every answer from kube-apiserver a relay holds back: her list is still answered.
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

  /** alice's list of tenantnamespaces, straight from the replica: the names she is shown, or the status. */
  async function aliceLists(): Promise<{ status: number; names: string[] }> {
    const { pki } = controlPlane();
    const res = await httpsGet(`https://127.0.0.1:${replica.port}${tnsPath()}`, pki, pki.users.alice);
    const names = res.status === 200 ? (JSON.parse(res.body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name) : [];
    return { status: res.status, names };
  }

  it('renews an answer used past its half-life, so a use after the first answer\'s end does not wait for kube-apiserver', async () => {
    // Her first list asks kube-apiserver (may she list tenantnamespaces? may she list every namespace?).
    await waitFor(`alice's row ${ns} on the replica`, async () => (await aliceLists()).names.includes(ns), 30_000, 200);
    const firstAnswered = Date.now(); // the answers were stored before this
    const at = (ms: number) => new Promise((r) => setTimeout(r, firstAnswered + ms - Date.now()));
    // Past half the answers' life: answered from them, and they are asked again in the background.
    await at(ANSWER_TTL_MS / 2 + 500);
    expect(await aliceLists()).toMatchObject({ status: 200, names: expect.arrayContaining([ns]) });
    // Past the first answers' end, within the renewed ones' life, with every answer of kube-apiserver held.
    await at(ANSWER_TTL_MS + 500);
    relay.hold();
    let timer: NodeJS.Timeout | undefined;
    try {
      const held = new Promise<'held'>((r) => (timer = setTimeout(() => r('held'), firstAnswered + ANSWER_TTL_MS * 1.5 - 500 - Date.now())));
      // Without the renewal the first answers have expired: the list would wait for a held review.
      const first = await Promise.race([aliceLists(), held]);
      expect(first).toMatchObject({ status: 200, names: expect.arrayContaining([ns]) });
    } finally {
      clearTimeout(timer);
      relay.release();
    }
  });
});
