import { VALIDATE, type Validation, type Variable } from './cel';
import { composeValidations, FALLBACK_MESSAGE, inlineVariables, refusesCondition, ruleTest, type ValidatingPart } from './compose';
import { restrictionsPolicy } from './policies';

const check = (expression: string, messageExpression: string): Validation => ({ expression, messageExpression, reason: 'Forbidden' });
const part = (rules: ValidatingPart['rules'], ...validations: Validation[]): ValidatingPart => ({ rules, variables: [], validations });
const composed = (expression: string, messageExpression = "''") => ({ expression, messageExpression, message: FALLBACK_MESSAGE, reason: 'Forbidden' as const });
const PODS = ruleTest(VALIDATE.pods);
const SERVICES = ruleTest(VALIDATE.services);

describe('ruleTest', () => {
  it('reads the request as kube-apiserver matched it: group, resource and subresource (requestKind), operation', () => {
    expect(PODS).toBe("(variables.requestKind in ['/pods/', '/pods/ephemeralcontainers'] && request.operation in ['CREATE', 'UPDATE'])");
    // Gateway API's rules match every version: the group and resources still tell the kinds apart.
    expect(ruleTest(VALIDATE.gateways)).toBe("(variables.requestKind in ['gateway.networking.k8s.io/gateways/'] && request.operation in ['CREATE', 'UPDATE'])");
    expect(() => ruleTest({ ...VALIDATE.pods, apiGroups: ['*'] })).toThrow();
  });
});

describe('composeValidations', () => {
  it("holds when every module passes the checks of its own requests; the message is the first failing check's", () => {
    const v = composeValidations([part([VALIDATE.pods], check('a', "'A'"), check('b', "'B'")), part([VALIDATE.services], check('c', "'C'"))]);
    expect(v).toEqual({
      expression: `(!${PODS} || (a) && (b)) && (!${SERVICES} || (c))`,
      messageExpression: `${PODS} && !(a) ? ('A') : ${PODS} && !(b) ? ('B') : ${SERVICES} && !(c) ? ('C') : ''`,
      message: FALLBACK_MESSAGE,
      reason: 'Forbidden',
    });
  });

  it('leaves out modules without checks, and holds when there are none', () => {
    expect(composeValidations([part([VALIDATE.pods])])).toEqual(composed('true'));
    expect(composeValidations([]).expression).toBe('true');
  });

  it('reaches the checks of a module without rules for no request', () => {
    expect(composeValidations([part([], check('a', "'A'"))]).expression).toBe('(!false || (a))');
  });
});

describe('inlineVariables', () => {
  const v = (name: string, expression: string): Variable => ({ name, expression });
  const names = (r: { variables: Variable[] }) => r.variables.map((x) => x.name);
  // Walks nothing, reads three fields: written out only where it is read once.
  const sum = v('sum', 'object.spec.a + object.spec.b + params.spec.c');

  it('writes out a variable that walks nothing and is read once, and one read only by the message', () => {
    const r = inlineVariables([sum, v('text', "string(variables.sum) + ' units'")], composed('variables.sum < 10', 'variables.text'));
    expect(r).toEqual({ variables: [], validation: composed('(object.spec.a + object.spec.b + params.spec.c) < 10', "(string((object.spec.a + object.spec.b + params.spec.c)) + ' units')"), writtenOut: expect.any(Function) });
    // Any other text reading them (the match condition's checks) gets them written out alike.
    expect(r.writtenOut('variables.text')).toBe("(string((object.spec.a + object.spec.b + params.spec.c)) + ' units')");
  });

  it('keeps such a variable read twice, or read once inside a comprehension (evaluated per element)', () => {
    expect(names(inlineVariables([sum], composed('variables.sum > 0 && variables.sum < 10')))).toEqual(['sum']);
    expect(names(inlineVariables([sum], composed('object.spec.ys.all(y, y < variables.sum)')))).toEqual(['sum']);
    // A reader kept is counted, one written out is not.
    expect(names(inlineVariables([sum, v('twice', 'variables.sum * 2')], composed('variables.twice == 4 && variables.sum > 1')))).toEqual(['sum']);
  });

  // kube-apiserver limits the cost of each evaluation on its own: written out into another, a walk would
  // share that one's limit, and an object that passed with each check apart could be refused.
  it('keeps a variable that walks a list or a string, even read once', () => {
    expect(names(inlineVariables([v('xs', 'object.spec.xs.map(x, x.name)')], composed('size(variables.xs) == 0')))).toEqual(['xs']);
    expect(names(inlineVariables([v('ok', "object.metadata.name.matches('^a')")], composed('variables.ok')))).toEqual(['ok']);
  });

  it('writes out a cheap variable (at most two field reads, no walk) wherever it is read, in comprehensions too', () => {
    const kind = v('kind', 'request.resource.group + request.resource.resource + request.operation');
    const r = inlineVariables([kind, v('isPod', "variables.kind == 'pods'"), v('tenant', "variables.kind.orValue('')")], composed('variables.isPod && object.spec.xs.all(x, x != variables.tenant) && variables.isPod'));
    // `kind` reads three fields and is read three times: evaluated once, kept.
    expect(r.variables).toEqual([kind]);
    expect(r.validation.expression).toBe("(variables.kind == 'pods') && object.spec.xs.all(x, x != (variables.kind.orValue(''))) && (variables.kind == 'pods')");
  });

  it('writes out a variable of two field reads, keeps one of three read twice', () => {
    expect(names(inlineVariables([v('a', 'params.spec.a + object.spec.a'), v('b', 'params.spec.a + object.spec.a + request.name')], composed('variables.a == variables.b && variables.b != variables.a')))).toEqual(['b']);
  });

  it('does not count what a string literal says', () => {
    expect(inlineVariables([sum], composed("variables.sum < 10 && 'variables.sum' != ''")).variables).toEqual([]);
  });
});

