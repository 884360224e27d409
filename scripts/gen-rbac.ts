// Writes the RBAC manifests of apiservice/ from the code (`npm run gen:rbac`): Paddock's own ClusterRole
// and bindings (rbac.yaml) and the shipped tenant roles (tenant-roles.yaml). A unit test fails when a
// file and the code disagree (src/rbac/manifests.test.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFESTS } from '../src/rbac/manifests';

for (const manifest of MANIFESTS) writeFileSync(join(__dirname, '..', manifest.path), manifest.text());
