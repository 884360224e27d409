import { badRequest, fieldErrorString, fieldInvalid } from '../status';

/** metav1.IncludeObjectPolicy: what `rows[].object` of a Table carries. */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/**
 * Reads the `includeObject` query parameter of a Table request (k8s.io/apimachinery TableOptions):
 * `None`, `Metadata` or `Object`, case-sensitive; absent or empty means `Metadata`. Only Table requests
 * read it; other targets ignore it, as kube-apiserver does.
 *
 * @throws StatusError 400 BadRequest with kube's message for any other value
 */
export function parseIncludeObject(value: string | null | undefined): IncludeObject {
  if (value === undefined || value === null || value === '' || value === 'Metadata') return 'Metadata';
  if (value === 'None' || value === 'Object') return value;
  const error = fieldInvalid('includeObject', value, "must be 'Metadata', 'Object', 'None', or empty");
  throw badRequest(`Unable to convert to Table as requested: ${fieldErrorString(error)}`);
}
