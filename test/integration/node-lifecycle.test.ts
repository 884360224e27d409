import { stopNode } from '../controlplane/node';
import { applyObject, kubectl, uniqueName } from './env';
import { NODE_DIR, describeNode, ensureNode, netcheckPod, waitRunning } from './node-env';

jest.setTimeout(180_000);

describeNode('the node: teardown and start', () => {
  const ns = uniqueName('lifecycle');

  afterAll(async () => {
    await kubectl('admin', ['delete', 'namespace', ns, '--wait=false', '--ignore-not-found']);
  });

  test('a teardown with a pod running leaves nothing behind on the host, and the node is Ready again well within a minute', async () => {
    await ensureNode();
    expect((await kubectl('admin', ['create', 'namespace', ns])).code).toBe(0);
    // A running pod gives the teardown a sandbox, a veth, mounts and a network namespace to remove.
    await applyObject(netcheckPod('echo', ns));
    await waitRunning(ns, 'echo');

    const t0 = Date.now();
    const leftovers = await stopNode(NODE_DIR);
    const teardownMs = Date.now() - t0;
    expect(leftovers).toEqual([]);

    const t1 = Date.now();
    await ensureNode();
    const startMs = Date.now() - t1;
    process.stderr.write(`node teardown ${teardownMs} ms, start to Ready ${startMs} ms\n`);
    expect(startMs).toBeLessThan(30_000);
    // The pod the API still holds gets a new sandbox on the restarted node.
    await waitRunning(ns, 'echo', 60_000);
  });
});
