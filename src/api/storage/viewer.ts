/** Who asks, as storage judges it: its name and groups, and whether it may see every row of the resource. */
export interface Viewer {
  name: string;
  groups: readonly string[];
  /** kube-apiserver lets it list the resource's source kind cluster-wide (SubjectAccessReview). */
  seesAll: boolean;
}