describe('refusesCondition', () => {
  const variables: Variable[] = [{ name: 'requestKind', expression: 'RK' }, { name: 'x', expression: 'object.a.map(i, i)' }, { name: 'y', expression: 'variables.x.filter(i, i > 1)' }];
  const bound = (text: string) => text.replaceAll('variables.', 'v_');

  it("is the validation negated, each module's variables bound in its own branch, the request variables around all", () => {
    const parts = [part([VALIDATE.pods], check('size(variables.y) == 0', "'A'")), part([VALIDATE.services], check('c', "'C'"))];
    expect(refusesCondition(parts, variables, (t) => t)).toBe(
      `[RK].all(v_requestKind, !(${bound(PODS)} || ${bound(SERVICES)}) || !((!${bound(PODS)} || [object.a.map(i, i)].all(v_x, [v_x.filter(i, i > 1)].all(v_y, (size(v_y) == 0)))) && (!${bound(SERVICES)} || (c))))`,
    );
  });

  it('reads the checks as the validation does, with the variables it wrote out written out', () => {
    const parts = [part([VALIDATE.pods], check('variables.z', "'A'"))];
    expect(refusesCondition(parts, variables, (t) => t.replace('variables.z', 'object.z'))).toBe(`[RK].all(v_requestKind, !(${bound(PODS)}) || !((!${bound(PODS)} || (object.z))))`);
    expect(refusesCondition([], variables, (t) => t)).toBe('true || !(true)');
  });

  // kube-apiserver gives the match condition the request's own resource, the validation the one the rules
  // matched: a request that no module recognises (matched as an equivalent resource) is left to the validation.
  it('applies the policy to a request no module recognises, and to a module without checks none', () => {
    const parts = [part([VALIDATE.pods], check('a', "'A'")), part([VALIDATE.services])];
    expect(refusesCondition(parts, variables, (t) => t)).toBe(`[RK].all(v_requestKind, !(${bound(PODS)} || ${bound(SERVICES)}) || !((!${bound(PODS)} || (a))))`);
  });
});

describe('the composed restrictions policy', () => {
  const spec = restrictionsPolicy().spec as { variables: Variable[]; validations: (Validation & { message: string })[]; matchConditions: { name: string; expression: string }[] };
  const reads = (text: string) => [...text.matchAll(/variables\.(\w+)/g)].map((m) => m[1]!);

  it('is one validation, reading only variables it keeps, each declared before what reads it', () => {
    expect(spec.validations).toHaveLength(1);
    const declared = new Set<string>();
    for (const variable of spec.variables) {
      expect(reads(variable.expression).filter((n) => !declared.has(n))).toEqual([]);
      declared.add(variable.name);
    }
    const [validation] = spec.validations;
    expect([...reads(validation!.expression), ...reads(validation!.messageExpression)].filter((n) => !declared.has(n))).toEqual([]);
    // Every variable kept is read by the validation or another variable (none is left over).
    for (const variable of spec.variables) expect(JSON.stringify(spec).split(`variables.${variable.name}`).length).toBeGreaterThan(1);
  });

  // An expression written out inside a comprehension must not have its names rebound by it.
  it('binds no comprehension variable to a name a written-out expression reads', () => {
    const text = JSON.stringify(spec);
    const bound = [...text.matchAll(/\.(?:map|filter|all|exists|exists_one|transformList|transformMap|transformMapEntry)\((\w+),\s*(?:(\w+),)?/g)].flatMap((m) => [m[1], m[2]]).filter(Boolean);
    for (const name of ['object', 'oldObject', 'params', 'request', 'variables', 'namespace', 'authorizer']) expect(bound).not.toContain(name);
  });

  it('fits the size kube-apiserver compiles (100,000 code points an expression)', () => {
    for (const text of [spec.validations[0]!.expression, spec.validations[0]!.messageExpression, spec.matchConditions[0]!.expression, ...spec.variables.map((x) => x.expression)]) expect(text.length).toBeLessThan(100_000);
  });

  // kube-apiserver refuses a policy whose match condition reads `variables`.
  it('has a match condition that reads no variable, and binds only names of its own', () => {
    const [condition, ...more] = spec.matchConditions;
    expect(more).toEqual([]);
    expect(condition!.expression).not.toMatch(/\bvariables\./);
    const names = new Set(spec.variables.map((v) => `v_${v.name}`));
    expect([...condition!.expression.matchAll(/\b(v_\w+)/g)].map((m) => m[1]!).filter((n) => !names.has(n))).toEqual([]);
  });
});
