import type { Query } from '../kube/client';
import { apiVersionOf, groupResource, type ResourceRef, resourcePath } from '../kube/resources';
import type { KubeList, KubeObject, WatchEvent } from '../kube/types';

/** What a reflector needs to list and watch one collection; selectors are already bound in. */
export interface ListerWatcher<T extends KubeObject> {
  list(opts: { limit?: number; continue?: string; resourceVersion?: string }, signal: AbortSignal): Promise<KubeList<T>>;
  watch(opts: { resourceVersion: string; timeoutSeconds: number; allowWatchBookmarks: boolean }, signal: AbortSignal): AsyncIterable<WatchEvent<T>>;
}

/** The two calls of KubeClient a ListerWatcher uses. */
export interface ListWatchClient {
  list<T extends KubeObject>(path: string, query?: Query, signal?: AbortSignal): Promise<KubeList<T>>;
  watch<T>(path: string, query?: Query, signal?: AbortSignal): AsyncIterable<WatchEvent<T>>;
}

/** What a shared informer watches: a resource, optionally one namespace, optionally selectors. */
export interface ListWatchScope {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * A ListerWatcher for `ref` over REST. List items lack `apiVersion`/`kind` on the wire; they are filled in
 * from `ref` so cached objects look the same whether they came from a list or a watch.
 */
export function listWatchFor<T extends KubeObject>(client: ListWatchClient, ref: ResourceRef, scope: ListWatchScope = {}): ListerWatcher<T> {
  const path = resourcePath(ref, { namespace: scope.namespace });
  const selectors = { labelSelector: scope.labelSelector, fieldSelector: scope.fieldSelector };
  const apiVersion = apiVersionOf(ref);
  return {
    async list(opts, signal) {
      const list = await client.list<T>(path, { ...selectors, limit: opts.limit, continue: opts.continue, resourceVersion: opts.resourceVersion }, signal);
      const items = (list.items ?? []).map((item) => (item.kind && item.apiVersion ? item : { ...item, apiVersion, kind: ref.kind }));
      return { ...list, items };
    },
    watch(opts, signal) {
      return client.watch<T>(path, { ...selectors, ...opts }, signal);
    },
  };
}

/** A readable informer name for logs and metric labels: `namespaces`, `tenants.paddock.dev (ns=x,l=a=b)`. */
export function scopeName(ref: ResourceRef, scope: ListWatchScope = {}): string {
  const parts: string[] = [];
  if (scope.namespace) parts.push(`ns=${scope.namespace}`);
  if (scope.labelSelector) parts.push(`l=${scope.labelSelector}`);
  if (scope.fieldSelector) parts.push(`f=${scope.fieldSelector}`);
  return parts.length ? `${groupResource(ref)} (${parts.join(',')})` : groupResource(ref);
}
