import { TENANT } from './cel';
import { deviceClasses } from './device-classes';

describe('the deviceClasses restriction', () => {
  const v = deviceClasses.validating!;
  const variable = (name: string) => v.variables.find((x) => x.name === name)!.expression;

  it('is a class kind: allowed names listed or resolved into status.allowed, a default that must be listed', () => {
    expect(deviceClasses.field).toBe('deviceClasses');
    expect(deviceClasses.resolvesNames).toBe(true);
    expect(variable('deviceClasses')).toContain('params.spec.?allowed.?deviceClasses');
    const problems: string[] = [];
    deviceClasses.validate!('spec.deviceClasses', { default: 'gpu' }, (path, _reason, message) => problems.push(`${path}: ${message}`));
    expect(problems).toEqual(['spec.deviceClasses.default: "gpu" must itself be allowed: list it in spec.deviceClasses.allowed']);
  });

  it('judges ResourceClaims and ResourceClaimTemplates on create only (their specs are immutable), not their status', () => {
    expect(v.rules.flatMap((r) => r.apiGroups)).toEqual(['resource.k8s.io']);
    expect(v.rules.flatMap((r) => r.resources)).toEqual(['resourceclaims', 'resourceclaimtemplates']);
    expect(variable('deviceRequests')).toContain("request.?subResource.orValue('') == '' && request.operation == 'CREATE' && has(params.spec.deviceClasses)");
  });

  it("reads a claim's requests from spec.devices and a template's from spec.spec.devices", () => {
    expect(variable('deviceRequests')).toContain("request.resource.resource == 'resourceclaims' ? object.spec.?devices.?requests.orValue([]) : object.spec.?spec.?devices.?requests.orValue([])");
  });

  it('refuses a class named exactly or by any subrequest that is not allowed, naming the tenant and what is allowed', () => {
    expect(variable('deniedDeviceClasses')).toContain('r.exactly.deviceClassName in variables.deviceClasses');
    expect(variable('deniedDeviceClasses')).toContain('r.?firstAvailable.orValue([]).filter(s, ');
    expect(variable('deniedDeviceClasses')).toContain('s.deviceClassName in variables.deviceClasses');
    const [refusal] = v.validations;
    expect(refusal!.expression).toBe('size(variables.deniedDeviceClasses) == 0');
    expect(refusal!.messageExpression).toContain(TENANT);
    expect(refusal!.messageExpression).toContain("'; allowed: '");
  });

  it('fills in the default on create wherever a request or subrequest names no class, for a tenant with a default', () => {
    const m = deviceClasses.mutating!;
    expect(m.rules.flatMap((r) => [...r.resources, ...r.operations])).toEqual(['resourceclaims', 'resourceclaimtemplates', 'CREATE']);
    expect(m.when).toBe('has(params.spec.deviceClasses) && has(params.spec.deviceClasses.default)');
    const expression = m.patches;
    expect(expression).toContain("'/exactly/deviceClassName'");
    expect(expression).toContain("'/firstAvailable/' + string(j) + '/deviceClassName'");
    expect(expression).toContain("r.exactly.?deviceClassName.orValue('') == ''");
    expect(expression).toContain("s.?deviceClassName.orValue('') == ''");
    expect(expression).not.toContain("op: 'replace'");
  });
});
