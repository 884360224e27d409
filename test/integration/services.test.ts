import { refused } from './admission-answers';
import { applyObject, kubectl, uniqueName, waitFor, type KubectlResult } from './env';
import type { TenantSpec } from '../../src/kube/types';
import { externalIPVariables } from '../../src/tenancy/restrictions/services';
import { tenant } from '../../src/testing/tenants';
import { ADDRESSES, CIDRS } from '../addresses/addresses';

jest.setTimeout(180_000);

/**
 * Which Services a tenant may make (spec.services, SPEC §10), enforced by kube-apiserver through the
 * tenant's admission policy: as the owner alice, in her namespaces, through real kubectl. No tenant may
 * give a Service externalIPs outside the CIDRs it lists — none without a list (CVE-2020-8554).
 */
const POLICY = 'paddock-tenant-restrictions';
/** Not in any CIDR a tenant of this suite lists: refused in every tenant namespace. */
const FOREIGN_IP = '192.0.2.1';

const service = (name: string, spec: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ port: 80 }], selector: { app: name }, ...spec },
});
const externalName = (name: string) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { type: 'ExternalName', externalName: 'example.com' } });

const dryRun = (ns: string, obj: unknown, user = 'alice'): Promise<KubectlResult> =>
  kubectl(user, ['create', '-n', ns, '--dry-run=server', '-o', 'json', '-f', '-'], JSON.stringify(obj));
const create = (ns: string, obj: unknown): Promise<KubectlResult> => kubectl('alice', ['create', '-n', ns, '-f', '-'], JSON.stringify(obj));
const patch = (ns: string, name: string, body: unknown): Promise<KubectlResult> =>
  kubectl('alice', ['patch', 'service', name, '-n', ns, '--type=merge', '-p', JSON.stringify(body)]);

function accepted(res: KubectlResult): any {
  if (res.code !== 0) throw new Error(`refused: ${res.stderr}`);
  return res.stdout.trim().startsWith('{') ? JSON.parse(res.stdout) : res.stdout;
}

interface ServiceTenant {
  name: string;
  ns: string;
}

const tenants: string[] = [];

/** A tenant with one namespace, `<name>-app`, once kube-apiserver enforces its policy there. */
async function serviceTenant(prefix: string, services?: TenantSpec['services']): Promise<ServiceTenant> {
  const name = uniqueName(prefix);
  const t = { name, ns: `${name}-app` };
  tenants.push(name);
  await applyObject(tenant(name, { namespaces: ['app'], ...(services ? { services } : {}) }));
  await waitFor(`the default service account of ${t.ns}`, async () => (await kubectl('admin', ['get', 'serviceaccount', 'default', '-n', t.ns])).code === 0, 60_000, 250);
  await waitFor(`kube-apiserver enforcing ${name}'s Service rules`, async () =>
    (await dryRun(t.ns, service('probe', { externalIPs: [FOREIGN_IP] }))).stderr.includes(POLICY), 60_000, 250);
  return t;
}

afterAll(async () => {
  if (tenants.length > 0) await kubectl('admin', ['delete', 'tenant', ...tenants, '--wait=false']);
});

describe('a tenant without spec.services', () => {
  let t: ServiceTenant;
  beforeAll(async () => {
    t = await serviceTenant('svc-plain');
  });

  it('is refused any externalIP, with none named as allowed', async () => {
    refused(await dryRun(t.ns, service('web', { externalIPs: ['203.0.113.7'] })), 'externalIPs 203.0.113.7 not allowed', `(tenant ${t.name})`, 'allowed: none');
    refused(await dryRun(t.ns, service('web', { type: 'NodePort', externalIPs: ['2001:db8::7'] })), 'externalIPs 2001:db8::7 not allowed');
  });

  it('may make a Service of every type', async () => {
    for (const type of ['ClusterIP', 'NodePort', 'LoadBalancer']) expect(accepted(await dryRun(t.ns, service('web', { type }))).spec.type).toBe(type);
    expect(accepted(await dryRun(t.ns, externalName('web'))).spec.type).toBe('ExternalName');
  });
});

