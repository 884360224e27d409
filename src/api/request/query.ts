/** A query parameter's value as kube-apiserver reads a repeated one: the last given. */
export function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  return all.length ? all[all.length - 1] : undefined;
}
