// Writes the manifests generated from the code (`npm run gen:manifests`): the Tenant CRD
// (schemas/tenant-crd.yaml), Paddock's own RBAC (apiservice/rbac.yaml) and the shipped tenant roles
// (apiservice/tenant-roles.yaml). Unit tests fail when a file and the code disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFESTS } from '../src/rbac/manifests';
import { TENANT_CRD_MANIFEST } from '../src/tenancy/schema/manifest';

for (const manifest of [TENANT_CRD_MANIFEST, ...MANIFESTS]) writeFileSync(join(__dirname, '..', manifest.path), manifest.text());