describe('a tenant that allows NodePort and externalIPs in two CIDRs', () => {
  let t: ServiceTenant;
  beforeAll(async () => {
    t = await serviceTenant('svc-np', { types: { allowed: ['NodePort'] }, externalIPs: { allowed: ['198.51.100.0/24', '2001:db8:51::/48'] } });
  });

  it('is refused a LoadBalancer or an ExternalName Service, naming the allowed types', async () => {
    refused(await dryRun(t.ns, service('web', { type: 'LoadBalancer' })), 'Service type LoadBalancer is not allowed', `(tenant ${t.name})`, 'allowed: ClusterIP, NodePort');
    refused(await dryRun(t.ns, externalName('web')), 'Service type ExternalName is not allowed');
  });

  it('may make a NodePort Service, and a ClusterIP one whether it says so or kube defaults it', async () => {
    expect(accepted(await dryRun(t.ns, service('web', { type: 'NodePort' }))).spec.type).toBe('NodePort');
    expect(accepted(await dryRun(t.ns, service('web', { type: 'ClusterIP' }))).spec.type).toBe('ClusterIP');
    expect(accepted(await dryRun(t.ns, service('web'))).spec.type).toBe('ClusterIP');
  });

  it('may give externalIPs inside the listed CIDRs, and is refused one outside them, naming the CIDRs', async () => {
    expect(accepted(await dryRun(t.ns, service('web', { externalIPs: ['198.51.100.7', '2001:db8:51::7'] }))).spec.externalIPs).toEqual(['198.51.100.7', '2001:db8:51::7']);
    const res = await dryRun(t.ns, service('web', { externalIPs: ['198.51.100.7', '198.51.101.7'] }));
    refused(res, 'externalIPs 198.51.101.7 not allowed', 'allowed: 198.51.100.0/24, 2001:db8:51::/48');
    expect(res.stderr).not.toContain('198.51.100.7');
    refused(await dryRun(t.ns, service('web', { externalIPs: ['2001:db8:52::7'] })), 'externalIPs 2001:db8:52::7 not allowed');
  });

  // kube-apiserver 1.36 refuses these itself (StrictIPCIDRValidation); the policy refuses them too, where
  // kube's own validation lets them through (see "the addresses kube-apiserver reads").
  it.each(['198.51.100.07', '::ffff:198.51.100.7', 'not-an-ip'])('is refused the externalIP %s, which is not an address in standard form', async (ip) => {
    const res = await dryRun(t.ns, service('web', { externalIPs: [ip] }));
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain(ip);
  });

  it('is refused an update that changes a Service to a type not allowed', async () => {
    accepted(await create(t.ns, service('np', { type: 'NodePort' })));
    refused(await patch(t.ns, 'np', { spec: { type: 'LoadBalancer' } }), 'Service type LoadBalancer is not allowed');
    refused(await patch(t.ns, 'np', { spec: { externalIPs: [FOREIGN_IP] } }), `externalIPs ${FOREIGN_IP} not allowed`);
    accepted(await patch(t.ns, 'np', { spec: { externalIPs: ['198.51.100.8'] } }));
  });
});

