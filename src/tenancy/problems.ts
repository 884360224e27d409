/** What is wrong with a Tenant, in the words of kube's field errors. */

/** kube's field.ErrorType names, so a problem can become a Status cause as it is. */
export type ProblemReason =
  | 'FieldValueRequired'
  | 'FieldValueInvalid'
  | 'FieldValueDuplicate'
  | 'FieldValueForbidden'
  | 'FieldValueNotSupported';

/** One thing wrong with a Tenant, at a kube-style field path (`spec.owners[1]`, `spec.nodeSelector[k]`). */
export interface SpecProblem {
  field: string;
  reason: ProblemReason;
  message: string;
}

/** Records one problem. */
export type AddProblem = (field: string, reason: ProblemReason, message: string) => void;
