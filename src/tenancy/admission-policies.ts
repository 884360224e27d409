/**
 * Per Tenant, the bindings of the two admission policies (restrictions/policies.ts) that it needs: one
 * of the validating policy when it restricts anything, one of the mutating policy when it has anything
 * to fill in (restrictions/registry.ts decides both).
 *
 * A binding selects the tenant's namespaces by the tenant label (which only Paddock writes on a
 * namespace: owners cannot write Namespace objects) and names the Tenant in `paramRef`; when the Tenant
 * is gone the binding denies (`parameterNotFoundAction: Deny`) until Paddock has removed it. The
 * policies read the Tenant live: `spec` for what it restricts (an absent field restricts nothing),
 * `status.allowed` for the class names its selectors resolve to, kept current by the reconciler. Pure.
 */
import { PADDOCK, type Tenant } from '../kube/types';
import { controllerRef, tenantLabels } from './ownership';
import { RESTRICTIONS } from './restrictions/registry';
import { ADMISSION_API_VERSION, DEFAULTS_POLICY_NAME, matchResources, RESTRICTIONS_POLICY_NAME, type AdmissionObject } from './restrictions/policies';

export { ADMISSION_GROUP, DEFAULTS_POLICY_NAME, defaultsPolicy, RESTRICTIONS_POLICY_NAME, restrictionsPolicy, type AdmissionObject } from './restrictions/policies';

/** The binding of the restrictions policy for `tenant`. */
export function restrictionsBindingName(tenant: string): string {
  return `paddock-restrictions-${tenant}`;
}

/** The binding of the defaults policy for `tenant`. */
export function defaultsBindingName(tenant: string): string {
  return `paddock-defaults-${tenant}`;
}

/** Whether `tenant` restricts anything the restrictions policy checks (and so needs its binding). */
export function needsRestrictions(tenant: Tenant): boolean {
  const spec = tenant.spec ?? ({} as Tenant['spec']);
  return RESTRICTIONS.some((r) => r.restricts(spec));
}

/** Whether `tenant` has anything for the defaults policy to fill in (and so needs its binding). */
export function needsDefaults(tenant: Tenant): boolean {
  const spec = tenant.spec ?? ({} as Tenant['spec']);
  return RESTRICTIONS.some((r) => r.defaults(spec));
}

const paramRef = (tenant: string) => ({ name: tenant, parameterNotFoundAction: 'Deny' });
const tenantNamespaces = (tenant: string) => ({ matchLabels: { [PADDOCK.tenantLabel]: tenant } });

/** The binding of the restrictions policy to `tenant`'s namespaces, with the Tenant as its parameter. */
export function restrictionsBinding(tenant: Tenant): AdmissionObject {
  const name = tenant.metadata.name;
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: restrictionsBindingName(name), labels: tenantLabels(name), ownerReferences: [controllerRef(tenant)] },
    spec: {
      policyName: RESTRICTIONS_POLICY_NAME,
      paramRef: paramRef(name),
      matchResources: matchResources(undefined, tenantNamespaces(name)),
      validationActions: ['Deny'],
    },
  };
}

/** The binding of the defaults policy to `tenant`'s namespaces, with the Tenant as its parameter. */
export function defaultsBinding(tenant: Tenant): AdmissionObject {
  const name = tenant.metadata.name;
  return {
    apiVersion: ADMISSION_API_VERSION,
    kind: 'MutatingAdmissionPolicyBinding',
    metadata: { name: defaultsBindingName(name), labels: tenantLabels(name), ownerReferences: [controllerRef(tenant)] },
    spec: {
      policyName: DEFAULTS_POLICY_NAME,
      paramRef: paramRef(name),
      matchResources: matchResources(undefined, tenantNamespaces(name)),
    },
  };
}

/** The bindings `tenant` needs, restrictions first. */
export function desiredBindings(tenant: Tenant): AdmissionObject[] {
  const out: AdmissionObject[] = [];
  if (needsRestrictions(tenant)) out.push(restrictionsBinding(tenant));
  if (needsDefaults(tenant)) out.push(defaultsBinding(tenant));
  return out;
}
