/**
 * Label key and value validation with apimachinery's rules and messages (api/validate/content):
 * a key is `[prefix/]name` where the optional prefix is a lowercase DNS-1123 subdomain (≤ 253 bytes)
 * and the name is ≤ 63 bytes of `[A-Za-z0-9._-]` starting and ending alphanumeric; a value is empty
 * or follows the name rule. Each check returns the list of problems, empty when valid.
 */

import { byteLength, goQuote } from './go-format';

const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_KEY_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY_RE = new RegExp(`^${LABEL_KEY_FMT}$`);
const LABEL_NAME_MAX = 63;

const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_RE = new RegExp(`^${LABEL_VALUE_FMT}$`);
const LABEL_VALUE_MAX = 63;

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`);
const DNS1123_SUBDOMAIN_MAX = 253;

function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

const maxLenError = (n: number): string => `must be no more than ${n} bytes`;
const EMPTY_ERROR = 'must be non-empty';

function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > DNS1123_SUBDOMAIN_MAX) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) {
    errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  }
  return errs;
}

/** Problems with a label key (also the rule for "qualified names"). */
export function labelKeyErrors(key: string): string[] {
  const parts = key.split('/');
  const errs: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = parts[0]!;
  } else if (parts.length === 2) {
    const prefix = parts[0]!;
    name = parts[1]!;
    if (prefix.length === 0) errs.push(`prefix part ${EMPTY_ERROR}`);
    else errs.push(...dns1123SubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) errs.push(`name part ${EMPTY_ERROR}`);
  else if (byteLength(name) > LABEL_NAME_MAX) errs.push(`name part ${maxLenError(LABEL_NAME_MAX)}`);
  if (!LABEL_KEY_RE.test(name)) {
    errs.push(`name part ${regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** Problems with a label value. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (byteLength(value) > LABEL_VALUE_MAX) errs.push(maxLenError(LABEL_VALUE_MAX));
  if (!LABEL_VALUE_RE.test(value)) {
    errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

/**
 * An apimachinery `field.Error` of type Invalid rendered as text: `<path>: Invalid value: <value>: <detail>`.
 * `badValue` is already formatted (a quoted string, or JSON for a list).
 */
export function invalidValue(path: string, badValue: string, detail: string): string {
  return `${path}: Invalid value: ${badValue}${detail ? `: ${detail}` : ''}`;
}

/** The field error for an invalid key, or undefined when the key is valid. */
export function validateLabelKey(key: string, path: string): string | undefined {
  const errs = labelKeyErrors(key);
  return errs.length === 0 ? undefined : invalidValue(path, goQuote(key), errs.join('; '));
}

/** The field error for an invalid value of `key`, or undefined when the value is valid. */
export function validateLabelValue(key: string, value: string, path: string): string | undefined {
  const errs = labelValueErrors(value);
  return errs.length === 0 ? undefined : invalidValue(`${path}[${key}]`, goQuote(value), errs.join('; '));
}

/** Joins field errors as apimachinery's aggregate does: duplicates dropped, `[a, b]` when several. */
export function aggregate(errors: readonly string[]): string | undefined {
  const unique = [...new Set(errors)];
  if (unique.length === 0) return undefined;
  return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}
