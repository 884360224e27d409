/**
 * Kubernetes label selectors, as kube-apiserver reads the `labelSelector` query parameter
 * (apimachinery labels.Parse) and as controllers read a metav1.LabelSelector
 * (metav1.LabelSelectorAsSelector).
 *
 * Invariants: a LabelSelector is immutable; its requirements are sorted by key (stable, so requirements
 * on one key keep their source order), which makes `toString()` canonical — the same string
 * kube-apiserver would print for the same selector. The empty selector matches everything; the
 * "nothing" selector (from a null metav1.LabelSelector) matches no object.
 */

import { SelectorParseError } from './errors';
import { compareGoStrings, goQuote } from './go-format';
import { parseRequirements } from './label-parser';
import {
  newRequirement,
  requirementMatches,
  requirementToString,
  type LabelOperator,
  type LabelRequirement,
  type Labels,
} from './label-requirement';

export { SelectorParseError } from './errors';
export type { LabelRequirement, Labels } from './label-requirement';

export class LabelSelector {
  static readonly #everything = new LabelSelector([], false);
  static readonly #nothing = new LabelSelector([], true);

  /** The selector that matches every object (an empty selector string). */
  static everything(): LabelSelector {
    return LabelSelector.#everything;
  }

  /** The selector that matches no object (a null metav1.LabelSelector). */
  static nothing(): LabelSelector {
    return LabelSelector.#nothing;
  }

  readonly requirements: readonly LabelRequirement[];
  readonly #matchesNothing: boolean;

  private constructor(requirements: readonly LabelRequirement[], matchesNothing: boolean) {
    this.requirements = Object.freeze(
      [...requirements].sort((a, b) => compareGoStrings(a.key, b.key)).map((r) => Object.freeze({ ...r })),
    );
    this.#matchesNothing = matchesNothing;
  }

  /** @internal Builds a selector from already validated requirements. */
  static fromRequirements(requirements: readonly LabelRequirement[]): LabelSelector {
    return requirements.length === 0 ? LabelSelector.#everything : new LabelSelector(requirements, false);
  }

  /** Whether every requirement holds for `labels` (an object without labels is `undefined` or `{}`). */
  matches(labels: Labels): boolean {
    if (this.#matchesNothing) return false;
    return this.requirements.every((r) => requirementMatches(r, labels));
  }

  /** True when the selector does not restrict anything (it matches every object). */
  isEmpty(): boolean {
    return !this.#matchesNothing && this.requirements.length === 0;
  }

  /** True only for the "nothing" selector. */
  matchesNothing(): boolean {
    return this.#matchesNothing;
  }

  /**
   * The values `key` must have for an object to match, when the selector pins the key with `=`, `==`
   * or `in` (several such requirements intersect); undefined when it does not, and the key may then
   * take any value. A caller may look the returned values up in an index instead of scanning, then
   * still call `matches()` for the other requirements.
   */
  requiredValues(key: string): ReadonlySet<string> | undefined {
    if (this.#matchesNothing) return new Set();
    let allowed: Set<string> | undefined;
    for (const r of this.requirements) {
      if (r.key !== key || (r.operator !== '=' && r.operator !== '==' && r.operator !== 'in')) continue;
      allowed = allowed === undefined ? new Set(r.values) : new Set(r.values.filter((v) => allowed!.has(v)));
    }
    return allowed;
  }

  /** Canonical form, e.g. `env in (dev,prod),!legacy,tier=web`; empty for everything and nothing. */
  toString(): string {
    return this.requirements.map(requirementToString).join(',');
  }
}

/**
 * Parses the `labelSelector` grammar: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`
 * (and upstream's `k>1`, `k<1` for integers), comma-separated with optional whitespace.
 * @throws SelectorParseError with the message kube-apiserver gives for the same input.
 */
export function parseLabelSelector(selector: string): LabelSelector {
  return LabelSelector.fromRequirements(parseRequirements(selector));
}

/** The wire shape of metav1.LabelSelector. */
export interface Metav1LabelSelector {
  matchLabels?: Readonly<Record<string, string>> | null;
  matchExpressions?: ReadonlyArray<{
    key: string;
    operator: string;
    values?: readonly string[] | null;
  }> | null;
}

const METAV1_OPERATORS: Readonly<Record<string, LabelOperator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts a metav1.LabelSelector as metav1.LabelSelectorAsSelector does: null/undefined selects
 * nothing, `{}` selects everything, otherwise matchLabels (as `=`) AND matchExpressions.
 * @throws SelectorParseError for an unknown operator or an invalid key, value or value count.
 */
export function labelSelectorFromMetav1(selector: Metav1LabelSelector | null | undefined): LabelSelector {
  if (selector === null || selector === undefined) return LabelSelector.nothing();
  const requirements: LabelRequirement[] = [];
  const matchLabels = selector.matchLabels ?? {};
  for (const key of Object.keys(matchLabels).sort(compareGoStrings)) {
    requirements.push(newRequirement(key, '=', [matchLabels[key]!]));
  }
  for (const expr of selector.matchExpressions ?? []) {
    const operator = Object.hasOwn(METAV1_OPERATORS, expr.operator) ? METAV1_OPERATORS[expr.operator] : undefined;
    if (operator === undefined) {
      throw new SelectorParseError(`${goQuote(expr.operator)} is not a valid label selector operator`);
    }
    requirements.push(newRequirement(expr.key, operator, expr.values && expr.values.length > 0 ? expr.values : null));
  }
  return LabelSelector.fromRequirements(requirements);
}
