import { refused } from './admission-answers';
import { kubectl } from './env';
import { container, createImageTenant, deleteImageTenant, dryRunPod, pod, type ImageTenant } from './image-tenant';

jest.setTimeout(180_000);

/**
 * Every field of a Pod that makes the node pull an image is checked against the tenant's registries:
 * containers, initContainers, ephemeralContainers (also through pods/ephemeralcontainers) and image
 * volumes (volumes[].image.reference); on an update, what the update brings that the pod did not have.
 * As alice, through real kubectl and kube-apiserver (no kubelet: pods stay Pending).
 */
let t: ImageTenant;
const ALLOWED = 'registry.example.com/team/app:2';
const imageVolume = (reference: string, name = 'v') => ({ name, image: { reference } });
const mounted = (image: string) => ({ ...container(image), volumeMounts: [{ name: 'v', mountPath: '/data' }] });

beforeAll(async () => {
  t = await createImageTenant('imgf', ['registry.example.com', 'ghcr.io/oil-org']);
});

afterAll(async () => {
  if (t) await deleteImageTenant(t);
});

describe('an image volume (volumes[].image.reference)', () => {
  it('from a registry not allowed is refused, though every container image is allowed', async () => {
    const res = await dryRunPod(t, pod([mounted(ALLOWED)], { volumes: [imageVolume('evil.io/payload:latest')] }));
    refused(res, 'image evil.io/payload:latest is not from an allowed registry');
  });

  it('that the parser refuses is refused as not a valid reference', async () => {
    refused(await dryRunPod(t, pod([mounted(ALLOWED)], { volumes: [imageVolume('ghcr.io/oil-org/')] })), 'image ghcr.io/oil-org/ is not a valid image reference');
  });

  it('named by an upper-case host is refused', async () => {
    refused(await dryRunPod(t, pod([mounted(ALLOWED)], { volumes: [imageVolume('EVILHOST/registry.example.com')] })), 'image EVILHOST/registry.example.com is not from an allowed registry');
  });

  it('from an allowed registry is accepted, next to a volume of another kind', async () => {
    const res = await dryRunPod(t, pod([mounted(ALLOWED)], { volumes: [imageVolume('ghcr.io/oil-org/data:1'), { name: 'tmp', emptyDir: {} }] }));
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });
});

describe('containers and init containers', () => {
  it('refuse an upper-case first component, read as a host', async () => {
    refused(await dryRunPod(t, pod([container(ALLOWED)], { initContainers: [container('Internal-Registry/team/app', 'init')] })), 'image Internal-Registry/team/app');
    refused(await dryRunPod(t, pod([container('Localhost/x')])), 'image Localhost/x');
  });

  it('name every refused image of the pod, whichever field it is in', async () => {
    const res = await dryRunPod(t, pod([container('quay.io/a/b')], { initContainers: [container('quay.io/c/d', 'init')], volumes: [imageVolume('quay.io/e/f')] }));
    refused(res, 'image quay.io/a/b, quay.io/c/d, quay.io/e/f is not from an allowed registry');
  });
});

describe('within kube-apiserver\'s CEL cost budget', () => {
  // Between 150 and 175 such images the policy's match condition, where the checks of an admitted pod run,
  // exceeds kube-apiserver's cost limit for one expression, and kube-apiserver refuses the pod.
  it('a pod of 100 containers, each image at the longest path, tag and digest the parser takes, is accepted', async () => {
    const longest = (i: number) => `registry.example.com/${String(i).padStart(3, '0')}${'a'.repeat(252)}:${'t'.repeat(128)}@sha512:${'f'.repeat(128)}`;
    const res = await dryRunPod(t, pod(Array.from({ length: 100 }, (_, i) => container(longest(i), `c${i}`))));
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });
});

describe('updates of a stored pod', () => {
  const podName = 'stored';
  beforeAll(async () => {
    const obj = pod([mounted(ALLOWED)], { initContainers: [container(ALLOWED, 'init')], volumes: [imageVolume('ghcr.io/oil-org/data:1')] }, podName);
    const res = await kubectl('alice', ['create', '-n', t.ns, '-f', '-'], JSON.stringify(obj));
    if (res.code !== 0) throw new Error(res.stderr);
  });

  const patchPod = (patch: unknown, subresource?: string) =>
    kubectl(subresource ? 'admin' : 'alice', ['patch', 'pod', podName, '-n', t.ns, '--type=strategic', '-p', JSON.stringify(patch), ...(subresource ? [`--subresource=${subresource}`] : [])]);

  it('that brings no new image pass: the image volume counts as the pod\'s own', async () => {
    const res = await kubectl('alice', ['label', 'pod', podName, '-n', t.ns, 'touched=yes']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  it('that set a container or init container image not allowed are refused', async () => {
    refused(await patchPod({ spec: { containers: [{ name: 'c', image: 'EVILHOST/x' }] } }), 'image EVILHOST/x is not from an allowed registry');
    refused(await patchPod({ spec: { initContainers: [{ name: 'init', image: 'docker.io/nginx' }] } }), 'image docker.io/nginx is not from an allowed registry');
  });

  it('that set an invalid image are refused as such', async () => {
    refused(await patchPod({ spec: { containers: [{ name: 'c', image: 'registry.example.com/Team/app' }] } }), 'image registry.example.com/Team/app is not a valid image reference');
  });

  it('that set another allowed image pass', async () => {
    const res = await patchPod({ spec: { containers: [{ name: 'c', image: 'ghcr.io/oil-org/app@sha256:' + 'a'.repeat(64) }] } });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
  });

  // Tenant roles do not grant pods/ephemeralcontainers: the cluster admin adds one, and the tenant's
  // policy holds for everyone in the namespace.
  it('that add an ephemeral container through pods/ephemeralcontainers are checked', async () => {
    const ephemeral = (name: string, image: string) => ({ spec: { ephemeralContainers: [{ name, image, terminationMessagePolicy: 'File' }] } });
    refused(await patchPod(ephemeral('debug-upper', 'GHCR.IO/oil-org/debug'), 'ephemeralcontainers'), 'image GHCR.IO/oil-org/debug is not from an allowed registry');
    const ok = await patchPod(ephemeral('debug', 'ghcr.io/oil-org/debug:1'), 'ephemeralcontainers');
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
  });
});
