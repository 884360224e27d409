import type { KubeObject } from '../kube/types';

/**
 * Whether any cached node carries every label of a nodeSelector, remembered per selector: a scan of
 * every node for each Tenant at each reconcile would cost milliseconds per Tenant at thousands of nodes.
 * Invariant: `clear()` is called whenever a node appears, goes or changes labels (controller.ts), so a
 * remembered answer is the one a scan of the cache would give now. At most one entry per distinct
 * selector among the Tenants.
 */
export class NodeSelectorMatches {
  readonly #memo = new Map<string, boolean>();

  constructor(private readonly nodes: () => readonly KubeObject[]) {}

  matches(selector: Readonly<Record<string, string>>): boolean {
    const entries = Object.entries(selector).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const key = JSON.stringify(entries);
    let found = this.#memo.get(key);
    if (found === undefined) {
      found = this.nodes().some((n) => {
        const labels = n.metadata.labels ?? {};
        return entries.every(([k, v]) => labels[k] === v);
      });
      this.#memo.set(key, found);
    }
    return found;
  }

  clear(): void {
    this.#memo.clear();
  }
}
