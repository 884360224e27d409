// Writes src/api/openapi/meta-schemas.ts from a running kube-apiserver (`npm run gen:meta-schemas`):
// the meta.k8s.io schemas Paddock's OpenAPI documents reference, exactly as that kube-apiserver
// publishes them. Start the test bed first (`npm run demo -- --detach`), or pass another cluster's
// admin kubeconfig with --kubeconfig. An integration test fails when the file is not what this writes
// for the test bed's kube-apiserver.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { metaDefinitionsV2, metaSchemasV3, renderMetaSchemas } from '../test/controlplane/openapi-meta';

const at = process.argv.indexOf('--kubeconfig');
const kubeconfig = at > 0 ? process.argv[at + 1] : join(__dirname, '..', '.paddock', 'kubeconfig-admin');
const raw = (path: string) => execFileSync('kubectl', ['--kubeconfig', kubeconfig, 'get', '--raw', path], { encoding: 'utf8', maxBuffer: 256 << 20 });
const get = async (path: string) => JSON.parse(raw(path));

async function main(): Promise<void> {
  const version = (await get('/version')).gitVersion as string;
  const text = renderMetaSchemas(await metaDefinitionsV2(get), await metaSchemasV3(get), version);
  writeFileSync(join(__dirname, '..', 'src', 'api', 'openapi', 'meta-schemas.ts'), text);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
