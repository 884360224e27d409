import type { HistoryEntry, SourceAt, SourceHistory, SourcePosition } from '../../cache/history';
import type { KubeObject } from '../../kube/types';
import { resourceVersionWaits } from '../../metrics/api';
import { rowChange } from './row-change';
import { Change, ChangeFeed, type Restamp, type RowState } from './change';
import { decodeVersion, EARLIER_FORMAT, encodeVersion } from './version-codec';
import { ResourceVersionSeal } from './version-seal';

/**
 * A row as a view computes it from its sources: its content (not yet stamped) and who may see it. Two
 * computations differ when their content does (sameContent: their JSON apart from the resourceVersion)
 * or their audience does.
 */
export type ComputedRow<T> = RowState<T>;

/** The sources of a view, each read at one position. */
export type SourcesAt = readonly SourceAt<KubeObject>[];

/** How a view's rows are joined from its sources: the one definition both live changes and replays use. */
export interface RowJoin<T> {
  /** The rows that change `entry` of source `source` may change (read before it is applied). */
  affected(source: number, entry: HistoryEntry<KubeObject>, at: SourcesAt): Iterable<string>;
  /** The row `name` as the sources at `at` make it, or undefined when there is none. */
  rowAt(name: string, at: SourcesAt): ComputedRow<T> | undefined;
}

/**
 * The most rows a replay computes (each affected row, before and after each source change) before it
 * gives up and answers 410 Expired: a resume costs at most about this much CPU, a relist costs what the
 * caller can see. A client that was away for a few seconds needs a few hundred.
 */
export const REPLAY_BUDGET = 20_000;

/**
 * The most replays kept at once, each for its own resourceVersion: the clients of two replicas that went
 * away, or a list continued past its snapshot beside resuming watches, resume from a few
 * resourceVersions at once, and each group shares its replay. Beyond it the one cheapest to make again
 * is dropped (the least recently used of those), so the resumes every watch restart makes (an empty
 * replay from a recent resourceVersion) never push out a group's long one. Each cost at most
 * REPLAY_BUDGET to make, so their changes are bounded by this many budgets (and each change's
 * encodings by the forms of events there are).
 */
export const REPLAYS_KEPT = 4;

/**
 * The most resourceVersions remembered as too costly to replay: each is answered 410 Expired at once,
 * not by spending the budget again (a group of clients resuming from one would each pay it).
 */
const TOO_COSTLY_KEPT = 16;

/** How long a request waits for a resourceVersion this replica has not reached (kube-apiserver's watch cache: 3 s). */
export const RESOURCE_VERSION_WAIT_MS = 3000;

/**
 * The most requests (lists and watches together) that wait for a resourceVersion at once: beyond it a
 * request is answered at once, as if the wait had run out (504 "Too large resource version", retried by
 * clients). Waiting holds no in-flight slot, so this bounds what a flood of them can cost.
 */
export const MAX_RESOURCE_VERSION_WAITS = 1000;

/**
 * Where a client's resourceVersion stands on this replica: the positions of the sources, and — for the
 * resourceVersion of a change — which of the rows the last change of source `step` touched the client
 * already has (those named up to `row`, in name order; the others it has as they were before it); and
 * whether those positions are the current ones (a list with resourceVersionMatch=Exact is served only then).
 */
export type Located = (Read & { positions: number[]; current: boolean }) | 'invalid' | 'expired' | 'ahead';

/** A replay kept for its resourceVersion: the sources' heads and positions when it was made (where it ends), its changes and what they cost. */
interface KeptReplay<T extends KubeObject> {
  heads: readonly number[];
  ends: readonly SourcePosition[];
  changes: readonly Change<T>[];
  cost: number;
}

/** A client's resourceVersion as read: each source's position, and the mark of a change's resourceVersion. */
interface Read {
  client: SourcePosition[];
  step?: { source: number; row: string };
}

