import type { PaddockCache } from '../../../cache/paddock-cache';
import type { SharedInformer } from '../../../cache/informer';
import type { KubeObject, Tenant } from '../../../kube/types';
import type { TableConvertor } from '../../registration/served-resource';

/** What one read-only view of SPEC §9 is: its names, source, who may use a source object, how it prints. */
export interface ViewDefinition {
  kind: string;
  resource: string;
  shortName: string;
  /** The source kind (for `kubectl explain` and for the cluster-wide list that shows every row). */
  source: { group: string; resource: string; kind: string; apiVersion: string };
  informer(cache: PaddockCache): SharedInformer<KubeObject>;
  mayUse(tenant: Tenant, obj: KubeObject): boolean;
  relevant(tenant: Tenant): unknown;
  /** A source object may be used by the tenant of the same name alone (see Projection.sameNameOnly). */
  sameNameOnly?: boolean;
  /**
   * The spec and status served under the view's kind, when not the source's own fields (by default,
   * everything but apiVersion, kind and metadata).
   */
  body?(obj: KubeObject): { spec: unknown; status: unknown };
  table: TableConvertor<KubeObject>;
  description: string;
  /** Top-level body fields for `kubectl explain`: name → [type, description]. */
  fields: Record<string, [string, string]>;
}
