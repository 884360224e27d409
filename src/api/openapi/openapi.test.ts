import type { TenantNamespace } from '../../kube/types';
import { createHash } from 'node:crypto';
import { META_DEFINITIONS_V2 } from './meta-schemas';
import { tenantNamespacesResource } from '../resources/tenantnamespaces/registration';
import type { SelfService } from '../resources/tenantnamespaces/self-service';
import type { RowStorage } from '../storage/row-storage';
import { DEFINITION } from '../resources/tenantnamespaces/tenant-namespace-schemas';
import { buildOpenAPIDocuments, serveOpenAPI } from './index';

type Obj = Record<string, any>;
// The documents come from the registrations alone (names, schemas, verbs); no rows are read.
const docs = buildOpenAPIDocuments([tenantNamespacesResource({} as RowStorage<TenantNamespace>, {} as SelfService)]);
const parse = (b: Buffer | undefined): Obj => JSON.parse(b!.toString('utf8'));
const v2 = parse(docs.v2.body);
const v3 = parse(docs.v3GroupVersion.body);

/** Every `$ref` in a document. */
function refs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refs(v, out);
    }
  }
  return out;
}

/** Follows `$ref` or a single-element `allOf`, as kubectl explain's template does. */
function resolve(doc: Obj, schema: Obj): Obj {
  const ref: string | undefined = schema['$ref'] ?? schema['allOf']?.[0]?.['$ref'];
  if (!ref) return schema;
  return doc['components']['schemas'][ref.replace('#/components/schemas/', '')];
}

describe('OpenAPI v3 for kubectl explain', () => {
  const listGet = v3['paths']['/apis/tenancy.paddock.dev/v1alpha1/tenantnamespaces']['get'];

  it('names the kind of tenantnamespaces on the collection path', () => {
    expect(listGet['x-kubernetes-group-version-kind']).toEqual({ group: 'tenancy.paddock.dev', kind: 'TenantNamespace', version: 'v1alpha1' });
    expect(listGet['x-kubernetes-action']).toBe('list');
  });

  it('finds TenantNamespace by its GVK and explains status.quota', () => {
    const schemas: Obj = v3['components']['schemas'];
    const [name, root] = Object.entries(schemas).find(([, s]) =>
      (s as Obj)['x-kubernetes-group-version-kind']?.some((g: Obj) => g['kind'] === 'TenantNamespace' && g['group'] === 'tenancy.paddock.dev'),
    )!;
    expect(name).toBe(DEFINITION.tenantNamespace);
    const status = resolve(v3, root['properties']['status']);
    const quota = root['properties']['status'] && status['properties']['quota'];
    expect(quota['description']).toMatch(/most restrictive hard limit/);
    const quotaSchema = resolve(v3, quota);
    expect(quotaSchema['properties']['hard']['description']).toMatch(/resource name/);
    expect(resolve(v3, root['properties']['metadata'])['description']).toMatch(/^ObjectMeta is metadata/);
    expect(resolve(v3, root['properties']['spec'])['properties']['tenant']['description']).toMatch(/Tenant/);
  });

  it('resolves every reference, meta.k8s.io ones included', () => {
    const schemas = v3['components']['schemas'];
    for (const ref of refs(v3)) expect(schemas).toHaveProperty([ref.replace('#/components/schemas/', '')]);
    expect(schemas).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    expect(schemas).toHaveProperty(['io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta']);
  });

  it('has get, list, create and delete operations, and a PATCH that tells kubectl fields are validated on the server', () => {
    const actions = Object.values(v3['paths'] as Obj).flatMap((p: Obj) => Object.values(p).map((op: Obj) => op['x-kubernetes-action']).filter(Boolean));
    expect(actions.sort()).toEqual(['delete', 'get', 'list', 'patch', 'post']);
    const patch = Object.values(v3['paths'] as Obj).map((p: Obj) => p['patch']).find(Boolean);
    expect(patch['parameters'].map((q: Obj) => q['name'])).toContain('fieldValidation');
  });
});

describe('OpenAPI v2 for kube-aggregator', () => {
  it('describes TenantNamespace and TenantNamespaceList with their GVKs', () => {
    expect(v2['swagger']).toBe('2.0');
    expect(v2['definitions'][DEFINITION.tenantNamespace]['x-kubernetes-group-version-kind']).toEqual([{ group: 'tenancy.paddock.dev', kind: 'TenantNamespace', version: 'v1alpha1' }]);
    expect(v2['definitions'][DEFINITION.tenantNamespaceList]['x-kubernetes-group-version-kind']).toEqual([
      { group: 'tenancy.paddock.dev', kind: 'TenantNamespaceList', version: 'v1alpha1' },
    ]);
    expect(v2['definitions'][DEFINITION.tenantNamespace]['properties']['metadata']).toEqual({
      $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      description: expect.stringContaining("Standard object's metadata"),
    });
  });

  it('resolves every reference', () => {
    for (const ref of refs(v2)) expect(v2['definitions']).toHaveProperty([ref.replace('#/definitions/', '')]);
  });

  it('publishes meta.k8s.io definitions equal to kube-apiserver’s, so the aggregator does not rename them', () => {
    expect(v2['definitions']['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']).toEqual(META_DEFINITIONS_V2['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']);
    expect(v2['definitions']['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'tenancy.paddock.dev', kind: 'DeleteOptions', version: 'v1alpha1' },
    ]);
  });
});

describe('serveOpenAPI', () => {
  it('lists the group version in the v3 index with the hash of its document', () => {
    const res = serveOpenAPI(docs, { path: '/openapi/v3' })!;
    const hash = createHash('sha512').update(docs.v3GroupVersion.body).digest('hex').toUpperCase();
    expect(parse(res.body)).toEqual({
      paths: { 'apis/tenancy.paddock.dev/v1alpha1': { serverRelativeURL: `/openapi/v3/apis/tenancy.paddock.dev/v1alpha1?hash=${hash}` } },
    });
    expect(res.headers['ETag']).toBe(`"${docs.v3Index.hash}"`);
  });

  it('serves the group version immutably for its hash and redirects a stale hash', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const ok = serveOpenAPI(docs, { path: '/openapi/v3/apis/tenancy.paddock.dev/v1alpha1', hash: docs.v3GroupVersion.hash, accept: 'application/json' }, now)!;
    expect(ok.status).toBe(200);
    expect(ok.headers).toMatchObject({ 'Content-Type': 'application/json', 'Cache-Control': 'public, immutable', Vary: 'Accept', Expires: 'Sat, 02 Jan 2027 00:00:00 GMT' });
    const stale = serveOpenAPI(docs, { path: '/openapi/v3/apis/tenancy.paddock.dev/v1alpha1', hash: 'OLD' })!;
    expect(stale.status).toBe(301);
    expect(stale.headers['Location']).toBe(`/openapi/v3/apis/tenancy.paddock.dev/v1alpha1?hash=${docs.v3GroupVersion.hash}`);
  });

  it('answers v2 with an ETag and 304 when unchanged, 406 for protobuf only', () => {
    const res = serveOpenAPI(docs, { path: '/openapi/v2', accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json' })!;
    expect(res.status).toBe(200);
    expect(serveOpenAPI(docs, { path: '/openapi/v2', ifNoneMatch: res.headers['ETag'] })!.status).toBe(304);
    expect(serveOpenAPI(docs, { path: '/openapi/v2', accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' })!.status).toBe(406);
    expect(serveOpenAPI(docs, { path: '/openapi/v4' })).toBeUndefined();
  });
});