/**
 * The changes of a view, numbered by the positions of its sources (see resource-version.ts), so that a
 * resourceVersion from any replica — or from this one before a restart — resumes here. Every
 * resourceVersion given out is sealed (version-seal.ts): a client reads nothing in it, not even of the
 * objects it may see, and can hand back only one a replica gave out.
 *
 * Live changes are appended by the view as its sources' events arrive and go to the subscribers at
 * once. A resume does not replay this replica's own sequence of changes (another replica received the
 * sources' events in another interleaving and passed through other states): it replays the sources'
 * recorded changes after the client's positions through the view's join, in revision order, from the
 * exact state the client saw — so the events are the same on every replica that retains them (but for a
 * replay extended from an earlier one, whose changes of different sources may come in another order: it
 * takes the client to the same rows, each change naming the state after it).
 *
 * Invariants: every change's resourceVersion names the exact state of all sources after it; `since(rv)`
 * returns the changes that take the rows of state `rv` to the rows now, each judged by the states before
 * and after it; subscribers get each live change synchronously inside `append`.
 */
export class ChangeLog<T extends KubeObject> extends ChangeFeed<T> {
  /** Requests waiting in whenReached. */
  #waits = 0;
  /**
   * The replays kept (at most REPLAYS_KEPT, by resourceVersion, in the order they were last used; see
   * #keep for which one goes), each with where it ends: the sources' heads (and their positions) when it was made. A replay depends only
   * on the resourceVersion and the sources, never on who asks, so the watches that resume together from
   * one resourceVersion (every client of a replica that went away, told its last one by a bookmark; the
   * pages of one list) share it, and each event's bytes with it (Change.encoded). When the sources have
   * moved since, the next resume from the same resourceVersion extends it with the replay from where it
   * ended (see since), so resumes spread over a busy minute do not each replay the whole of it again.
   */
  readonly #replays = new Map<string, KeptReplay<T>>();
  /**
   * The resourceVersions whose replay went past REPLAY_BUDGET (at most TOO_COSTLY_KEPT, the oldest
   * forgotten first). A replay only grows as the sources move on, so the answer stays 410: telling a
   * client to relist is always a correct answer, and here the cheaper one.
   */
  readonly #tooCostly = new Set<string>();

  constructor(
    readonly sources: readonly SourceHistory<KubeObject>[],
    readonly join: RowJoin<T>,
    readonly restamp: Restamp<T>,
    readonly seal: ResourceVersionSeal,
  ) {
    super();
  }

  /** The resourceVersion of the view as of now. */
  get resourceVersion(): string {
    return this.seal.seal(encodeVersion(this.sources.map((s) => s.position)));
  }

  /**
   * The resourceVersion of the change to row `name` made by the latest change of source `source`. One
   * source change can change many rows (a Tenant's owners: all its namespaces), each sent as an event of
   * its own, in name order; each carries the sources' positions and its own row, so that a client cut
   * off after any of them resumes with exactly the rest.
   */
  versionOf(source: number, name: string): string {
    return this.#versionOf(this.sources.map((s) => s.position), source, name);
  }

