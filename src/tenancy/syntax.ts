/**
 * The syntax rules of Kubernetes names and metadata keys (apimachinery's validation package), as
 * predicates. Each returns true when kube-apiserver would accept the value.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** A namespace name, a label's DNS part: at most 63 characters of `[a-z0-9-]`. */
export function isDns1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

/** A ServiceAccount name, a key prefix: dot-separated DNS labels, at most 253 characters. */
export function isDns1123Subdomain(value: string): boolean {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}

/** A label or annotation key: `[prefix/]name`, the prefix a DNS subdomain, the name at most 63. */
export function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  if (parts.length === 2 && !isDns1123Subdomain(parts[0]!)) return false;
  return name.length <= 63 && QUALIFIED_NAME_PART.test(name);
}

/** A label value: empty, or at most 63 characters starting and ending alphanumeric. */
export function isLabelValue(value: string): boolean {
  return value === '' || (value.length <= 63 && QUALIFIED_NAME_PART.test(value));
}

/**
 * The name of an RBAC object (a ClusterRole, a RoleBinding): any path segment — not `.` or `..`, no `/`
 * or `%` (apimachinery's path.IsValidPathSegmentName, which RBAC validates names with).
 */
export function isPathSegmentName(value: string): boolean {
  return value !== '' && value !== '.' && value !== '..' && !/[/%]/.test(value);
}
