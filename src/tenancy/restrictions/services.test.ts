import { ADDRESSES, CIDRS } from '../../../test/addresses/addresses';
import type { SpecProblem } from '../problems';
import { TENANT } from './cel';
import { isMasked, parseCidr, parseIP } from './ip-address';
import { services } from './services';

describe('addresses as the CEL library reads them', () => {
  it.each(ADDRESSES.map((a) => [JSON.stringify(a.text), a.about, a] as const))('%s (%s)', (_text, _about, a) => {
    expect(parseIP(a.text) !== undefined).toBe(a.valid);
  });

  it.each(CIDRS.map((c) => [JSON.stringify(c.text), c.about, c] as const))('CIDR %s (%s)', (_text, _about, c) => {
    const cidr = parseCidr(c.text);
    expect(cidr === undefined ? 'invalid' : isMasked(cidr) ? 'ok' : 'hostBits').toBe(c.verdict);
  });

  it('reads each address as the bytes it names', () => {
    expect(parseIP('192.0.2.1')).toEqual([192, 0, 2, 1]);
    expect(parseIP('64:ff9b::192.0.2.1')).toEqual([0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 192, 0, 2, 1]);
    expect(parseIP('2001:DB8::1')).toEqual(parseIP('2001:0db8:0000:0000:0000:0000:0000:0001'));
    expect(parseCidr('2001:db8:8000::/33')).toEqual({ address: [0x20, 0x01, 0x0d, 0xb8, 0x80, ...new Array(11).fill(0)], bits: 33 });
    expect(isMasked(parseCidr('2001:db8:8000::/33')!)).toBe(true);
    expect(isMasked(parseCidr('2001:db8:c000::/33')!)).toBe(false);
  });
});

describe('the services restriction', () => {
  it('refuses externalIPs outside the CIDRs it reads, none when the tenant lists none, and fills in nothing', () => {
    expect(services.validating!.variables.find((v) => v.name === 'externalIPCidrs')!.expression).toBe('params.spec.?services.?externalIPs.?allowed.orValue([])');
    expect(services.validating!.validations.map((v) => v.expression)).toContain('size(variables.outsideExternalIPs) == 0');
    expect(services.mutating).toBeUndefined();
  });

  it('checks Services, create and update, and names the tenant and what is allowed in each refusal', () => {
    expect(services.validating!.rules.flatMap((r) => r.resources)).toEqual(['services']);
    expect(services.validating!.rules.flatMap((r) => r.operations)).toEqual(['CREATE', 'UPDATE']);
    for (const v of services.validating!.validations) expect(v.messageExpression).toContain(TENANT);
    const unnamed = services.validating!.validations.filter((v) => !v.messageExpression.includes("'; allowed: '"));
    // Only the refusal of an address no reader agrees on has no list to name.
    expect(unnamed.map((v) => v.expression)).toEqual(['size(variables.malformedExternalIPs) == 0']);
  });

  it('reads an object only once isService holds (never a Pod\'s spec as a Service\'s), and judges the externalIPs an update adds', () => {
    const reading = services.validating!.variables.filter((v) => /\b(old)?[oO]bject\./.test(v.expression));
    expect(reading.map((v) => v.name)).toEqual(['serviceType', 'oldServiceType', 'serviceExternalIPs', 'oldExternalIPs', 'loadBalancerClass', 'loadBalancerClassChecked']);
    for (const v of reading) expect(v.expression).toMatch(/^variables\.isService (\?|&&)/);
    expect(services.validating!.variables.find((v) => v.name === 'newExternalIPs')!.expression).toBe('variables.serviceExternalIPs.filter(i, !(i in variables.oldExternalIPs))');
  });

  describe('validation of the field', () => {
    const problems = (value: unknown) => {
      const out: SpecProblem[] = [];
      services.validate!('spec.services', value, (field, reason, message) => out.push({ field, reason, message }));
      return out.map((p) => `${p.field}: ${p.reason}`);
    };

    it('accepts types, masked CIDRs and class names', () => {
      expect(problems(undefined)).toEqual([]);
      expect(problems({})).toEqual([]);
      expect(problems({
        types: { allowed: ['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName'] },
        externalIPs: { allowed: CIDRS.filter((c) => c.verdict === 'ok').map((c) => c.text) },
        loadBalancerClasses: { allowed: ['internal', 'example.com/internal'] },
      })).toEqual([]);
    });

    it('refuses what the CRD schema refuses: unknown types, CIDRs it cannot read or with host bits, bad class names', () => {
      expect(problems({ types: { allowed: ['NodePort', 'Headless'] } })).toEqual(['spec.services.types.allowed[1]: FieldValueNotSupported']);
      const cidrs = CIDRS.map((c) => c.text);
      expect(problems({ externalIPs: { allowed: cidrs } })).toEqual(
        CIDRS.flatMap((c, i) => (c.verdict === 'ok' ? [] : [`spec.services.externalIPs.allowed[${i}]: FieldValueInvalid`])),
      );
      expect(problems({ externalIPs: { allowed: [24] } })).toEqual(['spec.services.externalIPs.allowed[0]: FieldValueInvalid']);
      expect(problems({ loadBalancerClasses: { allowed: ['a/b/c', '-x', 'ok'] } })).toEqual([
        'spec.services.loadBalancerClasses.allowed[0]: FieldValueInvalid',
        'spec.services.loadBalancerClasses.allowed[1]: FieldValueInvalid',
      ]);
      expect(problems({ externalIPs: ['192.0.2.0/24'] })).toEqual(['spec.services.externalIPs: FieldValueInvalid']);
      expect(problems({ types: { allowed: 'NodePort' } })).toEqual(['spec.services.types.allowed: FieldValueInvalid']);
      expect(problems('all')).toEqual(['spec.services: FieldValueInvalid']);
    });
  });
});
