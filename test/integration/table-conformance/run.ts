/**
 * Runs one corpus through the harness: creates its source objects in the real control plane, waits until
 * Paddock's view shows each of them as its source is (its cache has caught up), then compares.
 */
import { applyObject, kubectl, sleep } from '../env';
import type { TableCorpus } from './corpus';
import { Comparison, INCLUDE_OBJECT, lists, META_VERSIONS, report, type Mismatch } from './harness';

/** The label every source object of a run carries, so that the harness picks the corpus's rows alone. */
export const CORPUS_LABEL = 'conformance.paddock.dev/run';

export interface CorpusRun {
  id: string;
  selector: string;
  /** How many source objects the selector picks: the corpus's objects, or at least one for a selector of its own. */
  rows: number | 'some';
  /** Deletes the corpus's objects. */
  cleanup(): Promise<void>;
}

/** Creates the corpus's objects (as admin) and writes their status; waits until they are settled. */
export async function createCorpus(corpus: TableCorpus, id: string): Promise<CorpusRun> {
  const labels = { [CORPUS_LABEL]: id };
  const objects = corpus.objects(id, labels);
  for (const o of objects) await applyObject(o);
  for (const [name, status] of Object.entries(corpus.statuses?.(id) ?? {})) {
    const kind = objects.find((o) => o.metadata.name === name)!.kind as string;
    const res = await kubectl('admin', ['patch', kind.toLowerCase(), name, '--subresource=status', '--type=merge', '-p', JSON.stringify({ status })]);
    if (res.code !== 0) throw new Error(`status of ${kind} ${name}: ${res.stderr}`);
  }
  await corpus.settled?.(id);
  const cleanup = corpus.cleanup
    ? () => corpus.cleanup!(id)
    : async () => void (await kubectl('admin', ['delete', '-f', '-', '--wait=false'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects })));
  const selector = corpus.selector?.(id, labels);
  return { id, selector: selector ?? `${CORPUS_LABEL}=${id}`, rows: selector ? 'some' : objects.length, cleanup };
}

/**
 * The view's objects against the source's, by name: the same names, each view object its source's
 * projection. The source must hold the corpus (a selector that picks nothing would compare nothing).
 */
async function objectMismatches(corpus: TableCorpus, run: CorpusRun): Promise<Mismatch[]> {
  const { view, source } = await lists(corpus, run.selector);
  if (run.rows === 'some' ? source.length === 0 : source.length !== run.rows) {
    throw new Error(`${corpus.source}?labelSelector=${run.selector} lists ${source.length} objects, the corpus has ${run.rows}`);
  }
  const comparison = new Comparison(corpus, run.selector);
  const names = (items: any[]) => items.map((o) => o.metadata.name);
  if (JSON.stringify(names(view)) !== JSON.stringify(names(source))) {
    return [{ view: corpus.view, where: 'list: names', paddock: names(view), kube: names(source) }];
  }
  view.forEach((v, i) => comparison.objectBody('list item', v, source[i], v.metadata.name));
  return comparison.mismatches;
}

let touches = 0;

/** Every comparison of one round: each Table version × includeObject, and kubectl's text plain and wide. */
async function tableMismatches(corpus: TableCorpus, selector: string): Promise<Mismatch[]> {
  const comparison = new Comparison(corpus, selector);
  for (const version of META_VERSIONS) {
    for (const includeObject of INCLUDE_OBJECT) await comparison.tables(version, includeObject);
    await comparison.watchRows(version);
    await comparison.watchModified(version, ++touches);
  }
  await comparison.kubectlOutput(false);
  await comparison.kubectlOutput(true);
  return comparison.mismatches;
}

/**
 * The mismatches left once Paddock has caught up, or those of the last round within `timeoutMs`: a
 * source that moves while it is read (a node marked NotReady by kube-controller-manager) is read again,
 * a printer that differs differs every time.
 */
export async function conformance(corpus: TableCorpus, run: CorpusRun, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const objects = await objectMismatches(corpus, run);
    const mismatches = objects.some((m) => m.where === 'list: names') ? objects : [...objects, ...(await tableMismatches(corpus, run.selector))];
    if (mismatches.length === 0) return '';
    if (Date.now() > deadline) return report(mismatches);
    await sleep(500);
  }
}
