import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { DEFAULT_BINDABLE_CLUSTER_ROLES } from '../tenancy/bindable';
import { CRD_MANIFESTS } from '../tenancy/schema/manifest';
import { CHART_MANIFESTS } from './chart-manifests';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe.each(CHART_MANIFESTS.map((m) => [m.path, m] as const))('%s', (path, manifest) => {
  it('is what the code generates (regenerate with npm run gen:manifests)', () => {
    expect(read(path)).toBe(manifest.text());
  });
});

describe('the chart', () => {
  it('ships each CRD of schemas/ in crds/, byte for byte', () => {
    for (const crd of CRD_MANIFESTS) expect(read(`charts/paddock/crds/${crd.path.split('/').pop()!}`)).toBe(read(crd.path));
  });

  it('defaults bindableClusterRoles to the flag\'s default, which the Deployment template leaves out when they agree', () => {
    const values = load(read('charts/paddock/values.yaml')) as { bindableClusterRoles: string[] };
    expect(values.bindableClusterRoles).toEqual(DEFAULT_BINDABLE_CLUSTER_ROLES);
    expect(read('charts/paddock/templates/deployment.yaml')).toContain(`{{- if ne $roles "${DEFAULT_BINDABLE_CLUSTER_ROLES.join(',')}" }}`);
  });

  it('has values that its values.schema.json describes, key for key', () => {
    const values = load(read('charts/paddock/values.yaml')) as Record<string, unknown>;
    const schema = JSON.parse(read('charts/paddock/values.schema.json')) as { properties: Record<string, unknown> };
    expect(Object.keys(values).filter((k) => !(k in schema.properties))).toEqual([]);
  });
});
