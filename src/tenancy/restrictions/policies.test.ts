import { MUTATE, REQUEST_VARIABLES, VALIDATE } from './cel';
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
    expect((restrictionsPolicy().spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([VALIDATE.pvcs, VALIDATE.ingresses, VALIDATE.pods, VALIDATE.services, VALIDATE.deviceClaims]);
    expect((defaultsPolicy().spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([MUTATE.pvcs, MUTATE.ingresses, MUTATE.pods, MUTATE.deviceClaims]);
  });

  it('hold exactly what the modules contribute', () => {
    const validations = RESTRICTIONS.flatMap((r) => r.validating?.validations ?? []);
    expect(restrictionsPolicy().spec.validations).toEqual(validations);
    // One JSON Patch mutation: every module's list, each in parentheses, joined.
    const [mutation, ...more] = defaultsPolicy().spec.mutations as { patchType: string; jsonPatch: { expression: string } }[];
    expect(more).toEqual([]);
    expect(mutation!.patchType).toBe('JSONPatch');
    expect(mutation!.jsonPatch.expression).toBe(RESTRICTIONS.flatMap((r) => (r.mutating ? [`(${r.mutating.patches})`] : [])).join(' + '));
    // A module with no rules contributes no request kind.
    expect((restrictionsPolicy([]).spec.matchConstraints as { resourceRules: unknown[] }).resourceRules).toEqual([]);
  });
});
