import type { HistoryEntry, SourceAt, SourceHistory, SourcePosition } from '../../cache/history';
import type { KubeObject } from '../../kube/types';
import { sameAudience } from '../serving/rows';
import { Change, ChangeFeed, type Restamp, type RowState } from './changelog';
import { formatResourceVersion, parseResourceVersion } from './resource-version';

/** A row as a view computes it from its sources: its content (not yet stamped) and who may see it. */
export interface ComputedRow<T> extends RowState<T> {
  /** A hash of the row's JSON without its resourceVersion: whether two computations differ. */
  readonly fingerprint: string;
}

/** The sources of a view, each read at one position. */
export type SourcesAt = readonly SourceAt<KubeObject>[];

/** How a view's rows are joined from its sources: the one definition both live changes and replays use. */
export interface RowJoin<T> {
  /** The rows that change `entry` of source `source` may change (read before it is applied). */
  affected(source: number, entry: HistoryEntry<KubeObject>, at: SourcesAt): Iterable<string>;
  /** The row `name` as the sources at `at` make it, or undefined when there is none. */
  rowAt(name: string, at: SourcesAt): ComputedRow<T> | undefined;
}

/** Where a client's resourceVersion stands on this replica. */
export type Located = { positions: number[]; client: SourcePosition[] } | 'invalid' | 'expired' | 'ahead';

/**
 * The changes of a view, numbered by the positions of its sources (see resource-version.ts), so that a
 * resourceVersion from any replica — or from this one before a restart — resumes here.
 *
 * Live changes are appended by the view as its sources' events arrive and go to the subscribers at
 * once. A resume does not replay this replica's own sequence of changes (another replica received the
 * sources' events in another interleaving and passed through other states): it replays the sources'
 * recorded changes after the client's positions through the view's join, in revision order, from the
 * exact state the client saw — so the events are the same on every replica that retains them.
 *
 * Invariants: every change's resourceVersion names the exact state of all sources after it; `since(rv)`
 * returns the changes that take the rows of state `rv` to the rows now, each judged by the states before
 * and after it; subscribers get each live change synchronously inside `append`.
 */
export class ViewLog<T extends KubeObject> extends ChangeFeed<T> {
  constructor(
    readonly sources: readonly SourceHistory<KubeObject>[],
    readonly join: RowJoin<T>,
    readonly restamp: Restamp<T>,
  ) {
    super();
  }

  /** The resourceVersion of the view as of now. */
  get resourceVersion(): string {
    return formatResourceVersion(this.sources.map((s) => s.position));
  }

  /** Records that a row went from `before` (undefined: it did not exist) to `after` (undefined: it is gone). */
  append(before: RowState<T> | undefined, after: RowState<T> | undefined): Change<T> {
    return this.publish(new Change(this.resourceVersion, before, after, this.restamp));
  }

  /**
   * Places a client's resourceVersion: the retained position of each source; 'ahead' when some source
   * has not reached it yet here; 'expired' when its state is no longer retained (or never was: another
   * kind of resourceVersion); 'invalid' when it is not a resourceVersion at all.
   */
  locate(rv: string): Located {
    const parsed = parseResourceVersion(rv, this.sources.length);
    if (parsed === 'invalid') return 'invalid';
    if (parsed === 'foreign') return 'expired';
    let ahead = false;
    const positions: number[] = [];
    for (const [i, source] of this.sources.entries()) {
      const seq = source.locate(parsed[i].fingerprint);
      if (seq !== undefined) positions.push(seq);
      else if (parsed[i].rev > source.rev) ahead = true;
      else return 'expired';
    }
    return ahead ? 'ahead' : { positions, client: parsed };
  }

  /** The changes after `rv`, in order, or why there are none to give. */
  since(rv: string): Change<T>[] | Exclude<Located, object> {
    const located = this.locate(rv);
    return typeof located === 'string' ? located : this.#replay(located.positions, located.client);
  }

  /** The row `name` in the state `rv` names, undefined when there was none, or why that state cannot be read here. */
  rowAt(rv: string, name: string): ComputedRow<T> | undefined | Exclude<Located, object> {
    const located = this.locate(rv);
    if (typeof located === 'string') return located;
    return this.join.rowAt(name, this.sources.map((s, i) => s.at(located.positions[i])));
  }

  /** Resolves once `rv` is no longer ahead of this replica, or after `timeoutMs`. */
  whenReached(rv: string, timeoutMs: number): Promise<void> {
    if (this.locate(rv) !== 'ahead') return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        for (const off of offs) off();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const offs = this.sources.map((s) => s.onAdvance(() => this.locate(rv) !== 'ahead' && done()));
    });
  }

  #replay(positions: number[], client: SourcePosition[]): Change<T>[] {
    const at = this.sources.map((s, i) => s.at(positions[i]));
    const steps = this.sources.flatMap((s, i) => s.entriesAfter(positions[i]).map((entry) => ({ i, entry })));
    // Revision order across sources (each source's own order is kept: its revisions never decrease).
    steps.sort((a, b) => a.entry.rev - b.entry.rev || a.i - b.i || a.entry.seq - b.entry.seq);
    const current = [...client];
    const changes: Change<T>[] = [];
    for (const { i, entry } of steps) {
      const names = [...new Set(this.join.affected(i, entry, at))];
      const before = names.map((name) => this.join.rowAt(name, at));
      at[i].advance(entry);
      current[i] = { rev: entry.rev, fingerprint: entry.fingerprint };
      const rv = formatResourceVersion(current);
      names.forEach((name, k) => {
        const b = before[k];
        const a = this.join.rowAt(name, at);
        if (!a && !b) return;
        if (a && b && a.fingerprint === b.fingerprint && sameAudience(a.audience, b.audience)) return;
        const after = a && { object: this.restamp(a.object, rv), audience: a.audience };
        changes.push(new Change(rv, b, after, this.restamp));
      });
    }
    return changes;
  }
}
