/**
 * The modules' validations composed into what kube-apiserver evaluates per request: one validation, and
 * as few variables as keep it from computing anything twice. Pure text composition: no I/O.
 *
 * Why (kube-apiserver 1.36, `admission/plugin/policy/validating/validator.go`, `admission/plugin/cel`):
 * - every validation and every message expression of a policy is evaluated on every request it matches,
 *   the message expressions too when the request is admitted (they are evaluated in a pass of their own,
 *   before kube-apiserver looks at which validations failed);
 * - each evaluation of an expression or of a variable costs a fixed price before any of its CEL runs
 *   (cel-go builds a runtime cost tracker for it), and variables are evaluated once per pass, the
 *   validations' and the messages' apart.
 * So the price of the policy grows with the number of expressions and variables evaluated per request,
 * not with their size. Composed, a request costs two evaluations (the validation, its message) plus
 * one per variable kept that its checks reach — and an admitted request none of these: the policy's
 * match condition (`refusesCondition`), evaluated first, is the validation negated, so the policy
 * applies only to what it refuses and an admitted request runs the checks once, there.
 *
 * What stays as it was: each module declares its own checks (restriction.ts); a request refused for
 * several reasons is refused with the message of the first check, in registry order, that refuses it —
 * the message kube-apiserver gave when each check was a validation of its own (it reports the first
 * denying validation).
 */
import { requestKind, type ResourceRule, type Validation, type Variable } from './cel';

/** A module's part of the validating policy: the requests it matches, its variables and its checks. */
export interface ValidatingPart {
  rules: readonly ResourceRule[];
  variables: readonly Variable[];
  validations: readonly Validation[];
}

/** The composed validation: its message names the first refusal; `message` is the fallback should that fail. */
export interface ComposedValidation extends Validation {
  message: string;
}

export const FALLBACK_MESSAGE = 'the request uses something its tenant does not allow';

const paren = (e: string) => `(${e})`;
const literal = (s: string) => `'${s}'`;
const list = (items: readonly string[]) => `[${items.join(', ')}]`;

/**
 * Whether the request is one of `rule`'s — group, resource with subresource, operation — as kube-apiserver
 * matched it (cel.ts `requestKind`).
 */
export function ruleTest(rule: ResourceRule): string {
  const kinds = rule.apiGroups.flatMap((group) => {
    if (group === '*') throw new Error('a restriction names the API groups it matches');
    return rule.resources.map((r) => requestKind(group, ...(r.split('/') as [string, string?])));
  });
  return paren(`variables.requestKind in ${list(kinds)} && request.operation in ${list(rule.operations.map(literal))}`);
}

/** Whether the request is one a module matches: its checks say nothing about any other. */
const partTest = (part: ValidatingPart) => (part.rules.length === 0 ? 'false' : part.rules.length === 1 ? ruleTest(part.rules[0]!) : paren(part.rules.map(ruleTest).join(' || ')));

/**
 * One validation for all the modules' checks: the expression holds when every module whose rules match
 * the request passes all its checks; the message is the first failing check's message ('' when none fails).
 * Each check's expression is read once by each; a module's checks are reached only for its requests.
 */
export function composeValidations(parts: readonly ValidatingPart[]): ComposedValidation {
  const checked = parts.filter((p) => p.validations.length > 0);
  const expression = checked.map((p) => paren(`!${partTest(p)} || ${p.validations.map((v) => paren(v.expression)).join(' && ')}`)).join(' && ');
  const refusals = checked.flatMap((p) => p.validations.map((v) => `${partTest(p)} && !${paren(v.expression)} ? ${paren(v.messageExpression)}`));
  return {
    expression: expression === '' ? 'true' : expression,
    messageExpression: [...refusals, "''"].join(' : '),
    message: FALLBACK_MESSAGE,
    reason: 'Forbidden',
  };
}

const reference = (name: string) => new RegExp(`\\bvariables\\.${name}\\b`, 'g');
const substitute = (text: string, variable: Variable) => text.replace(reference(variable.name), () => paren(variable.expression));

/** The macros whose last argument CEL evaluates once per element. */
const COMPREHENSIONS = new Set(['map', 'filter', 'all', 'exists', 'exists_one', 'transformList', 'transformMap', 'transformMapEntry', 'sortBy']);

/**
 * How often one evaluation of `text` may read variable `name`: each read counts once, but a read inside a
 * comprehension counts as many (it is evaluated per element). Skips string literals.
 */
function readsOf(text: string, name: string): number {
  const inComprehension: boolean[] = [];
  let reads = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const raw = text[i - 1] === 'r' || text[i - 1] === 'R';
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\' && !raw) i++;
    } else if (c === '(') {
      const call = /\.(\w+)$/.exec(text.slice(Math.max(0, i - 40), i));
      inComprehension.push(COMPREHENSIONS.has(call?.[1] ?? '') || inComprehension.at(-1) === true);
    } else if (c === ')') {
      inComprehension.pop();
    } else if (text.startsWith(`variables.${name}`, i) && !/\w/.test(text[i - 1] ?? '') && !/\w/.test(text[i + 10 + name.length] ?? '')) {
      reads += inComprehension.at(-1) === true ? 2 : 1;
      i += 10 + name.length - 1;
    }
  }
  return reads;
}

