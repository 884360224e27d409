/**
 * What the Table conformance harness needs to know about one view: where its rows and its source's rows
 * are listed, the source objects that reach every branch of kube-apiserver's printer for the source kind,
 * and how a view object relates to its source object. Adding a view to the harness is adding one of these.
 */
export interface TableCorpus {
  /** The view's resource under tenancy.paddock.dev/v1alpha1 (`tenantstorageclasses`). */
  view: string;
  /** The view's kind, as its objects carry it. */
  viewKind: string;
  /** The source kind's list path on kube-apiserver (`/apis/storage.k8s.io/v1/storageclasses`). */
  source: string;
  /** The branches of the source kind's printer the corpus reaches, one line each (printed by the test). */
  branches: readonly string[];
  /**
   * The source objects, every one carrying `labels` (the harness picks the corpus's rows with them),
   * created as admin in this order. `id` is unique to the run.
   */
  objects(id: string, labels: Record<string, string>): Record<string, any>[];
  /** Status written through each object's status subresource after it is created, by object name. */
  statuses?(id: string): Record<string, Record<string, unknown>>;
  /** Waits until the sources are in the state the corpus means (a reconciler has caught up with them). */
  settled?(id: string): Promise<unknown>;
  /** The label selector of the corpus's rows in both lists (default: the labels given to `objects`). */
  selector?(id: string, labels: Record<string, string>): string;
  /**
   * The view object for a source object, as served: its metadata and body (everything but apiVersion
   * and kind). Without it the view is not a projection of its source (its rows are compared by the
   * columns they share alone).
   */
  projection?(source: Record<string, any>): { metadata: Record<string, unknown>; body: Record<string, unknown> };
  /** Only the columns the view and the source share by name are compared (a view that prints more). */
  sharedColumnsOnly?: boolean;
  /** Deletes what `objects` created and anything it led to (default: the objects, as admin). */
  cleanup?(id: string): Promise<void>;
}

/**
 * The metadata every cluster-scoped view shows of its source (SPEC §9): name, uid, creation time,
 * labels, and the annotations that mark a cluster default.
 */
export function projectedMetadata(source: Record<string, any>): Record<string, unknown> {
  const m = source.metadata;
  const shown = ['storageclass.kubernetes.io/is-default-class', 'storageclass.beta.kubernetes.io/is-default-class', 'ingressclass.kubernetes.io/is-default-class'];
  const annotations = Object.fromEntries(Object.entries(m.annotations ?? {}).filter(([k]) => shown.includes(k)));
  return {
    name: m.name, uid: m.uid, creationTimestamp: m.creationTimestamp,
    ...(Object.keys(m.labels ?? {}).length ? { labels: m.labels } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
  };
}

/** The view object of a class or node: the source's metadata as projected, and its body as it is. */
export function sameBody(source: Record<string, any>): { metadata: Record<string, unknown>; body: Record<string, unknown> } {
  const { apiVersion: _v, kind: _k, metadata: _m, ...body } = source;
  return { metadata: projectedMetadata(source), body };
}
