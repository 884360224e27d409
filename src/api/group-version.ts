import { PADDOCK } from '../kube/types';

const group = PADDOCK.apiGroup;
const version = PADDOCK.apiVersion;
/** `tenancy.paddock.dev` → `TenancyPaddockDev`, as kube-apiserver spells a group in OpenAPI ids. */
const camel = group.split('.').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/**
 * The one group version this server serves (SPEC §1), spelled once: discovery, OpenAPI, routes, Status
 * messages and every resource's names take it from here.
 */
export const GROUP_VERSION = {
  /** `tenancy.paddock.dev` */
  group,
  /** `v1alpha1` */
  version,
  /** `tenancy.paddock.dev/v1alpha1` */
  groupVersion: `${group}/${version}`,
  /** `/apis/tenancy.paddock.dev/v1alpha1`: the prefix of every resource's path. */
  path: `/apis/${group}/${version}`,
  /** `dev.paddock.tenancy.v1alpha1`: the prefix of OpenAPI definition names (`<prefix>.<Kind>`). */
  definitionPrefix: `${group.split('.').reverse().join('.')}.${version}`,
  /** `TenancyPaddockDevV1alpha1`: OpenAPI operation ids, as kube-apiserver builds them. */
  operationId: `${camel}${version[0].toUpperCase()}${version.slice(1)}`,
  /** `tenancyPaddockDev_v1alpha1`: the OpenAPI tag. */
  tag: `${camel[0].toLowerCase()}${camel.slice(1)}_${version}`,
} as const;
