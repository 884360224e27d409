import { MUTATE, REQUEST_VARIABLES, VALIDATE } from './cel';
import { composeValidations, inlineVariables, refusesCondition } from './compose';
import { defaultsPolicy, restrictionsPolicy } from './policies';
import { RESTRICTIONS } from './registry';

const read = (expression: string) => [...expression.matchAll(/variables\.(\w+)/g)].map((m) => m[1]);

describe('the restriction modules', () => {
  it('declare each a field of its own', () => {
    const fields = RESTRICTIONS.map((r) => r.field);
    expect(new Set(fields).size).toBe(fields.length);
  });

  it('name their variables apart from every other module and from the request variables', () => {
    const names = [...REQUEST_VARIABLES, ...RESTRICTIONS.flatMap((r) => r.validating?.variables ?? [])].map((v) => v.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });

  // The defaults policy's match condition reads the modules' patch lists, and kube-apiserver compiles match
  // conditions without the JSONPatch type and the jsonpatch library: it would refuse the whole policy.
  it.each(RESTRICTIONS.filter((r) => r.mutating).map((r) => [r.field, r] as const))('%s builds its patches as plain maps (patchOp), which a match condition can read', (_field, r) => {
    expect(r.mutating!.patches).not.toMatch(/JSONPatch|jsonpatch\./);
    expect(r.mutating!.when).not.toMatch(/JSONPatch|jsonpatch\.|object\./);
  });

  it.each(RESTRICTIONS.map((r) => [r.field, r] as const))('%s reads only the request variables and its own, each after it is declared', (_field, r) => {
    const known = new Set(REQUEST_VARIABLES.map((v) => v.name));
    for (const v of r.validating?.variables ?? []) {
      expect(read(v.expression).filter((u) => !known.has(u))).toEqual([]);
      known.add(v.name);
    }
    for (const v of r.validating?.validations ?? []) {
      expect([...read(v.expression), ...read(v.messageExpression)].filter((u) => !known.has(u))).toEqual([]);
    }
  });
});

describe('the policies composed from them', () => {
  it('match each request kind once, in a fixed order', () => {
    expect((restrictionsPolicy().spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([VALIDATE.pvcs, VALIDATE.ingresses, VALIDATE.pods, VALIDATE.services, VALIDATE.deviceClaims, VALIDATE.networkPolicies, VALIDATE.gateways, VALIDATE.gatewayHostnames]);
    expect((defaultsPolicy().spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([MUTATE.pvcs, MUTATE.ingresses, MUTATE.pods, MUTATE.deviceClaims, MUTATE.gateways]);
  });

  it('hold exactly what the modules contribute', () => {
    // Every module's checks, composed into one validation (compose.ts) whose variables are written out
    // where that costs nothing.
    const parts = RESTRICTIONS.flatMap((r) => (r.validating ? [r.validating] : []));
    const composed = inlineVariables([...REQUEST_VARIABLES, ...parts.flatMap((p) => p.variables)], composeValidations(parts));
    expect(restrictionsPolicy().spec.validations).toEqual([composed.validation]);
    expect(restrictionsPolicy().spec.variables).toEqual(composed.variables);
    // It applies to exactly the requests its validation refuses: an admitted request runs the checks once.
    expect(restrictionsPolicy().spec.matchConditions).toEqual([{ name: 'refuses-something', expression: refusesCondition(parts, composed.variables, composed.writtenOut) }]);
    // One JSON Patch mutation: every module's list of patch maps, each in parentheses, joined, made JSONPatch objects.
    const [mutation, ...more] = defaultsPolicy().spec.mutations as { patchType: string; jsonPatch: { expression: string } }[];
    expect(more).toEqual([]);
    expect(mutation!.patchType).toBe('JSONPatch');
    const patches = RESTRICTIONS.flatMap((r) => (r.mutating ? [`(${r.mutating.patches})`] : [])).join(' + ');
    expect(mutation!.jsonPatch.expression).toBe(`(${patches}).map(p, JSONPatch{op: string(p.op), path: string(p.path), ?value: p.?value})`);
    // A module with no rules contributes no request kind.
    expect((restrictionsPolicy([]).spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([]);
  });
});
