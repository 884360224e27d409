/**
 * Errors raised while reading a selector from a request. Both map to a 400 BadRequest Status whose
 * message is the error's message verbatim: the messages are kube-apiserver's, word for word.
 */

/** A label or field selector that does not follow apimachinery's grammar or validation rules. */
export class SelectorParseError extends Error {
  override readonly name = 'SelectorParseError';
}

/**
 * A well-formed field selector naming a field the resource does not support. The message is the one
 * kube-apiserver gives (`field label not supported: <field>`).
 */
export class UnsupportedFieldError extends Error {
  override readonly name = 'UnsupportedFieldError';

  constructor(readonly field: string) {
    super(`field label not supported: ${field}`);
  }
}
