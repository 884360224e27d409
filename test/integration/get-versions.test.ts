import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { startPaddock, stopPaddock, type PaddockProcess } from '../controlplane/paddock';
import { applyObject, controlPlane, httpsRequest, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { PADDOCK_STATE_FILE } from './global-setup';
import { HoldableRelay } from './holdable-relay';
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

  beforeAll(async () => {
    await applyObject(tenant(name, ALICE, ['a']));
    await served([ns]);
    const state = controlPlane();
    relay = await HoldableRelay.start(state.server);
    const { kubeconfig } = JSON.parse(readFileSync(PADDOCK_STATE_FILE, 'utf8')) as { kubeconfig: string };
    const config = JSON.parse(readFileSync(kubeconfig, 'utf8'));
    config.clusters[0].cluster.server = `https://127.0.0.1:${relay.port}`;
    const relayed = join(state.dir, 'paddock-behind.kubeconfig');
    writeFileSync(relayed, JSON.stringify(config));
    behind = await startPaddock(state, relayed, { name: 'paddock-behind', mode: 'apiserver', extraArgs: ['--leader-elect=false'] });
  });

  afterAll(async () => {
    relay.release();
    await stopPaddock(behind);
    await relay.close();
    await kubectl('admin', ['delete', 'tenant', name, '--wait=false']);
    await waitFor(`the rows of ${name} gone`, async () => (await kubectlJson('admin', ['get', 'tns', '--field-selector', `spec.tenant=${name}`])).items.length === 0, 170_000, 1000);
  });

  // As admin (system:masters): Paddock authorizes it without a SubjectAccessReview, which the relay would hold too.
  const getRow = (port: number, query = '') => httpsRequest(`https://127.0.0.1:${port}${tnsPath(ns)}${query}`, { cert: controlPlane().pki.users.admin });

  /** {@link getRow}, and when its request has been written to the connection. */
  function getSent(port: number, query: string): { sent: Promise<void>; answer: Promise<{ status: number; body: string }> } {
    const { pki } = controlPlane();
    let sent!: () => void;
    const whenSent = new Promise<void>((resolve) => (sent = resolve));
    const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({
        host: '127.0.0.1', port, path: `${tnsPath(ns)}${query}`, servername: 'localhost',
        ca: readFileSync(pki.ca.cert), cert: readFileSync(pki.users.admin.cert), key: readFileSync(pki.users.admin.key),
      }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('finish', sent).on('error', reject).end();
    });
    answer.catch(() => sent());
    return { sent: whenSent, answer };
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
      expect(JSON.parse(res.body)).toMatchObject({ kind: 'Status', reason: 'Timeout', code: 504, message: expect.stringMatching(/^Timeout: Too large resource version: /) });
      expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
      // Without a resourceVersion it answers at once from its cache as it stands: the row before the label.
      expect(JSON.parse((await getRow(behind.port)).body).metadata.labels.step).not.toBe('held');
    } finally {
      relay.release();
    }
  });

  it('answers with the row as of that state once it reaches it', async () => {
    relay.hold();
    let asked: ReturnType<typeof getSent> | undefined;
    try {
      const rv = await relabelSeenByA('reached');
      // Asked while held, released once the request is sent: it reaches the replica before the changes do.
      asked = getSent(behind.port, `?resourceVersion=${encodeURIComponent(rv)}`);
      await asked.sent;
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
