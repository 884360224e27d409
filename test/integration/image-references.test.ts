import { buildRefcheck, parseWithGo, type ParsedReference } from '../clients/refcheck';
import { allowedBy } from '../images/registry-rule';
import { REFERENCES } from '../images/references';
import { container, createImageTenant, deleteImageTenant, dryRunPod, pod, refusedByPolicy, type ImageTenant } from './image-tenant';

jest.setTimeout(300_000);

/**
 * Image references as the tenant's admission policy reads them, against kubelet's own parser: for every
 * row of the reference table and each of three registry lists, a server-side dry-run Pod create as alice
 * (real kubectl, real kube-apiserver) is accepted exactly when the parser's name for the image is allowed,
 * and otherwise refused by the policy, as an invalid reference where the parser refuses the image and as
 * one from a registry not allowed where it does not.
 */
const LISTS: Record<string, string[]> = {
  // The tenant of the product's examples, with Docker Hub's official images and a local registry.
  examples: ['registry.example.com', 'ghcr.io/oil-org', 'docker.io/library', 'localhost:5000'],
  // All of Docker Hub: where a first component read as a namespace instead of a host would slip through.
  dockerHub: ['docker.io'],
  // Entries on the legacy Docker Hub host, localhost without a port, hosts that are IP address and port.
  others: ['index.docker.io/bitnami', 'localhost', '127.0.0.1:5000', 'my-registry:5000'],
};

let parsed: ParsedReference[];
const tenants: Record<string, ImageTenant> = {};

beforeAll(async () => {
  parsed = parseWithGo(buildRefcheck(), REFERENCES.map((r) => r.ref));
  const made = await Promise.all(Object.entries(LISTS).map(async ([key, allowed]) => [key, await createImageTenant('img', allowed)] as const));
  for (const [key, t] of made) tenants[key] = t;
});

afterAll(async () => {
  await Promise.all(Object.values(tenants).map(deleteImageTenant));
});

it('the reference table has at least 40 rows, and kubelet\'s parser agrees with every one', () => {
  expect(REFERENCES.length).toBeGreaterThanOrEqual(40);
  const disagreements = REFERENCES.filter((r, i) => (parsed[i].name ?? null) !== r.name)
    .map((r, i) => `${r.ref.slice(0, 80)}: table ${r.name}, parser ${parsed[i].name ?? parsed[i].error}`);
  expect(disagreements).toEqual([]);
});

/** Which of the policy's two image refusals `stderr` carries. */
function refusal(stderr: string): string {
  const invalid = stderr.includes('is not a valid image reference');
  const registry = stderr.includes('is not from an allowed registry');
  return invalid === registry ? `unclear: ${stderr.trim()}` : invalid ? 'invalid' : 'registry';
}

/** Runs `f` over `items`, at most `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]);
    }
  }));
  return out;
}

describe.each(Object.keys(LISTS))('a tenant allowing the %s list', (key) => {
  it('accepts exactly the images whose parsed name it allows, and refuses the rest by its policy', async () => {
    const t = tenants[key];
    const outcomes = await pooled(parsed, 6, async (p) => {
      const res = await dryRunPod(t, pod([container(p.ref)]));
      const expected = p.name === undefined ? 'refused: invalid' : allowedBy(p.name, t.allowed) ? 'accepted' : 'refused: registry';
      const got = res.code === 0 ? 'accepted' : refusedByPolicy(res) ? `refused: ${refusal(res.stderr)}` : `failed otherwise: ${res.stderr.trim()}`;
      return { ref: p.ref.length > 80 ? `${p.ref.slice(0, 80)}… (${p.ref.length})` : p.ref, name: p.name ?? `invalid (${p.error})`, expected, got };
    });
    expect(outcomes.filter((o) => o.got !== o.expected)).toEqual([]);
    // Both outcomes occur for every list: the comparison above is not vacuous.
    expect(new Set(outcomes.map((o) => o.got))).toEqual(new Set(['accepted', 'refused: invalid', 'refused: registry']));
  });
});