describe('what a tenant keeps when its Tenant restricts it later', () => {
  let t: ServiceTenant;
  beforeAll(async () => {
    t = await serviceTenant('svc-later', { externalIPs: { allowed: ['198.51.100.0/24'] } });
    accepted(await create(t.ns, service('kept', { type: 'LoadBalancer', externalIPs: ['198.51.100.9'] })));
    await applyObject(tenant(t.name, { namespaces: ['app'], services: { types: { allowed: ['NodePort'] }, externalIPs: { allowed: ['203.0.113.0/24'] } } }));
    await waitFor(`kube-apiserver enforcing ${t.name}'s narrower Service rules`, async () =>
      (await dryRun(t.ns, service('probe', { type: 'LoadBalancer' }))).stderr.includes('Service type LoadBalancer is not allowed'), 60_000, 250);
  });

  it('an update that keeps the type and externalIPs admitted before is accepted: only what it adds is judged', async () => {
    accepted(await kubectl('alice', ['label', 'service', 'kept', '-n', t.ns, 'touched=yes']));
    const res = await patch(t.ns, 'kept', { spec: { externalIPs: ['198.51.100.9', '198.51.100.10'] } });
    // Named alone: the address admitted before is not judged again.
    refused(res, 'externalIPs 198.51.100.10 not allowed', 'allowed: 203.0.113.0/24');
    accepted(await patch(t.ns, 'kept', { spec: { externalIPs: ['198.51.100.9', '203.0.113.5'] } }));
  });
});

describe('a tenant that lists load balancer classes', () => {
  const internal = 'example.com/internal';
  let t: ServiceTenant;
  beforeAll(async () => {
    t = await serviceTenant('svc-lb', { loadBalancerClasses: { allowed: [internal] } });
  });

  it('may make a LoadBalancer of a listed class, and is refused another class or none, naming the allowed ones', async () => {
    expect(accepted(await dryRun(t.ns, service('lb', { type: 'LoadBalancer', loadBalancerClass: internal }))).spec.loadBalancerClass).toBe(internal);
    refused(await dryRun(t.ns, service('lb', { type: 'LoadBalancer', loadBalancerClass: 'example.com/public' })),
      'loadBalancerClass "example.com/public" is not allowed', `(tenant ${t.name})`, `allowed: ${internal}`);
    refused(await dryRun(t.ns, service('lb', { type: 'LoadBalancer' })), 'a LoadBalancer Service must name a loadBalancerClass', `allowed: ${internal}`);
  });

  it('may make Services of other types, which name no class', async () => {
    expect(accepted(await dryRun(t.ns, service('np', { type: 'NodePort' }))).spec.type).toBe('NodePort');
  });

  it('is refused an update that makes a Service a load balancer of no listed class', async () => {
    accepted(await create(t.ns, service('grow')));
    refused(await patch(t.ns, 'grow', { spec: { type: 'LoadBalancer' } }), 'a LoadBalancer Service must name a loadBalancerClass');
    refused(await patch(t.ns, 'grow', { spec: { type: 'LoadBalancer', loadBalancerClass: 'example.com/public' } }), 'loadBalancerClass "example.com/public" is not allowed');
    accepted(await patch(t.ns, 'grow', { spec: { type: 'LoadBalancer', loadBalancerClass: internal } }));
  });
});

describe('a namespace outside every tenant', () => {
  const ns = uniqueName('svc-free');
  beforeAll(async () => {
    accepted(await kubectl('admin', ['create', 'namespace', ns]));
  });
  afterAll(() => kubectl('admin', ['delete', 'namespace', ns, '--wait=false']));

  it('is not touched by the tenants\' rules: externalIPs, any type, any class', async () => {
    const res = await dryRun(ns, service('web', { type: 'LoadBalancer', loadBalancerClass: 'example.com/public', externalIPs: [FOREIGN_IP] }), 'admin');
    expect(accepted(res).spec.externalIPs).toEqual([FOREIGN_IP]);
  });
});

/**
 * The policy's externalIP steps evaluated by kube-apiserver itself on input its Service validation would
 * never let through (it refuses leading zeros and IPv4-mapped addresses first): a test policy with the
 * same steps reads each value of a ConfigMap as an externalIP, and names what it finds malformed or
 * outside the CIDRs. The Tenant CRD's CIDR rule is held to the CIDR table the same way.
 */
