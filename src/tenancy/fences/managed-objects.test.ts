import type { ResourceRule } from '../restrictions/cel';
import { isGuardrailRule } from './managed-objects';

const rule = (apiGroups: string[], resources: string[]): ResourceRule => ({ apiGroups, apiVersions: ['*'], operations: ['CREATE'], resources, scope: 'Namespaced' });

describe('isGuardrailRule', () => {
  it('holds for a rule naming only guardrail kinds, each in its own group', () => {
    expect(isGuardrailRule(rule(['networking.k8s.io'], ['networkpolicies']))).toBe(true);
    expect(isGuardrailRule(rule([''], ['resourcequotas', 'limitranges']))).toBe(true);
  });

  // A binding that narrows guardrail kinds to objects without Paddock's label relies on this fence refusing
  // that label: every group × resource the rule names must be one the fence covers.
  it('fails for any pair the managed-objects fence does not cover', () => {
    expect(isGuardrailRule(rule(['networking.k8s.io', 'x.example.com'], ['networkpolicies']))).toBe(false);
    expect(isGuardrailRule(rule(['crd.projectcalico.org'], ['networkpolicies']))).toBe(false);
    expect(isGuardrailRule(rule(['networking.k8s.io'], ['networkpolicies', 'ingresses']))).toBe(false);
    expect(isGuardrailRule(rule(['networking.k8s.io'], ['networkpolicies/status']))).toBe(false);
    expect(isGuardrailRule(rule(['*'], ['networkpolicies']))).toBe(false);
    expect(isGuardrailRule(rule([''], ['pods']))).toBe(false);
  });
});
