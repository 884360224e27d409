import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { RESTRICTIONS } from '../restrictions/registry';
import { CRD_MANIFESTS } from './manifest';
import { restrictionCrd } from './restriction-crd';
import { tenantCrd } from './tenant-crd';

const ROOT = join(__dirname, '..', '..', '..');
const spec = (crd: any) => crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;

describe.each(CRD_MANIFESTS)('the CRD of $path', (manifest) => {
  it('is what the code generates (regenerate with npm run gen:manifests)', () => {
    expect(readFileSync(join(ROOT, manifest.path), 'utf8')).toBe(manifest.text());
  });

  it('reads back as the object of the code, under the name it is waited for by', () => {
    expect(load(manifest.text())).toEqual(JSON.parse(JSON.stringify(manifest.crd())));
    expect((manifest.crd() as any).metadata.name).toBe(manifest.name);
  });

  it('is applied by the schemas kustomization', () => {
    expect(load(readFileSync(join(ROOT, 'schemas', 'kustomization.yaml'), 'utf8'))).toMatchObject({ resources: expect.arrayContaining([manifest.path.replace('schemas/', '')]) });
  });
});

describe('the Tenant CRD', () => {
  it('states each restriction field as its module does, and lists resolved names for those that resolve them', () => {
    const crd = tenantCrd() as any;
    for (const r of RESTRICTIONS) expect(spec(crd)[r.field]).toBe(r.schema);
    const allowed = Object.keys(crd.spec.versions[0].schema.openAPIV3Schema.properties.status.properties.allowed.properties);
    expect(allowed).toEqual(RESTRICTIONS.filter((r) => r.resolvesNames).map((r) => r.field));
  });
});

describe('the TenantRestriction CRD', () => {
  it("holds the tenant's name, each restriction field as its module states it, and the names the tenant's selectors resolve to", () => {
    const fields = spec(restrictionCrd());
    expect(Object.keys(fields)).toEqual(['tenant', ...RESTRICTIONS.map((r) => r.field), 'allowed', 'hostnameHolders']);
    for (const r of RESTRICTIONS) expect(fields[r.field]).toBe(r.schema);
    expect(Object.keys(fields.allowed.properties)).toEqual(RESTRICTIONS.filter((r) => r.resolvesNames).map((r) => r.field));
    // The hostname ledger's one field (hostnames/ledger.ts): pattern → tenant.
    expect(fields.hostnameHolders).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
  });
});
