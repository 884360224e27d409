import { single } from './query';

/** The query parameters of a get (metav1.GetOptions). */
export interface GetOptions {
  /** "Not older than": the row as of a state at least this new (kube's get with a resourceVersion). */
  resourceVersion?: string;
}

/** Reads a get's query as kube-apiserver does: `resourceVersion`, "" and "0" meaning any state. */
export function parseGetOptions(q: URLSearchParams): GetOptions {
  const rv = single(q, 'resourceVersion');
  return rv && rv !== '0' ? { resourceVersion: rv } : {};
}
