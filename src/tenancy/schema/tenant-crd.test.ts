import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { RESTRICTIONS } from '../restrictions/registry';
import { TENANT_CRD_MANIFEST } from './manifest';
import { tenantCrd } from './tenant-crd';

const ROOT = join(__dirname, '..', '..', '..');
const spec = (crd: any) => crd.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties;

describe('the Tenant CRD', () => {
  it('is what the code generates (regenerate with npm run gen:manifests)', () => {
    expect(readFileSync(join(ROOT, TENANT_CRD_MANIFEST.path), 'utf8')).toBe(TENANT_CRD_MANIFEST.text());
  });

  it('reads back as the object of the code', () => {
    expect(load(TENANT_CRD_MANIFEST.text())).toEqual(JSON.parse(JSON.stringify(tenantCrd())));
  });

  it('states each restriction field as its module does, and lists resolved names for those that resolve them', () => {
    const crd = tenantCrd() as any;
    for (const r of RESTRICTIONS) expect(spec(crd)[r.field]).toBe(r.schema);
    const allowed = Object.keys(crd.spec.versions[0].schema.openAPIV3Schema.properties.status.properties.allowed.properties);
    expect(allowed).toEqual(RESTRICTIONS.filter((r) => r.resolvesNames).map((r) => r.field));
  });
});