/** Method calls a variable may make and still be cheap. */
const CHEAP_CALLS = new Set(['orValue', 'hasValue', 'value']);
const STRING_LITERALS = /'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g;
/** Whether `expression` does a constant amount of work: it calls nothing that walks a list or a string. */
function walksNothing(expression: string): boolean {
  return [...expression.replace(STRING_LITERALS, "''").matchAll(/\.(\w+)\(/g)].every((m) => CHEAP_CALLS.has(m[1]!));
}

/**
 * Whether reading `expression` in place is cheaper than evaluating it on its own (measured: an evaluation
 * of its own costs more than a few field reads): it walks nothing, and reads at most two fields of the
 * request, the objects or the parameter (other variables are evaluated once, then kept).
 */
function isCheap(expression: string): boolean {
  const fieldReads = expression.replace(STRING_LITERALS, "''").match(/\b(object|oldObject|params|request|namespace|authorizer)\b/g)?.length ?? 0;
  return fieldReads <= 2 && walksNothing(expression);
}

/**
 * The variables the composed validation still needs, with every other variable written out where it is
 * read. A variable is written out (its expression, parenthesised, in place of each read) when that
 * costs nothing: it walks nothing, and it is cheap or a request reads it at most once per pass —
 * counted in the validation expression and the other variables; the refusal messages, evaluated only
 * for a refused request, do not count. Writing out a variable never changes a result: CEL is pure and
 * evaluates `&&`, `||` and `?:` lazily, as it evaluates variables.
 *
 * A variable that walks a list or a string is never written out: kube-apiserver limits the cost of each
 * evaluation on its own (`PerCallLimit`), so a variable kept keeps its own limit, as when each check was
 * a validation of its own — an object that passed then (a pod of a thousand images) passes now.
 *
 * `validation.expression` reaches everything the message's checks reach (they are the same checks), so
 * counting there counts for both passes.
 */
export function inlineVariables(variables: readonly Variable[], validation: ComposedValidation): { variables: Variable[]; validation: ComposedValidation; writtenOut: (text: string) => string } {
  let kept = [...variables];
  let v = { ...validation };
  const done: Variable[] = [];
  const writeOut = (variable: Variable) => {
    done.push(variable);
    kept = kept.filter((k) => k !== variable).map((k) => ({ ...k, expression: substitute(k.expression, variable) }));
    v = { ...v, expression: substitute(v.expression, variable), messageExpression: substitute(v.messageExpression, variable) };
  };
  // The cheap ones first (in reverse order of declaration, so that each is written out with its own
  // reads already written out); then, until none is left, any walking nothing that is read at most once.
  for (const variable of [...kept].reverse()) if (isCheap(variable.expression)) writeOut(kept.find((k) => k.name === variable.name)!);
  for (;;) {
    const once = [...kept].reverse().find((k) => walksNothing(k.expression) && readsOf(v.expression, k.name) + kept.reduce((n, o) => n + readsOf(o.expression, k.name), 0) <= 1);
    if (!once) break;
    writeOut(once);
  }
  return { variables: kept, validation: v, writtenOut: (text) => done.reduce(substitute, text) };
}

const BOUND = 'v_';
/** The variables `text` reads, directly or through the variables it reads, in declaration order. */
function reached(text: string, variables: readonly Variable[]): Variable[] {
  const needed = new Set<string>();
  const visit = (t: string) => {
    for (const v of variables) if (!needed.has(v.name) && reference(v.name).test(t)) { needed.add(v.name); visit(v.expression); }
  };
  visit(text);
  return variables.filter((v) => needed.has(v.name));
}
/** `text` with the reads of `variables.<name>` turned into reads of the bound name. */
const toBound = (text: string) => text.replace(/\bvariables\.(\w+)\b/g, (_m, name: string) => `${BOUND}${name}`);
/**
 * `text`, evaluated with each of `variables` it reaches (but those of `outer`, bound around it already)
 * bound to its value: `[<expression>].all(v_<name>, …)`, a comprehension over one element, the only
 * binding kube's CEL has (no `cel.bind`). Each is evaluated once, on entry, whether or not it is read.
 */
function bind(text: string, variables: readonly Variable[], outer: ReadonlySet<string>): string {
  return reached(text, variables).filter((v) => !outer.has(v.name)).reverse()
    .reduce((body, v) => `[${toBound(v.expression)}].all(${BOUND}${v.name}, ${body})`, toBound(text));
}

/**
 * The validation negated, with no variable: kube-apiserver refuses a match condition that reads
 * `variables`. Each module's variables are bound inside its own branch, so a request evaluates only the
 * variables of the modules whose rules name it, each once (as it would the kept variables, lazily);
 * the request variables every branch reads are bound around them all.
 */
export function refusesCondition(parts: readonly ValidatingPart[], variables: readonly Variable[], writtenOut: (text: string) => string): string {
  const test = new Map(parts.map((p) => [p, writtenOut(partTest(p))]));
  // Every test that reads anything is a recognised part's (a part without rules tests 'false').
  const recognised = parts.filter((p) => p.rules.length > 0).map((p) => test.get(p)!);
  const shared = new Set(reached(recognised.join(' '), variables).map((v) => v.name));
  const clauses = parts.filter((p) => p.validations.length > 0)
    .map((p) => paren(`!${test.get(p)} || ${bind(writtenOut(p.validations.map((v) => paren(v.expression)).join(' && ')), variables, shared)}`));
  // kube-apiserver gives a match condition the request's own resource and the validation the one the
  // policy's rules matched (they differ for a resource matched as an equivalent of another, under
  // `matchPolicy: Equivalent`): a request none of the modules recognises goes to the validation.
  const unrecognised = recognised.length === 0 ? 'true' : `!(${recognised.join(' || ')})`;
  return bind(`${unrecognised} || !(${clauses.length === 0 ? 'true' : clauses.join(' && ')})`, variables, new Set());
}
