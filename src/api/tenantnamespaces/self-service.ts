import type { KubeClient } from '../../kube/client';
import { isAlreadyExists } from '../../kube/errors';
import { PADDOCK, type Namespace, type Tenant, type TenantNamespace } from '../../kube/types';
import { SELF_SERVICE_ANNOTATION } from '../../controller/reconciler';
import { desiredNamespace } from '../../tenancy';
import { ownerKey, subjectKeysOfUser } from '../../tenancy/owner-keys';
import { TENANT_NAMESPACES } from '../resource';
import { alreadyExists, badRequest, fieldInvalid, fieldRequired, forbidden, forbiddenBecause, invalid, notFound, success, type FieldError } from '../status';
import { toTenantNamespace } from './read-model';
import type { TenantNamespaceView, Viewer } from './view';

const GK = { group: TENANT_NAMESPACES.group, kind: TENANT_NAMESPACES.kind };
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** Whether `viewer` is an owner of `tenant` with role admin (the role self-service requires). */
export function isAdminOwner(viewer: Viewer, tenant: Tenant): boolean {
  const keys = new Set(subjectKeysOfUser(viewer));
  return (tenant.spec?.owners ?? []).some((o) => (o.role ?? 'admin') === 'admin' && keys.has(ownerKey(o)));
}

/** Namespaces that count against namespaceQuota: declared ones (created or not) and existing ones. */
function countedNamespaces(view: TenantNamespaceView, tenant: Tenant): Set<string> {
  const names = new Set((tenant.spec.namespaces ?? []).map((n) => `${tenant.metadata.name}-${n}`));
  for (const ns of view.cache.namespacesOf(tenant.metadata.name)) names.add(ns.metadata.name);
  return names;
}

const KNOWN_FIELDS: Record<string, ReadonlySet<string>> = {
  '': new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']),
  spec: new Set(['tenant']),
};

/** Fields of a TenantNamespace body that the type does not have (for fieldValidation=Strict). */
function unknownFields(obj: Record<string, unknown>): string[] {
  const unknown = Object.keys(obj).filter((k) => !KNOWN_FIELDS[''].has(k));
  const spec = obj.spec;
  if (spec && typeof spec === 'object') unknown.push(...Object.keys(spec).filter((k) => !KNOWN_FIELDS.spec.has(k)).map((k) => `spec.${k}`));
  return unknown;
}

