import type { KubeObject, Status } from '../../kube/types';
import type { TableColumnDefinition } from '../table/columns';
import type { DeleteOptions } from '../request/delete-options';
import type { Viewer } from '../storage/viewer';
import type { RowStorage } from '../storage/row-storage';
import type { SelectableFields } from '../storage/select';

/** The names of a served resource (SPEC §1, §9), as discovery, OpenAPI, Status messages and Tables use them. */
export interface ResourceNames {
  readonly group: string;
  readonly version: string;
  /** `tenancy.paddock.dev/v1alpha1` */
  readonly groupVersion: string;
  readonly resource: string;
  readonly singular: string;
  readonly kind: string;
  readonly listKind: string;
  readonly shortNames: readonly string[];
  readonly categories: readonly string[];
  readonly namespaced: false;
  /** Sorted, as kube-apiserver lists verbs in discovery: exactly the verbs that work. */
  readonly verbs: readonly string[];
}

/** How a resource's rows are printed in a meta.k8s.io Table (`kubectl get`, `-o wide`). */
export interface TableConvertor<T> {
  readonly columns: readonly TableColumnDefinition[];
  cells(row: T, now: Date): unknown[];
}

/** An OpenAPI schema of the kind, per flavor, with the definitions it references. */
export type SchemaSet = (flavor: 'v2' | 'v3') => Record<string, Record<string, unknown>>;

/**
 * One resource this server serves — its names, its rows, how they print, which fields select them, its
 * schema and, for writable resources, its create and delete. Discovery, OpenAPI, metrics and the one
 * request path (authn → authz → limits → negotiation → list/get/watch/Table/PartialObjectMetadata) are
 * all driven from this registration; nothing else knows a resource by name.
 */
export interface ServedResource<T extends KubeObject = KubeObject> {
  readonly names: ResourceNames;
  /** Its rows, as the request path reads them. */
  readonly storage: RowStorage<T>;
  readonly table: TableConvertor<T>;
  readonly fields: SelectableFields<T>;
  /** The kind a caller may `list` cluster-wide to see every row (kube's own answer, by SubjectAccessReview). */
  readonly seesAllWith: { group: string; resource: string };
  /** OpenAPI definition names: the kind's and its list's. */
  readonly definitions: { kind: string; list: string };
  readonly schemas: SchemaSet;
  create?(viewer: Viewer, body: unknown, dryRun: boolean, strict: boolean): Promise<T>;
  delete?(viewer: Viewer, name: string, options: DeleteOptions): Promise<Status>;
}

/**
 * Any registration, whatever its row type: what the server, discovery and OpenAPI hold in one list
 * (each resource's own code keeps its precise type).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServedResource = ServedResource<any>;

export type { SelectableFields } from '../storage/select';
export type { Viewer } from '../storage/viewer';
