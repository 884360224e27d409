import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { META_DEFINITIONS_V2, META_SCHEMAS_V3 } from '../../src/api/openapi/meta-schemas';
import { metaDefinitionsV2, metaSchemasV3, renderMetaSchemas } from '../controlplane/openapi-meta';
import { kubectl } from './env';

jest.setTimeout(120_000);

/**
 * The meta.k8s.io schemas Paddock serves in its OpenAPI documents are kube-apiserver's own, name for
 * name and field for field, as the pinned kube-apiserver of the test bed publishes them: kube-aggregator
 * would rename a definition that differs (and `kubectl explain` would show Paddock's copy).
 */
async function get(path: string): Promise<any> {
  const res = await kubectl('admin', ['get', '--raw', path]);
  if (res.code !== 0) throw new Error(`GET ${path}: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

const FILE = join(__dirname, '..', '..', 'src', 'api', 'openapi', 'meta-schemas.ts');

describe("the meta.k8s.io schemas Paddock serves are kube-apiserver's", () => {
  let v2: Record<string, unknown>;
  let v3: Record<string, unknown>;
  beforeAll(async () => {
    [v2, v3] = [await metaDefinitionsV2(get), await metaSchemasV3(get)];
  });

  it('OpenAPI v2 definitions', () => {
    expect(META_DEFINITIONS_V2).toEqual(v2);
  });

  it('OpenAPI v3 component schemas', () => {
    expect(META_SCHEMAS_V3).toEqual(v3);
  });

  it('and the file is exactly what `npm run gen:meta-schemas` writes for this kube-apiserver', async () => {
    const expected = renderMetaSchemas(v2, v3, (await get('/version')).gitVersion);
    if (readFileSync(FILE, 'utf8') !== expected) {
      // What the generator would write, to compare or copy over.
      mkdirSync(join(__dirname, '..', '..', '.paddock'), { recursive: true });
      writeFileSync(join(__dirname, '..', '..', '.paddock', 'meta-schemas.expected.ts'), expected);
    }
    expect(readFileSync(FILE, 'utf8')).toBe(expected);
  });
});