function validate(body: unknown, strict: boolean): { name: string; tenant: string } {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a TenantNamespace object');
  if (strict) {
    const unknown = unknownFields(body as Record<string, unknown>);
    if (unknown.length) throw badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
  const obj = body as Partial<TenantNamespace>;
  const errors: FieldError[] = [];
  const name = obj.metadata?.name;
  const tenant = obj.spec?.tenant;
  if (obj.kind !== undefined && obj.kind !== TENANT_NAMESPACES.kind) errors.push(fieldInvalid('kind', obj.kind, `must be ${TENANT_NAMESPACES.kind}`));
  if (obj.apiVersion !== undefined && obj.apiVersion !== TENANT_NAMESPACES.groupVersion) errors.push(fieldInvalid('apiVersion', obj.apiVersion, `must be ${TENANT_NAMESPACES.groupVersion}`));
  if (typeof name !== 'string' || name === '') errors.push(fieldRequired('metadata.name', 'name is required'));
  else if (name.length > 63 || !DNS1123_LABEL.test(name)) {
    errors.push(fieldInvalid('metadata.name', name, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character, at most 63 characters"));
  }
  if (typeof tenant !== 'string' || tenant === '') errors.push(fieldRequired('spec.tenant', 'the tenant is required'));
  else if (typeof name === 'string' && !name.startsWith(`${tenant}-`)) errors.push(fieldInvalid('metadata.name', name, `must start with "${tenant}-"`));
  if (errors.length) throw invalid(GK, typeof name === 'string' ? name : '', errors);
  return { name: name!, tenant: tenant! };
}

/**
 * Self-service (SPEC §5): an admin owner of a tenant creates `<tenant>-<suffix>` through the API; Paddock
 * creates the Namespace with its own identity, born with the tenant's labels and Pod Security, and the
 * reconciler furnishes it. The quota holds across concurrent requests and replicas: after creating, the
 * tenant's namespaces are counted live and, if over quota, the newest (by creation time, then name) are
 * the ones that lose — every racer computes the same order, so exactly the excess is undone.
 */
export class SelfService {
  constructor(readonly view: TenantNamespaceView, readonly client: KubeClient) {}

  /** `strict`: fieldValidation=Strict, unknown fields are refused (kubectl's default). */
  async create(viewer: Viewer, body: unknown, dryRun: boolean, strict = false): Promise<TenantNamespace> {
    const { name, tenant: tenantName } = validate(body, strict);
    const tenant = this.view.cache.tenants.store.get(tenantName);
    if (!tenant || !isAdminOwner(viewer, tenant)) {
      throw forbidden(TENANT_NAMESPACES, name, viewer.name, 'create', `only an admin owner of tenant "${tenantName}" may create its namespaces`);
    }
    if (this.view.cache.namespaces.store.get(name)) throw alreadyExists(TENANT_NAMESPACES, name);
    const quota = tenant.spec.namespaceQuota;
    const counted = countedNamespaces(this.view, tenant);
    if (quota !== undefined && !counted.has(name) && counted.size + 1 > quota) throw this.#overQuota(name, tenant);

    const ns: Namespace = desiredNamespace(tenant, name);
    ns.metadata.annotations = { ...ns.metadata.annotations, [SELF_SERVICE_ANNOTATION]: 'true' };
    if (dryRun) return toTenantNamespace({ namespace: ns, tenant, quotas: [] });

    let created: Namespace;
    try {
      created = await this.client.create<Namespace>('/api/v1/namespaces', ns);
    } catch (err) {
      if (isAlreadyExists(err)) throw alreadyExists(TENANT_NAMESPACES, name);
      throw err;
    }
    if (quota !== undefined) await this.#enforceQuota(created, tenant, quota);
    return this.#awaitRow(name, created, tenant);
  }

  async delete(viewer: Viewer, name: string): Promise<ReturnType<typeof success>> {
    const row = this.view.get(name);
    if (!row || !this.view.canSee(viewer, row)) throw notFound(TENANT_NAMESPACES, name);
    const tenant = this.view.cache.tenants.store.get(row.spec.tenant);
    if (!tenant || !isAdminOwner(viewer, tenant)) {
      throw forbidden(TENANT_NAMESPACES, name, viewer.name, 'delete', `only an admin owner of tenant "${row.spec.tenant}" may delete its namespaces`);
    }
    const ns = this.view.cache.namespaces.store.get(name);
    if (!ns || ns.metadata.annotations?.[SELF_SERVICE_ANNOTATION] !== 'true') {
      throw forbiddenBecause(TENANT_NAMESPACES, name, `namespace "${name}" is declared in spec.namespaces of tenant "${row.spec.tenant}": remove it there`);
    }
    await this.client.delete(`/api/v1/namespaces/${name}`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: ns.metadata.uid } } });
    return success(TENANT_NAMESPACES, name, ns.metadata.uid);
  }

  #overQuota(name: string, tenant: Tenant) {
    return forbiddenBecause(TENANT_NAMESPACES, name, `exceeded namespaceQuota of tenant "${tenant.metadata.name}": ${tenant.spec.namespaceQuota}`);
  }

  async #enforceQuota(created: Namespace, tenant: Tenant, quota: number): Promise<void> {
    const live = await this.client.list<Namespace>('/api/v1/namespaces', { labelSelector: `${PADDOCK.tenantLabel}=${tenant.metadata.name}` });
    const declared = new Set((tenant.spec.namespaces ?? []).map((n) => `${tenant.metadata.name}-${n}`));
    const selfService = live.items
      .filter((n) => !n.metadata.deletionTimestamp && !declared.has(n.metadata.name))
      .sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || a.metadata.name.localeCompare(b.metadata.name));
    const allowed = Math.max(0, quota - declared.size);
    if (selfService.findIndex((n) => n.metadata.uid === created.metadata.uid) >= allowed) {
      await this.client.delete(`/api/v1/namespaces/${created.metadata.name}`, { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: created.metadata.uid } } });
      throw this.#overQuota(created.metadata.name, tenant);
    }
  }

  /** A GET right after a create returns the new object: wait (briefly) until the view has it. */
  async #awaitRow(name: string, created: Namespace, tenant: Tenant): Promise<TenantNamespace> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const row = this.view.get(name);
      if (row && row.metadata.uid === created.metadata.uid) return row;
      await new Promise((r) => setTimeout(r, 20));
    }
    return toTenantNamespace({ namespace: created, tenant, quotas: [] });
  }
}
