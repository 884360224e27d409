/** An OpenAPI v3 schema as a CRD states it (JSONSchemaProps), kept loose: the CRD's own test reads it back. */
export type Schema = Record<string, unknown>;
