/**
 * A Table of a custom resource exactly as kube-apiserver prints one from its CRD's
 * additionalPrinterColumns (k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor):
 * Name first, then each column — its description, or `Custom resource definition column (in JSONPath
 * format): <path>` when it has none — and each cell the column's JSONPath's first value, typed by the
 * column's type: integer and number cells are numbers, boolean cells booleans, date cells the age,
 * string cells the value as text. A value that is absent, or not of the column's type, is a null cell.
 */
import type { KubeObject } from '../../kube/types';
import type { TableConvertor } from '../registration/served-resource';
import { AGE_COLUMN, ageColumn, column, NAME_COLUMN, type TableColumnDefinition } from './columns';
import { humanDuration } from './duration';
import { compileJsonPath } from './jsonpath';

/** One additionalPrinterColumns entry of a CRD version. */
export interface CrdPrinterColumn {
  name: string;
  type: 'integer' | 'number' | 'string' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

/** The columns a CRD without additionalPrinterColumns prints: Age, as kube-apiserver's CRD handler adds it. */
const DEFAULT_COLUMNS: readonly CrdPrinterColumn[] = [{ name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp', description: AGE_COLUMN.description }];

/** A date cell: the age of an RFC 3339 time, `<invalid>` when it is not one. */
function ageOf(value: string, now: Date): string {
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/^\d{4}-\d\d-\d\dT/.test(value)) return '<invalid>';
  return humanDuration(now.getTime() - at);
}

/** A cell of a column that is not a string: cellForJSONValue's rules. */
function typedCell(type: CrdPrinterColumn['type'], value: unknown, now: Date): unknown {
  switch (type) {
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'date':
      return typeof value === 'string' ? ageOf(value, now) : null;
    default:
      return null;
  }
}

/**
 * A string cell: the value as client-go's JSONPath PrintResults writes it — text as it is, numbers and
 * booleans as text, maps and lists as Go's json.Marshal writes them (keys sorted, <, > and & escaped).
 */
function textCell(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return goJson(value);
}

/** encoding/json's Marshal of a decoded JSON value. */
function goJson(value: unknown): string {
  const sorted = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sorted);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted((v as Record<string, unknown>)[k])]));
    return v;
  };
  return JSON.stringify(sorted(value)).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The TableConvertor of a custom resource whose CRD version declares `printerColumns`. */
export function crdTable(printerColumns: readonly CrdPrinterColumn[]): TableConvertor<KubeObject> {
  const declared = printerColumns.length ? printerColumns : DEFAULT_COLUMNS;
  const paths = declared.map((c) => compileJsonPath(c.jsonPath));
  const columns: TableColumnDefinition[] = [
    NAME_COLUMN,
    ...declared.map((c) => {
      const definition = column(c.name, c.description || `Custom resource definition column (in JSONPath format): ${c.jsonPath}`, c.priority ?? 0, c.format ?? '', c.type);
      // A date column of the creation time prints the age as AGE does.
      return c.type === 'date' && c.jsonPath === '.metadata.creationTimestamp' ? ageColumn(definition) : definition;
    }),
  ];
  return {
    columns: Object.freeze(columns),
    cells: (obj, now) => [
      obj.metadata.name,
      ...declared.map((c, i) => {
        const [value] = paths[i]!(obj);
        if (value === undefined || value === null) return null;
        return c.type === 'string' ? textCell(value) : typedCell(c.type, value, now);
      }),
    ],
  };
}
