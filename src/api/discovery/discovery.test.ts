import { TENANT_NAMESPACES } from '../resources/tenantnamespaces/names';
import { createHash } from 'node:crypto';
import { buildDiscoveryDocuments, serveDiscovery } from './index';

const docs = buildDiscoveryDocuments([TENANT_NAMESPACES]);
const V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';
const json = (body: Buffer | undefined) => JSON.parse(body!.toString('utf8'));

describe('discovery', () => {
  it('lists tenantnamespaces with exactly the verbs that work', () => {
    const res = serveDiscovery(docs, { path: '/apis/tenancy.paddock.dev/v1alpha1' })!;
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe('application/json');
    expect(json(res.body)).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'tenancy.paddock.dev/v1alpha1',
      resources: [
        {
          name: 'tenantnamespaces',
          singularName: 'tenantnamespace',
          namespaced: false,
          kind: 'TenantNamespace',
          verbs: ['create', 'delete', 'get', 'list', 'watch'],
          shortNames: ['tns'],
          categories: ['paddock'],
        },
      ],
    });
  });

  it('describes the group and the group list', () => {
    const preferred = { groupVersion: 'tenancy.paddock.dev/v1alpha1', version: 'v1alpha1' };
    expect(json(serveDiscovery(docs, { path: '/apis/tenancy.paddock.dev' })!.body)).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'tenancy.paddock.dev',
      versions: [preferred],
      preferredVersion: preferred,
    });
    expect(json(serveDiscovery(docs, { path: '/apis', accept: 'application/json, */*' })!.body)).toEqual({
      kind: 'APIGroupList',
      apiVersion: 'v1',
      groups: [{ name: 'tenancy.paddock.dev', versions: [preferred], preferredVersion: preferred }],
    });
  });

  it('answers kube-aggregator with aggregated discovery v2, an ETag that hashes the bytes, and 304 when unchanged', () => {
    const res = serveDiscovery(docs, { path: '/apis', accept: `${V2},${V2BETA1}` })!;
    expect(res.status).toBe(200);
    expect(res.headers['Content-Type']).toBe(V2);
    expect(res.headers['Vary']).toBe('Accept');
    expect(res.headers['Cache-Control']).toBe('public');
    const hash = createHash('sha512').update(res.body!).digest('hex').toUpperCase();
    expect(res.headers['ETag']).toBe(`"${hash}"`);
    expect(json(res.body)).toEqual({
      kind: 'APIGroupDiscoveryList',
      apiVersion: 'apidiscovery.k8s.io/v2',
      metadata: {},
      items: [
        {
          metadata: { name: 'tenancy.paddock.dev' },
          versions: [
            {
              version: 'v1alpha1',
              resources: [
                {
                  resource: 'tenantnamespaces',
                  responseKind: { group: 'tenancy.paddock.dev', version: 'v1alpha1', kind: 'TenantNamespace' },
                  scope: 'Cluster',
                  singularResource: 'tenantnamespace',
                  verbs: ['create', 'delete', 'get', 'list', 'watch'],
                  shortNames: ['tns'],
                  categories: ['paddock'],
                },
              ],
              freshness: 'Current',
            },
          ],
        },
      ],
    });

    const again = serveDiscovery(docs, { path: '/apis', accept: V2, ifNoneMatch: res.headers['ETag'] })!;
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect(again.headers['ETag']).toBe(res.headers['ETag']);
  });

  it('keeps the ETag stable across builds', () => {
    expect(buildDiscoveryDocuments([TENANT_NAMESPACES]).aggregated.v2.hash).toBe(docs.aggregated.v2.hash);
  });

  it('serves v2beta1 to clients that ask for it first', () => {
    const res = serveDiscovery(docs, { path: '/apis', accept: `${V2BETA1},application/json` })!;
    expect(res.headers['Content-Type']).toBe(V2BETA1);
    expect(json(res.body).apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
  });

  it('answers the legacy APIGroupList when Accept asks for a version it does not serve', () => {
    const res = serveDiscovery(docs, { path: '/apis', accept: 'application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList,application/json' })!;
    expect(json(res.body).kind).toBe('APIGroupList');
  });

  it('answers 406 when plain JSON is not acceptable', () => {
    const res = serveDiscovery(docs, { path: '/apis/tenancy.paddock.dev/v1alpha1', accept: 'application/vnd.kubernetes.protobuf' })!;
    expect(res.status).toBe(406);
    expect(json(res.body)).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
  });

  it('ignores a trailing slash and leaves other paths alone', () => {
    expect(serveDiscovery(docs, { path: '/apis/tenancy.paddock.dev/v1alpha1/' })!.status).toBe(200);
    expect(serveDiscovery(docs, { path: '/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces' })).toBeUndefined();
    expect(serveDiscovery(docs, { path: '/api' })).toBeUndefined();
  });
});
