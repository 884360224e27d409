// Writes the manifests generated from the code (`npm run gen:manifests`): the CRDs (schemas/),
// Paddock's own RBAC (apiservice/rbac.yaml), the shipped tenant roles (apiservice/tenant-roles.yaml) and
// the Helm chart's copies of them (charts/paddock/crds, templates/rbac.yaml, templates/tenant-roles.yaml). Unit tests fail when a file and the code disagree.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHART_MANIFESTS } from '../src/rbac/chart-manifests';
import { MANIFESTS } from '../src/rbac/manifests';
import { CRD_MANIFESTS } from '../src/tenancy/schema/manifest';

for (const manifest of [...CRD_MANIFESTS, ...MANIFESTS, ...CHART_MANIFESTS]) writeFileSync(join(__dirname, '..', manifest.path), manifest.text());
