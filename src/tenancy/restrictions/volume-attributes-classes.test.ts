import { TENANT } from './cel';
import { volumeAttributesClasses } from './volume-attributes-classes';

describe('the volumeAttributesClasses restriction', () => {
  const v = volumeAttributesClasses.validating!;
  const variable = (name: string) => v.variables.find((x) => x.name === name)!.expression;

  it('is a class kind: allowed names listed or resolved into status.allowed, a default that must be listed', () => {
    expect(volumeAttributesClasses.field).toBe('volumeAttributesClasses');
    expect(volumeAttributesClasses.resolvesNames).toBe(true);
    expect(variable('volumeAttributesClasses')).toContain('params.spec.?allowed.?volumeAttributesClasses');
    const problems = (value: unknown) => {
      const out: string[] = [];
      volumeAttributesClasses.validate!('spec.volumeAttributesClasses', value, (path, _reason, message) => out.push(`${path}: ${message}`));
      return out;
    };
    expect(problems({ default: 'fast' })).toEqual(['spec.volumeAttributesClasses.default: "fast" must itself be allowed: list it in spec.volumeAttributesClasses.allowed']);
    expect(problems({ allowed: ['fast'], default: 'fast', selector: { matchLabels: { tier: 'gold' } } })).toEqual([]);
  });

  it('checks PVCs on create and on an update that changes the name, and Pods on create for their ephemeral volumes', () => {
    expect(v.rules.flatMap((r) => r.resources)).toEqual(['persistentvolumeclaims', 'pods', 'pods/ephemeralcontainers']);
    expect(variable('volumeAttributesClassNames')).toMatch(/^variables\.isPVC && has\(params\.spec\.volumeAttributesClasses\)/);
    expect(variable('volumeAttributesClassNames')).toContain("oldObject.spec.?volumeAttributesClassName != object.spec.?volumeAttributesClassName");
    expect(variable('podClaimAttributesClassNames')).toMatch(/^variables\.podCreate && has\(params\.spec\.volumeAttributesClasses\)/);
    expect(variable('podClaimAttributesClassNames')).toContain('ephemeral.volumeClaimTemplate.spec.volumeAttributesClassName');
  });

  it('takes an empty name as none (as kube does) and refuses only names not allowed, naming the tenant and what is allowed', () => {
    expect(variable('volumeAttributesClassNames')).toContain("object.spec.?volumeAttributesClassName.orValue('') != ''");
    expect(variable('podClaimAttributesClassNames')).toContain("volumeAttributesClassName.orValue('') != ''");
    for (const x of v.validations) {
      expect(x.expression).toMatch(/\.all\(n, n in variables\.volumeAttributesClasses\)$/);
      expect(x.messageExpression).toContain(TENANT);
      expect(x.messageExpression).toContain("'; allowed: '");
    }
  });

  it('fills in the default on PVC create only where the PVC names none, and only for a tenant with a default', () => {
    const m = volumeAttributesClasses.mutating!;
    expect(m.rules.flatMap((r) => [...r.resources, ...r.operations])).toEqual(['persistentvolumeclaims', 'CREATE']);
    expect(m.when).toBe('has(params.spec.volumeAttributesClasses) && has(params.spec.volumeAttributesClasses.default)');
    const expression = m.patches;
    expect(expression).toContain("request.resource.resource == 'persistentvolumeclaims'");
    expect(expression).toContain('!has(object.spec.volumeAttributesClassName)');
    expect(expression).toContain("path: '/spec/volumeAttributesClassName', value: params.spec.volumeAttributesClasses.default");
  });
});
