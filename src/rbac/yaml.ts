/**
 * Writes RBAC manifests in the compact style a reader reviews (`verbs: [get, list]`, one line a rule
 * field), with each document's and each rule's reason as a comment above it. Only the shapes of
 * paddock-rbac.ts are written; js-yaml reads the result back as the same objects (manifests.test.ts).
 */
import type { Document, RoleRule } from './paddock-rbac';

/** A scalar plain where YAML reads it back as the same string, quoted otherwise. */
function scalar(value: string): string {
  const plain = /^[A-Za-z0-9][A-Za-z0-9._/:-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|~|[-+]?[0-9.][0-9._]*([eE][-+]?[0-9]+)?)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

const list = (values: readonly string[]) => `[${values.map(scalar).join(', ')}]`;
const map = (entries: Record<string, string | undefined>) =>
  `{${Object.entries(entries).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${scalar(v!)}`).join(', ')}}`;
const comment = (why: string | undefined, indent = '') => (why === undefined ? [] : why.split('\n').map((line) => `${indent}# ${line}`.trimEnd()));

function rule(r: RoleRule): string[] {
  const fields = [
    r.apiGroups && `apiGroups: ${list(r.apiGroups)}`,
    r.resources && `resources: ${list(r.resources)}`,
    r.resourceNames && `resourceNames: ${list(r.resourceNames)}`,
    r.nonResourceURLs && `nonResourceURLs: ${list(r.nonResourceURLs)}`,
    `verbs: ${list(r.verbs)}`,
  ].filter((f): f is string => typeof f === 'string');
  return [...comment(r.why), ...fields.map((f, i) => `${i === 0 ? '-' : ' '} ${f}`)];
}

function document({ why, object: o }: Document): string {
  const lines = [...comment(why), `apiVersion: ${scalar(o.apiVersion!)}`, `kind: ${scalar(o.kind!)}`, 'metadata:', `  name: ${scalar(o.metadata.name)}`];
  if (o.metadata.namespace !== undefined) lines.push(`  namespace: ${scalar(o.metadata.namespace)}`);
  if (o.rules) lines.push('rules:', ...o.rules.flatMap(rule));
  if (o.roleRef) lines.push(`roleRef: ${map({ ...o.roleRef })}`);
  if (o.subjects) lines.push('subjects:', ...o.subjects.map((s) => `- ${map({ kind: s.kind, apiGroup: s.apiGroup, name: s.name, namespace: s.namespace })}`));
  return `${lines.join('\n')}\n`;
}

/** The manifest: `header` as a comment, then the documents separated by `---`. */
export function rbacYaml(header: string, documents: readonly Document[]): string {
  return [...comment(header), ''].join('\n') + documents.map(document).join('---\n');
}
