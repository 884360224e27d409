import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import type { PolicyRule } from '../kube/types';
import { GUARDRAILS } from '../tenancy';
import { MANIFESTS } from './manifests';
import { paddockRbac, paddockRules, type RoleRule } from './paddock-rbac';

const ROOT = join(__dirname, '..', '..');
const withoutWhy = ({ why: _why, ...rule }: RoleRule): PolicyRule => rule;

describe.each(MANIFESTS.map((m) => [m.path, m] as const))('%s', (path, manifest) => {
  it('is what the code generates (regenerate with npm run gen:manifests)', () => {
    expect(readFileSync(join(ROOT, path), 'utf8')).toBe(manifest.text());
  });
});

describe('apiservice/rbac.yaml', () => {
  const installed = loadAll(MANIFESTS.find((m) => m.path === 'apiservice/rbac.yaml')!.text()) as { kind: string; rules?: PolicyRule[] }[];

  it('reads back as the objects of the code, each rule as it is declared', () => {
    const expected = paddockRbac().map(({ object }) => (object.rules ? { ...object, rules: object.rules.map(withoutWhy) } : object));
    expect(installed).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('grants Paddock all each guardrail kind asks for', () => {
    for (const need of GUARDRAILS.flatMap((kind) => kind.rbac.rules)) {
      expect(installed[0]!.rules).toContainEqual({ apiGroups: need.apiGroups, resources: expect.arrayContaining(need.resources ?? []), verbs: need.verbs });
    }
  });

  it('uses no wildcard in any group, resource, name or verb', () => {
    for (const r of paddockRules()) {
      for (const value of [...(r.apiGroups ?? []), ...(r.resources ?? []), ...(r.resourceNames ?? []), ...r.verbs]) expect(value).not.toContain('*');
      expect(r.nonResourceURLs).toBeUndefined();
    }
  });
});