describe('the addresses kube-apiserver reads', () => {
  const id = uniqueName('svc-oracle');
  const ns = id;
  const cidrs = ['198.51.100.0/24', '2001:db8:51::/48'];
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name: id },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
      variables: [
        { name: 'newExternalIPs', expression: 'has(object.data) ? object.data.map(k, object.data[k]) : []' },
        { name: 'externalIPCidrs', expression: JSON.stringify(cidrs).replaceAll('"', "'") },
        ...externalIPVariables('newExternalIPs', 'externalIPCidrs'),
      ],
      validations: [{
        expression: 'size(variables.malformedExternalIPs) == 0 && size(variables.outsideExternalIPs) == 0',
        messageExpression: "'malformed<' + variables.malformedExternalIPs.join('|') + '> outside<' + variables.outsideExternalIPs.join('|') + '>'",
      }],
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: id },
    spec: { policyName: id, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } } },
  };
  const configMap = (values: string[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ips' }, data: Object.fromEntries(values.map((v, i) => [`r${i}`, v])) });

  /** What the policy's steps find in `values`, as sets. */
  async function judge(values: string[]): Promise<{ malformed: string[]; outside: string[] }> {
    const res = await dryRun(ns, configMap(values), 'admin');
    if (res.code === 0) return { malformed: [], outside: [] };
    const m = /malformed<(.*)> outside<(.*)>/s.exec(res.stderr);
    if (!m) throw new Error(`not the test policy's refusal: ${res.stderr}`);
    const set = (s: string) => (s === '' ? [] : s.split('|')).sort();
    return { malformed: set(m[1]!), outside: set(m[2]!) };
  }

  beforeAll(async () => {
    accepted(await kubectl('admin', ['create', 'namespace', ns]));
    await applyObject(policy);
    await applyObject(binding);
    await waitFor('kube-apiserver enforcing the test policy', async () => (await dryRun(ns, configMap(['x']), 'admin')).stderr.includes('malformed<x>'), 60_000, 250);
  });
  afterAll(async () => {
    await kubectl('admin', ['delete', 'validatingadmissionpolicybinding,validatingadmissionpolicy', id, '--wait=false']);
    await kubectl('admin', ['delete', 'namespace', ns, '--wait=false']);
  });

  it('reads exactly the addresses of the table, refusing every other one (the sloppy forms among them)', async () => {
    const { malformed } = await judge(ADDRESSES.map((a) => a.text));
    expect(malformed).toEqual(ADDRESSES.filter((a) => !a.valid).map((a) => a.text).sort());
  });

  it('allows an address only inside a listed CIDR of its own family', async () => {
    const inside = ['198.51.100.0', '198.51.100.255', '2001:db8:51::1', '2001:DB8:51:0::ABCD', '2001:db8:0051:ffff::1'];
    const outside = ['198.51.101.0', '198.51.99.255', '2001:db8:52::', '::c633:6401', '0.0.0.0'];
    expect(await judge([...inside, ...outside, '::ffff:198.51.100.1'])).toEqual({ malformed: ['::ffff:198.51.100.1'], outside: [...outside].sort() });
  });

  it('the Tenant CRD takes exactly the CIDRs of the table that are networks', async () => {
    const res = await dryRun('default', tenant(uniqueName('svc-cidrs'), { services: { externalIPs: { allowed: CIDRS.map((c) => c.text) } } }), 'admin');
    expect(res.code).not.toBe(0);
    const refusedAt = [...res.stderr.matchAll(/spec\.services\.externalIPs\.allowed\[(\d+)\]/g)].map((m) => Number(m[1]));
    expect([...new Set(refusedAt)].sort((a, b) => a - b)).toEqual(CIDRS.flatMap((c, i) => (c.verdict === 'ok' ? [] : [i])));
    accepted(await dryRun('default', tenant(uniqueName('svc-cidrs'), { services: { externalIPs: { allowed: CIDRS.filter((c) => c.verdict === 'ok').map((c) => c.text) } } }), 'admin'));
  });
});
