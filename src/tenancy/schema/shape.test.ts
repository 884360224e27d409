import type { Schema } from './schema';
import { TENANT_SPEC_SHAPE, TENANT_STATUS_SHAPE } from './shape';
import { tenantCrd } from './tenant-crd';

/**
 * The CRD schema and the TypeScript types agree field by field: every field of the types is in the
 * schema with the same JSON kind, and the schema has no field the types lack. (shape.ts keeps the
 * shapes equal to the types at compile time.)
 */
function disagreements(shape: unknown, schema: Schema | undefined, path: string): string[] {
  if (!schema) return [`${path}: in the types, not in the schema`];
  const type = schema.type as string | undefined;
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  if (Array.isArray(shape)) {
    return type === 'array' ? disagreements(shape[0], schema.items as Schema, `${path}[]`) : [`${path}: an array in the types, ${type} in the schema`];
  }
  if (shape === 'map') {
    return type === 'object' && schema.additionalProperties ? [] : [`${path}: a map in the types, not in the schema`];
  }
  if (shape === 'object') return type === 'object' ? [] : [`${path}: an object in the types, ${type} in the schema`];
  if (typeof shape === 'string') return type === shape || (intOrString && shape === 'string') ? [] : [`${path}: ${shape} in the types, ${type} in the schema`];
  const fields = shape as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  if (type !== 'object') return [`${path}: an object in the types, ${type} in the schema`];
  return [
    ...Object.keys(fields).flatMap((k) => disagreements(fields[k], properties[k], `${path}.${k}`)),
    ...Object.keys(properties).filter((k) => !(k in fields)).map((k) => `${path}.${k}: in the schema, not in the types`),
  ];
}

const root = (tenantCrd() as any).spec.versions[0].schema.openAPIV3Schema.properties;

describe('the Tenant CRD schema and the TypeScript types', () => {
  it('agree on spec, field by field', () => {
    expect(disagreements(TENANT_SPEC_SHAPE, root.spec, 'spec')).toEqual([]);
  });

  it('agree on status, field by field', () => {
    expect(disagreements(TENANT_STATUS_SHAPE, root.status, 'status')).toEqual([]);
  });

  it('would find a field that one has and the other lacks', () => {
    expect(disagreements({ ...TENANT_SPEC_SHAPE, extra: 'string' }, root.spec, 'spec')).toEqual(['spec.extra: in the types, not in the schema']);
    const { deletionPolicy: _gone, ...fewer } = TENANT_SPEC_SHAPE;
    expect(disagreements(fewer, root.spec, 'spec')).toEqual(['spec.deletionPolicy: in the schema, not in the types']);
  });
});
