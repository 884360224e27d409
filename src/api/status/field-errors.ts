import { goQuote, truncateForMessage } from './quote';

/**
 * Field-level validation errors (k8s.io/apimachinery util/validation/field), which become the `causes`
 * of an `Invalid` (422) Status. `field` is a field path such as `metadata.name` or `spec.tenant`.
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The offending value; omitted from the message for Required, Forbidden, TooLong and Internal errors. */
  badValue?: unknown;
  detail?: string;
}

/** Human text for each error type, as field.ErrorType.String() gives it. */
const TYPE_TEXT: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Types whose message never shows the value. */
const VALUELESS = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/** The message of one cause, without the field name: `Invalid value: "Oil": must be lower case`. */
export function fieldErrorBody(e: FieldError): string {
  let s = TYPE_TEXT[e.type];
  if (!VALUELESS.has(e.type)) s += `: ${formatValue(e.badValue)}`;
  if (e.detail) s += `: ${e.detail}`;
  return s;
}

/** The full message of one error: `spec.tenant: Required value`. */
export function fieldErrorString(e: FieldError): string {
  return `${e.field}: ${fieldErrorBody(e)}`;
}

/** The bad value as kube prints it, cut short when long (a value may be as large as the request body). */
function formatValue(v: unknown): string {
  if (typeof v === 'string') return goQuote(truncateForMessage(v));
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (v === undefined) return 'null';
  return truncateForMessage(boundedJson(v));
}

/** JSON of a value, giving up (with a placeholder) past a few kilobytes or when it cannot be encoded. */
function boundedJson(v: unknown): string {
  let budget = 4096;
  try {
    return JSON.stringify(v, (_k, x: unknown) => {
      budget -= typeof x === 'string' ? x.length + 2 : 8;
      if (budget < 0) throw new RangeError('too large');
      return x;
    }) ?? 'null';
  } catch {
    return '<value omitted: too large>';
  }
}

/** `field.Required` */
export function fieldRequired(field: string, detail = ''): FieldError {
  return { type: 'FieldValueRequired', field, badValue: '', detail };
}

/** `field.Invalid` */
export function fieldInvalid(field: string, badValue: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue, detail };
}

/** `field.NotSupported`: detail lists the supported values, quoted. */
export function fieldNotSupported(field: string, badValue: unknown, validValues: readonly string[]): FieldError {
  const detail = validValues.length > 0 ? `supported values: ${validValues.map(goQuote).join(', ')}` : '';
  return { type: 'FieldValueNotSupported', field, badValue, detail };
}

/**
 * The aggregate message of several errors, as utilerrors.NewAggregate prints it: one error alone,
 * several as `[a, b]`, duplicates dropped.
 */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(fieldErrorString))];
  if (messages.length === 0) return '';
  if (messages.length === 1) return messages[0]!;
  return `[${messages.join(', ')}]`;
}
