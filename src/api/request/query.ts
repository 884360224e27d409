/**
 * A query parameter's value as kube-apiserver reads a repeated one into its options: the first given
 * (apimachinery's Convert_Slice_string_To_string and its siblings take `values[0]`).
 */
export function single(q: URLSearchParams, name: string): string | undefined {
  return q.get(name) ?? undefined;
}
