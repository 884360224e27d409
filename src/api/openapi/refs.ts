/** OpenAPI v2 references `#/definitions/<name>`; v3 `#/components/schemas/<name>`. */
export type Flavor = 'v2' | 'v3';

export function refPath(name: string, flavor: Flavor): string {
  return flavor === 'v2' ? `#/definitions/${name}` : `#/components/schemas/${name}`;
}
