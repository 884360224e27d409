/** A group and a resource, as in schema.GroupResource. The empty group is the core group. */
export interface GroupResource {
  group: string;
  resource: string;
}

/** A group and a kind, as in schema.GroupKind. */
export interface GroupKind {
  group: string;
  kind: string;
}
