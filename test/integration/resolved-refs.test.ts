import { applyObject, kubectl, kubectlJson, uniqueName, waitFor } from './env';
import { tenant } from '../../src/testing/tenants';

jest.setTimeout(180_000);

/**
 * A Tenant naming classes and a node label the cluster does not have: provisioned all the same (Ready),
 * and its ResolvedRefs condition names each missing one — the reason its pods are refused or would stay
 * Pending — until the class or node appears, through Paddock's class and node informers.
 */
const id = uniqueName('refs').slice(5);
const name = `refs-${id}`;
const ns = `${name}-app`;
const [low, high, std] = [`${id}-low`, `${id}-high`, `${id}-std`];
const poolLabel = `pool.example.com/${id}`;
const node = `refs-node-${id}`;

const priorityClass = (n: string) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: n }, value: 1000 });
const storageClass = (n: string) => ({ apiVersion: 'storage.k8s.io/v1', kind: 'StorageClass', metadata: { name: n }, provisioner: 'kubernetes.io/no-provisioner' });
/** A Node object alone (no kubelet behind it): what Paddock's node informer sees is its labels. */
const nodeObject = (labels: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: node, labels } });

async function conditions(): Promise<Record<string, any>> {
  const t = await kubectlJson('admin', ['get', 'tenant', name]);
  if (t.status?.observedGeneration !== t.metadata.generation) return {};
  return Object.fromEntries((t.status?.conditions ?? []).map((c: any) => [c.type, c]));
}

/** Waits until ResolvedRefs has `message` (the positive event every later check follows); returns the conditions. */
async function waitResolvedRefs(message: string): Promise<Record<string, any>> {
  let last: Record<string, any> = {};
  await waitFor(`ResolvedRefs "${message}"`, async () => (last = await conditions()).ResolvedRefs?.message === message, 60_000, 250)
    .catch((err) => {
      throw new Error(`${(err as Error).message}; last: ${JSON.stringify(last)}`);
    });
  return last;
}

const notFound = (...items: string[]) => `not found: ${items.join('; ')}`;
const missingPriority = `PriorityClass ${low} (priorityClasses.allowed, priorityClasses.default)`;
const missingHigh = `PriorityClass ${high} (priorityClasses.allowed)`;
const missingStorage = `StorageClass ${std} (storageClasses.allowed, storageClasses.default)`;
const missingNode = `no Node has the labels of nodeSelector ${poolLabel}=oil`;

afterAll(async () => {
  await kubectl('admin', ['delete', 'tenant', name, '--wait=false', '--ignore-not-found']);
  await kubectl('admin', ['delete', 'priorityclass', low, high, '--ignore-not-found']);
  await kubectl('admin', ['delete', 'storageclass', std, '--ignore-not-found']);
  await kubectl('admin', ['delete', 'node', node, '--ignore-not-found']);
});

test('a Tenant naming what does not exist is Ready, and ResolvedRefs=False names each missing class and the node selector', async () => {
  await applyObject(tenant(name, {
    namespaces: ['app'],
    deletionPolicy: 'Delete',
    priorityClasses: { allowed: [low, high], default: low },
    storageClasses: { allowed: [std], selector: { matchLabels: { [`tier-${id}`]: 'gold' } }, default: std },
    nodeSelector: { [poolLabel]: 'oil' },
  }));
  const c = await waitResolvedRefs(notFound(missingStorage, missingPriority, missingHigh, missingNode));
  expect(c.ResolvedRefs).toMatchObject({ status: 'False', reason: 'NotFound' });
  expect(c.Ready).toMatchObject({ status: 'True', reason: 'Reconciled' });
  // What the condition explains: kube-apiserver refuses the tenant's pods for the defaulted priority class
  // (once it has loaded the tenant's defaults from its own informers).
  let pod = { code: 0, stdout: '', stderr: '' };
  await waitFor('the pod refused for its defaulted priority class', async () => {
    pod = await kubectl('alice', ['run', 'web', '-n', ns, '--image=registry.example.com/web:1', '--dry-run=server']);
    return pod.stderr.includes(`no PriorityClass with name ${low} was found`);
  }, 30_000, 250).catch((err) => {
    throw new Error(`${(err as Error).message}; last answer: ${pod.code} ${pod.stderr}`);
  });
  expect(pod.code).not.toBe(0);
  // kubectl get tenants -o wide shows it.
  const wide = await kubectl('admin', ['get', 'tenant', name, '-o', 'wide']);
  const [header, row] = wide.stdout.split('\n');
  const cell = (column: string) => row!.slice(header!.indexOf(column)).split(/\s+/)[0];
  expect(row!.startsWith(`${name} `)).toBe(true);
  expect(cell('RESOLVEDREFS')).toBe('False');
});

test('each class that appears leaves the message, the node last: then ResolvedRefs=True', async () => {
  await applyObject(priorityClass(low));
  await waitResolvedRefs(notFound(missingStorage, missingHigh, missingNode));
  await applyObject(priorityClass(high));
  await applyObject(storageClass(std));
  await waitResolvedRefs(notFound(missingNode));
  // A node appears without the label, then gets it: the selector resolves.
  await applyObject(nodeObject({ 'kubernetes.io/os': 'linux' }));
  expect((await kubectl('admin', ['label', 'node', node, `${poolLabel}=oil`])).code).toBe(0);
  const c = await waitResolvedRefs('every class and node selector the tenant names exists');
  expect(c.ResolvedRefs).toMatchObject({ status: 'True', reason: 'ResolvedRefs' });
  const pod = await kubectl('alice', ['run', 'web', '-n', ns, '--image=registry.example.com/web:1', '--dry-run=server', '-o', 'jsonpath={.spec.priorityClassName}']);
  expect(pod.stderr).toBe('');
  expect(pod.stdout).toBe(low);
});

test('a class or node that goes comes back into the message', async () => {
  expect((await kubectl('admin', ['label', 'node', node, `${poolLabel}-`])).code).toBe(0);
  await waitResolvedRefs(notFound(missingNode));
  expect((await kubectl('admin', ['delete', 'priorityclass', high])).code).toBe(0);
  const c = await waitResolvedRefs(notFound(missingHigh, missingNode));
  expect(c.Ready).toMatchObject({ status: 'True' });
});
