/**
 * Views print exactly what kube-apiserver prints (issue 29). For each view, a corpus of source objects
 * built to reach every branch of kube-apiserver's printer for the source kind is created in the real
 * control plane; then, as admin, Paddock's Table of the view and kube-apiserver's Table of the source
 * objects are compared — column definitions (name, type, format, description, priority) and every cell —
 * for meta.k8s.io v1 and v1beta1 and includeObject None, Metadata and Object; the rows of a Table watch
 * against the list's; kubectl's printed text plain and with -o wide; and each view object's metadata and
 * body against its source object's. The branches each corpus reaches are listed in its module
 * (table-conformance/corpora/) and printed below.
 *
 * Adding a view is adding a corpus to CORPORA.
 */
import { uniqueName } from './env';
import type { TableCorpus } from './table-conformance/corpus';
import { DEVICE_CLASSES } from './table-conformance/corpora/device-classes';
import { GATEWAY_CLASSES } from './table-conformance/corpora/gateway-classes';
import { INGRESS_CLASSES } from './table-conformance/corpora/ingress-classes';
import { NAMESPACES } from './table-conformance/corpora/namespaces';
import { NODES } from './table-conformance/corpora/nodes';
import { PRIORITY_CLASSES } from './table-conformance/corpora/priority-classes';
import { RUNTIME_CLASSES } from './table-conformance/corpora/runtime-classes';
import { STORAGE_CLASSES } from './table-conformance/corpora/storage-classes';
import { TENANTS } from './table-conformance/corpora/tenants';
import { conformance, createCorpus, type CorpusRun } from './table-conformance/run';

jest.setTimeout(240_000);

const CORPORA: readonly TableCorpus[] = [STORAGE_CLASSES, INGRESS_CLASSES, PRIORITY_CLASSES, RUNTIME_CLASSES, GATEWAY_CLASSES, DEVICE_CLASSES, NODES, TENANTS, NAMESPACES];

const id = uniqueName('tc');
const runs = new Map<TableCorpus, CorpusRun>();

beforeAll(async () => {
  await Promise.all(CORPORA.map(async (corpus) => runs.set(corpus, await createCorpus(corpus, `${id}-${CORPORA.indexOf(corpus)}`))));
});

afterAll(async () => {
  await Promise.all([...runs.values()].map((run) => run.cleanup()));
});

describe.each(CORPORA.map((c) => [c.view, c] as const))('%s', (_view, corpus) => {
  it(`prints what kube-apiserver prints for its source, cell by cell, over the corpus:\n  - ${corpus.branches.join('\n  - ')}`, async () => {
    const run = runs.get(corpus)!;
    expect(await conformance(corpus, run)).toBe('');
  });
});