  #versionOf(positions: readonly SourcePosition[], source: number, name: string): string {
    return this.seal.seal(encodeVersion(positions, { source, row: name }));
  }

  /**
   * Records that a row went from `before` (undefined: it did not exist) to `after` (undefined: it is
   * gone) through the latest change of source `source`, as change `version` (what `versionOf` gives for
   * that source and row now; a row it made carries it). Within one source change, rows are appended in
   * name order. `audienceOnly`: only who may see the row changed, and `after` holds the object of
   * `before` (see Change).
   */
  append(version: string, before: RowState<T> | undefined, after: RowState<T> | undefined, audienceOnly = false): Change<T> {
    // A replay that can no longer be extended (the sources have forgotten where it ends) is not kept.
    for (const [rv, kept] of this.#replays) if (!this.#retained(kept.heads)) this.#replays.delete(rv);
    return this.publish(new Change(version, before, after, this.restamp, audienceOnly));
  }

  /**
   * Places a client's resourceVersion: the retained position of each source; 'ahead' when some source
   * has not reached it yet here; 'expired' when its state is no longer retained (or never was: another
   * kind of resourceVersion); 'invalid' when it is not a resourceVersion at all.
   */
  locate(rv: string): Located {
    const read = this.#read(rv);
    return typeof read === 'string' ? read : this.#place(read);
  }

  /** Where a resourceVersion already read stands here (see locate). */
  #place({ client, step }: Read): Located {
    let ahead = false;
    const positions: number[] = [];
    for (const [i, source] of this.sources.entries()) {
      const seq = source.locate(client[i].fingerprint, client[i].rev);
      if (seq !== undefined) positions.push(seq);
      else if (client[i].rev > source.rev) ahead = true;
      else return 'expired';
    }
    if (ahead) return 'ahead';
    // A change's mark needs the state before that source's change as well.
    if (step && !this.sources[step.source].retains(positions[step.source] - 1)) return 'expired';
    return { positions, client, step, current: positions.every((seq, i) => seq === this.sources[i].head) };
  }

  /** What a client's resourceVersion says, once it is opened; or why it says nothing here. */
  #read(rv: string): Read | 'invalid' | 'expired' {
    // kube-apiserver's, or an earlier version's integer or readable positions: the client relists once.
    if (/^\d{1,20}$/.test(rv) || EARLIER_FORMAT.test(rv)) return 'expired';
    if (!ResourceVersionSeal.isSealedShape(rv)) return 'invalid';
    // Not sealed by a replica (altered, or with a key no longer held), or another view's: never replayed.
    const plain = this.seal.open(rv);
    const body = plain && decodeVersion(plain, this.sources.length);
    if (!body || body === 'foreign') return 'expired';
    return { client: [...body.positions], step: body.mark };
  }

  /**
   * The changes after `rv`, in order, or why there are none to give. Shared: never modified by a caller.
   * A replay made earlier from the same `rv` is given again while the sources have not moved, and
   * extended by the replay from where it ended when they have: the changes from state `rv` to the state it
   * ended at, then those from there to now (each with the positions after it, so a client cut off
   * anywhere resumes from exactly there, here or on another replica).
   */
  since(rv: string): readonly Change<T>[] | Exclude<Located, object> {
    const located = this.locate(rv);
    const last = this.#replays.get(rv);
    // Taken out, and put back as the most recently used when it is still good.
    this.#replays.delete(rv);
    if (typeof located === 'string') {
      this.#tooCostly.delete(rv);
      return located;
    }
    if (this.#tooCostly.has(rv)) return 'expired';
    const heads = this.sources.map((s) => s.head);
    if (last && last.heads.every((head, i) => head === heads[i])) return this.#keep(rv, last).changes;
    // What the replay starts from: the last one's end when the sources still retain it, else `rv`.
    const base = last && this.#retained(last.heads) ? last : undefined;
    const from: Exclude<Located, string> = base ? { positions: [...base.heads], client: [...base.ends], current: false } : located;
    const spent = base?.cost ?? 0;
    const made = this.#replay(from, REPLAY_BUDGET - spent);
    if (made === 'expired') {
      this.#tooCostly.add(rv);
      for (const oldest of this.#tooCostly) {
        if (this.#tooCostly.size <= TOO_COSTLY_KEPT) break;
        this.#tooCostly.delete(oldest);
      }
      return made;
    }
    const changes = base ? [...base.changes, ...made.changes] : made.changes;
    return this.#keep(rv, { heads, ends: this.sources.map((s) => s.position), changes, cost: spent + made.cost }).changes;
  }

  /**
   * Keeps `replay` as the most recently used; beyond REPLAYS_KEPT, drops the one cheapest to make again
   * (of those alike, the least recently used; `replay` itself only when it is cheaper than every other).
   */
  #keep(rv: string, replay: KeptReplay<T>): KeptReplay<T> {
    this.#replays.set(rv, replay);
    if (this.#replays.size > REPLAYS_KEPT) {
      let cheapest: [string, KeptReplay<T>] | undefined;
      for (const entry of this.#replays) if (!cheapest || entry[1].cost < cheapest[1].cost) cheapest = entry;
      this.#replays.delete(cheapest![0]);
    }
    return replay;
  }

  /** Whether every source still retains its position `heads[i]`. */
  #retained(heads: readonly number[]): boolean {
    return heads.every((head, i) => this.sources[i].retains(head));
  }

  /** The row `name` in the state `rv` names, undefined when there was none, or why that state cannot be read here. */
  rowAt(rv: string, name: string): ComputedRow<T> | undefined | Exclude<Located, object> {
    const located = this.locate(rv);
    if (typeof located === 'string') return located;
    return this.join.rowAt(name, this.sources.map((s, i) => s.at(located.positions[i])));
  }

  /**
   * Resolves once `rv` is no longer ahead of this replica, after `timeoutMs`, or when `signal` aborts (the
   * client went away) — at once when it is not ahead, or when MAX_RESOURCE_VERSION_WAITS requests already
   * wait (the caller then answers as for a resourceVersion never reached). A waiting request costs each
   * event of a source it waits for a lookup or two: the resourceVersion is read and verified once.
   */
  whenReached(rv: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
    const read = this.#read(rv);
    if (this.#waits >= MAX_RESOURCE_VERSION_WAITS || signal?.aborted || typeof read === 'string' || this.#place(read) !== 'ahead') return Promise.resolve();
    const { client } = read;
    // A source is reached once it holds the client's state, or has passed the revision the client had.
    const reached = (i: number) => this.sources[i].rev >= client[i].rev || this.sources[i].locate(client[i].fingerprint, client[i].rev) !== undefined;
    const behind = this.sources.map((_, i) => i).filter((i) => !reached(i));
    this.#waits++;
    resourceVersionWaits.inc();
    return new Promise((resolve) => {
      let settled = false;
      const done = (): void => {
        if (settled) return;
        settled = true;
        this.#waits--;
        resourceVersionWaits.dec();
        clearTimeout(timer);
        for (const off of offs) off();
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      const offs = behind.map((i) => this.sources[i].onAdvance(() => behind.every(reached) && done()));
      // A client that went away frees its place at once.
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** The changes from the state `located` names to now, and what they cost of the budget; 'expired' past `budget`. */
  #replay({ positions, client, step }: Exclude<Located, string>, budget: number): { changes: Change<T>[]; cost: number } | 'expired' {
    const allowed = budget;
    // A change's resourceVersion: start before that source's change, and replay it for the rows after the mark.
    const start = positions.map((seq, i) => (step?.source === i ? seq - 1 : seq));
    const at = this.sources.map((s, i) => s.at(start[i]));
    const steps = this.sources.flatMap((s, i) => s.entriesAfter(positions[i]).map((entry) => ({ i, entry, after: '' })));
    // Revision order across sources (each source's own order is kept: its revisions never decrease).
    steps.sort((a, b) => a.entry.rev - b.entry.rev || a.i - b.i || a.entry.seq - b.entry.seq);
    if (step) steps.unshift({ i: step.source, entry: this.sources[step.source].entriesAfter(start[step.source])[0], after: step.row });
    const current: SourcePosition[] = [...client];
    const changes: Change<T>[] = [];
    for (const { i, entry, after: from } of steps) {
      // The rows it touches, in name order as live changes are sent; those up to the mark the client has.
      const names = [...new Set(this.join.affected(i, entry, at))].sort().filter((name) => name > from);
      if ((budget -= 2 * names.length + 1) < 0) return 'expired';
      const before = names.map((name) => this.join.rowAt(name, at));
      at[i].advance(entry);
      current[i] = { rev: entry.rev, fingerprint: entry.fingerprint };
      const positionsAfter = [...current];
      names.forEach((name, k) => {
        const b = before[k];
        const a = this.join.rowAt(name, at);
        if (!a && !b) return;
        // Judged as the live change was (rowChange): nothing, who may see it alone, or its content.
        const kind = a && b ? rowChange(b, a) : 'content';
        if (kind === 'none') return;
        const rv = this.#versionOf(positionsAfter, i, name);
        const after = a && { object: this.restamp(a.object, rv), audience: a.audience };
        changes.push(new Change(rv, b, after, this.restamp, kind === 'audience'));
      });
    }
    return { changes, cost: allowed - budget };
  }
}
