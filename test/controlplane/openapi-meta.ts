/**
 * The meta.k8s.io schemas Paddock's OpenAPI documents reference, read from a running kube-apiserver:
 * the source of src/api/openapi/meta-schemas.ts (written by `npm run gen:meta-schemas`) and the oracle
 * its integration test compares it with. kube-aggregator merges the OpenAPI v2 documents of aggregated
 * servers and renames a definition that differs from its own, so these must equal kube-apiserver's.
 */

/** The types Paddock's documents name; everything they reference comes along. */
export const META_ROOTS = [
  'io.k8s.apimachinery.pkg.api.resource.Quantity',
  'io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition',
  'io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Status',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent',
] as const;

type Schemas = Record<string, unknown>;
/** GETs a path of kube-apiserver and returns its parsed JSON body. */
export type GetJson = (path: string) => Promise<any>;

/** Every `$ref` target under `node`, by its last path segment. */
function refsOf(node: unknown, out: Set<string>): Set<string> {
  if (Array.isArray(node)) for (const n of node) refsOf(n, out);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.add(v.slice(v.lastIndexOf('/') + 1));
      else refsOf(v, out);
    }
  }
  return out;
}

/** `roots` and every schema they reference, in name order; throws when one is not in `lookup`. */
export function closure(roots: readonly string[], lookup: (name: string) => unknown): Schemas {
  const found = new Map<string, unknown>();
  const todo = [...roots];
  while (todo.length) {
    const name = todo.pop()!;
    if (found.has(name)) continue;
    const schema = lookup(name);
    if (schema === undefined) throw new Error(`kube-apiserver publishes no schema ${name}`);
    found.set(name, schema);
    todo.push(...refsOf(schema, new Set()));
  }
  return Object.fromEntries([...found].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const GVK = 'x-kubernetes-group-version-kind';
const PADDOCK_GROUP = 'tenancy.paddock.dev';

/**
 * `schema` as kube-apiserver itself defines it: where kube-aggregator has merged Paddock's document into
 * its own (Paddock registered), the kinds of Paddock's group that it added to a type's group-version-kinds
 * are taken out again.
 */
function withoutPaddock(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || !Array.isArray((schema as Record<string, unknown>)[GVK])) return schema;
  const gvks = (schema as Record<string, { group?: string }[]>)[GVK].filter((g) => g.group !== PADDOCK_GROUP);
  return { ...schema, [GVK]: gvks };
}

/** The v2 definitions, from `/openapi/v2`. */
export async function metaDefinitionsV2(get: GetJson): Promise<Schemas> {
  const doc = await get('/openapi/v2');
  return closure(META_ROOTS, (n) => withoutPaddock(doc.definitions?.[n]));
}

/** A schema without its group-version-kinds, which each group's v3 document lists for its own group. */
function shape(schema: unknown): string {
  const { [GVK]: _gvks, ...rest } = schema as Record<string, unknown>;
  return JSON.stringify(rest);
}

/**
 * The v3 schemas: kube-apiserver publishes one document per group version, each with the meta types it
 * uses (Condition only where a type has conditions) and, on the kinds shared by every group
 * (DeleteOptions, WatchEvent), that group's own group-version-kinds. Each schema is taken from the first
 * document in path order that has it (`api/v1` first) — and every document that has it must agree on
 * all but those group-version-kinds, or the oracle is not one.
 */
export async function metaSchemasV3(get: GetJson): Promise<Schemas> {
  const index = await get('/openapi/v3');
  const seen = new Map<string, { schema: unknown; from: string }>();
  for (const path of Object.keys(index.paths ?? {}).sort()) {
    if (path.startsWith('apis/tenancy.paddock.dev')) continue; // Paddock's own, aggregated
    const doc = await get(`/openapi/v3/${path}`);
    for (const [name, schema] of Object.entries<unknown>(doc.components?.schemas ?? {})) {
      const first = seen.get(name);
      if (!first) seen.set(name, { schema, from: path });
      else if (name.startsWith('io.k8s.apimachinery.') && shape(first.schema) !== shape(schema)) {
        throw new Error(`${name} differs between /openapi/v3/${first.from} and /openapi/v3/${path}`);
      }
    }
  }
  return closure(META_ROOTS, (n) => seen.get(n)?.schema);
}

/** The text of src/api/openapi/meta-schemas.ts for these schemas of kube-apiserver `version`. */
export function renderMetaSchemas(v2: Schemas, v3: Schemas, version: string): string {
  return `/**
 * Schemas of the meta.k8s.io/v1 types that Paddock's OpenAPI documents reference (${META_ROOTS.map((n) => n.slice(n.lastIndexOf('.') + 1)).join(', ')}
 * and what they reference), exactly as kube-apiserver ${version} publishes them. They must stay equal to
 * kube-apiserver's: kube-aggregator merges the OpenAPI v2 documents of aggregated servers and renames
 * any definition that differs from its own.
 * Generated by \`npm run gen:meta-schemas\` from a running kube-apiserver; do not edit by hand.
 */

export const META_DEFINITIONS_V2: Readonly<Record<string, unknown>> = ${JSON.stringify(v2, null, 2)};

export const META_SCHEMAS_V3: Readonly<Record<string, unknown>> = ${JSON.stringify(v3, null, 2)};
`;
}
