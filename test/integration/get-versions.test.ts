import type { PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { startReplicaBehindRelay, type HoldableRelay } from './holdable-relay';
import { ALICE, portOf, served, tenant, tnsPath } from './watch-fixtures';

jest.setTimeout(180_000);

/**
 * A get with a resourceVersion reads "not older than" it, as kube-apiserver's does. The state is taken
 * from one replica and asked of another that kube-apiserver's answers cannot reach meanwhile (a relay
 * holds them): the state is one it has not reached.
 */
describe('a get with a resourceVersion another replica issued', () => {
  const name = uniqueName('grv');
  const ns = `${name}-a`;
  let relay: HoldableRelay;
  let behind: PaddockProcess;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    await applyObject(tenant(name, ALICE, ['a']));
    await served([ns]);
    ({ relay, replica: behind, stop } = await startReplicaBehindRelay('paddock-behind'));
  });

  afterAll(async () => {
    await stop?.();
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await waitFor(`the rows of ${name} gone`, async () => (await kubectlJson('admin', ['get', 'tns', '--field-selector', `spec.tenant=${name}`])).items.length === 0, 170_000, 1000);
  });

  // As admin (system:masters): Paddock authorizes it without a SubjectAccessReview, which the relay would hold too.
  const getRow = (port: number, query = '') => httpsRequest(`https://127.0.0.1:${port}${tnsPath(ns)}${query}`, { cert: controlPlane().pki.users.admin });

  /** How many requests the replica on `port` has waiting for a resourceVersion (its metric). */
  async function waitsOn(port: number): Promise<number> {
    const metrics = (await httpsRequest(`https://127.0.0.1:${port}/metrics`, { cert: controlPlane().pki.users.admin })).body;
    return Number(/^paddock_resource_version_waits (\d+)$/m.exec(metrics)?.[1] ?? NaN);
  }

  /** Labels the namespace and returns its row's resourceVersion once replica A serves the label. */
  async function relabelSeenByA(value: string): Promise<string> {
    await kubectl('admin', ['label', 'namespace', ns, `step=${value}`, '--overwrite']);
    let rv = '';
    await waitFor(`replica A serving step=${value}`, async () => {
      const row = JSON.parse((await getRow(portOf('paddock-a'))).body);
      rv = row.metadata?.resourceVersion;
      return row.metadata?.labels?.step === value;
    }, 30_000, 100);
    return rv;
  }

  it('waits for a state it has not reached, then answers 504 as kube-apiserver does if it never comes', async () => {
    relay.hold();
    try {
      const rv = await relabelSeenByA('held');
      const started = Date.now();
      const res = await getRow(behind.port, `?resourceVersion=${encodeURIComponent(rv)}`);
      expect(res.status).toBe(504);
      expect(JSON.parse(res.body)).toMatchObject({
        kind: 'Status', reason: 'Timeout', code: 504, message: expect.stringMatching(/^Timeout: Too large resource version: /),
        // What client-go tells this timeout from others by (apierrors.IsTooLargeResourceVersion).
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      // Without a resourceVersion it answers at once from its cache as it stands: the row before the label.
      expect(JSON.parse((await getRow(behind.port)).body).metadata.labels.step).not.toBe('held');
    } finally {
      relay.release();
    }
  });

  it('answers with the row as of that state once it reaches it', async () => {
    relay.hold();
    let asked: { answer: ReturnType<typeof getRow> } | undefined;
    try {
      const rv = await relabelSeenByA('reached');
      // Asked while held, released once the replica reports the request waiting (before it could answer).
      asked = { answer: getRow(behind.port, `?resourceVersion=${encodeURIComponent(rv)}`) };
      let answered = false;
      void asked.answer.then(() => (answered = true), () => (answered = true));
      await waitFor('the get waiting (or answered)', async () => answered || (await waitsOn(behind.port)) === 1, 10_000, 50);
      expect(answered).toBe(false);
    } finally {
      relay.release();
    }
    const res = await asked!.answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).metadata.labels.step).toBe('reached');
  });

  it.each([['0'], ['']])('answers resourceVersion=%p from the cache as it stands', async (rv) => {
    const res = await getRow(behind.port, `?resourceVersion=${rv}`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).metadata.name).toBe(ns);
  });

  it('answers a resourceVersion that is not one with 400', async () => {
    const res = await getRow(portOf('paddock-a'), '?resourceVersion=not-a-version');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  });
});
