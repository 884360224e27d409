/** The closed sets of values Tenant fields take: stated once, for the CRD schema and for validate.ts alike. */
export const OWNER_KINDS = ['User', 'Group', 'ServiceAccount'];
export const OWNER_ROLES = ['admin', 'operator', 'viewer'];
export const POD_SECURITY_LEVELS = ['privileged', 'baseline', 'restricted'];
export const LIMIT_TYPES = ['Pod', 'Container', 'PersistentVolumeClaim'];
export const POLICY_TYPES = ['Ingress', 'Egress'];
export const DELETION_POLICIES = ['Retain', 'Delete'];
