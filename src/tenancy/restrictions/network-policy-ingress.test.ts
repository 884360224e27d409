import { CIDRS } from '../../../test/addresses/addresses';
import type { SpecProblem } from '../problems';
import { TENANT } from './cel';
import { networkPolicyIngress } from './network-policy-ingress';

describe('the NetworkPolicy ingress restriction', () => {
  const variable = (name: string) => networkPolicyIngress.validating!.variables.find((v) => v.name === name)!.expression;

  it('checks NetworkPolicies, create and update, the whole of each', () => {
    expect(networkPolicyIngress.validating!.rules.flatMap((r) => r.resources)).toEqual(['networkpolicies']);
    expect(networkPolicyIngress.validating!.rules.flatMap((r) => r.operations)).toEqual(['CREATE', 'UPDATE']);
    expect(variable('ownerIngress')).toBe('variables.isOwnerNetworkPolicy ? object.spec.?ingress.orValue([]) : []');
    expect(networkPolicyIngress.mutating).toBeUndefined();
  });

  it("leaves Paddock's own policies to Paddock (the managed-objects fence keeps everyone else off them)", () => {
    expect(variable('isOwnerNetworkPolicy')).toContain("request.userInfo.username != 'system:serviceaccount:paddock-system:paddock'");
  });

  it('pins a namespace peer by matchLabels only — the tenant label or a listed name — and reads nothing else of the selector', () => {
    const open = variable('openIngress');
    expect(open).toContain("p.namespaceSelector.?matchLabels[?'paddock.dev/tenant'].orValue('') == params.spec.tenant");
    expect(open).toContain("p.namespaceSelector.?matchLabels[?'kubernetes.io/metadata.name'].orValue('') in variables.ingressFromNamespaces");
    expect(open).not.toContain('matchExpressions');
    expect(open).toContain('cidr(c).containsCIDR(cidr(p.ipBlock.cidr))');
  });

  it('names the tenant, the open rules and peers, and what is allowed', () => {
    const [v] = networkPolicyIngress.validating!.validations;
    expect(v!.expression).toBe('!variables.isOwnerNetworkPolicy || size(variables.openIngress) == 0');
    for (const part of [TENANT, 'variables.openIngress.join', 'variables.ingressFromNamespaces', 'variables.ingressFromCidrs', "'; allowed peers: "]) expect(v!.messageExpression).toContain(part);
  });

  describe('validation of the field', () => {
    const problems = (value: unknown) => {
      const out: SpecProblem[] = [];
      networkPolicyIngress.validate!('spec.networkPolicyIngressFrom', value, (field, reason) => out.push({ field, reason, message: '' }));
      return out.map((p) => `${p.field}: ${p.reason}`);
    };

    it('accepts namespace names and masked CIDRs', () => {
      expect(problems(undefined)).toEqual([]);
      expect(problems({ namespaces: { allowed: ['ingress-nginx', 'monitoring'] }, ipBlocks: { allowed: CIDRS.filter((c) => c.verdict === 'ok').map((c) => c.text) } })).toEqual([]);
    });

    it('refuses what is not a namespace name, CIDRs it cannot read or with host bits, and other shapes', () => {
      expect(problems({ namespaces: { allowed: ['Ingress', 'a.b', 'ok'] } })).toEqual([
        'spec.networkPolicyIngressFrom.namespaces.allowed[0]: FieldValueInvalid',
        'spec.networkPolicyIngressFrom.namespaces.allowed[1]: FieldValueInvalid',
      ]);
      expect(problems({ ipBlocks: { allowed: CIDRS.map((c) => c.text) } })).toEqual(
        CIDRS.flatMap((c, i) => (c.verdict === 'ok' ? [] : [`spec.networkPolicyIngressFrom.ipBlocks.allowed[${i}]: FieldValueInvalid`])),
      );
      expect(problems({ ipBlocks: ['10.0.0.0/8'] })).toEqual(['spec.networkPolicyIngressFrom.ipBlocks: FieldValueInvalid']);
      expect(problems('all')).toEqual(['spec.networkPolicyIngressFrom: FieldValueInvalid']);
    });
  });
});
