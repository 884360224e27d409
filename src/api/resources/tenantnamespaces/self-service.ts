import type { KubeClient } from '../../../kube/client';
import { isNotFound } from '../../../kube/errors';
import type { Namespace, NamespaceClaim, Tenant, TenantNamespace } from '../../../kube/types';
import { ClaimLedger } from '../../../tenancy/claim-ledger';
import { desiredNamespace } from '../../../tenancy';
import { CLAIM_TOKEN_ANNOTATION, claimOf, declaredNames, newClaim, provenByUid, selfServiceRefusal, tenantOfName, withClaim, withoutClaim } from '../../../tenancy/claims';
import { ownerKey, subjectKeysOfUser } from '../../../tenancy/owner-keys';
import type { DeleteOptions } from '../../request/delete-options';
import { TENANT_NAMESPACES } from './names';
import { alreadyExists, badRequest, conflict, fieldInvalid, fieldRequired, forbidden, forbiddenBecause, invalid, notFound, success, type FieldError } from '../../status';
import { selfServiceError } from './kube-errors';
import { toTenantNamespace } from './read-model';
import type { TenantNamespaceView, Viewer } from './view';

const GK = { group: TENANT_NAMESPACES.group, kind: TENANT_NAMESPACES.kind };
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const NAMESPACES = '/api/v1/namespaces';

/** Whether `viewer` is an owner of `tenant` with role admin (the role self-service requires). */
export function isAdminOwner(viewer: Viewer, tenant: Tenant): boolean {
  const keys = new Set(subjectKeysOfUser(viewer));
  return (tenant.spec?.owners ?? []).some((o) => (o.role ?? 'admin') === 'admin' && keys.has(ownerKey(o)));
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
  return unknown.map((f) => f.slice(0, 64)).slice(0, 10);
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
    errors.push(fieldInvalid('metadata.name', name.slice(0, 64), "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character, at most 63 characters"));
  }
  if (typeof tenant !== 'string' || tenant === '') errors.push(fieldRequired('spec.tenant', 'the tenant is required'));
  else if (typeof name === 'string' && !name.startsWith(`${tenant}-`)) errors.push(fieldInvalid('metadata.name', name.slice(0, 64), `must start with "${tenant.slice(0, 63)}-"`));
  if (errors.length) throw invalid(GK, typeof name === 'string' ? name.slice(0, 64) : '', errors);
  return { name: name!, tenant: tenant! };
}

/**
 * Self-service (SPEC §5): an admin owner of a tenant creates `<tenant>-<suffix>` through the API.
 *
 * A create is three steps, each safe to lose to a crash:
 * 1. a claim for the name is added to the Tenant's status with optimistic concurrency (ClaimLedger):
 *    namespaceQuota and "name already claimed" are decided on the very Tenant version the claim is
 *    written over, so two racing creates — on one replica or two — can never both fit one free place;
 * 2. the Namespace is created with Paddock's identity, born with the tenant's labels and the claim's
 *    token (a namespace created by anyone else cannot carry it);
 * 3. the namespace's UID is recorded in the claim, and only then is 201 returned.
 * A claim whose namespace never came is dropped by the reconciler after PENDING_CLAIM_TTL_MS.
 *
 * Refusals never reveal what is not the caller's: a name outside the caller's tenant (by the longest
 * `<tenant>-` prefix) or a tenant the caller does not administer gets 403 before anything is looked up.
 */
export class SelfService {
  readonly ledger: ClaimLedger;

  constructor(readonly view: TenantNamespaceView, readonly client: KubeClient) {
    this.ledger = new ClaimLedger(client, (n) => view.tenant(n));
  }

  /** `strict`: fieldValidation=Strict, unknown fields are refused (kubectl's default). */
  async create(viewer: Viewer, body: unknown, dryRun: boolean, strict = false): Promise<TenantNamespace> {
    const { name, tenant: tenantName } = validate(body, strict);
    const cached = this.#adminTenant(viewer, tenantName, name);
    if (this.view.namespace(name) || claimOf(cached, name)) throw alreadyExists(TENANT_NAMESPACES, name);
    this.#checkQuota(cached, name);
    const ns = desiredNamespace(cached, name);
    try {
      if (dryRun) {
        // Every check a real create makes, kube-apiserver's own included, and no write.
        await this.client.create<Namespace>(NAMESPACES, ns, { query: { dryRun: 'All' } });
        return toTenantNamespace({ namespace: ns, tenant: cached, quotas: [] });
      }
      return await this.#create(viewer, tenantName, name);
    } catch (err) {
      throw selfServiceError(err, name);
    }
  }

  async #create(viewer: Viewer, tenantName: string, name: string): Promise<TenantNamespace> {
    let token = '';
    const claimed = await this.ledger.update(tenantName, (tenant) => {
      this.#checkStillAdmin(viewer, tenant, tenantName, name);
      const refusal = selfServiceRefusal(tenant, name);
      if (refusal === 'claimed') throw alreadyExists(TENANT_NAMESPACES, name);
      if (refusal === 'quota') throw this.#overQuota(name, tenant);
      const fresh = newClaim(name, 'SelfService', new Date());
      token = fresh.token;
      return withClaim(tenant.status?.claims ?? [], fresh.claim);
    });
    const claim = claimOf(claimed, name)!;

    const ns = desiredNamespace(claimed, name);
    ns.metadata.annotations = { ...ns.metadata.annotations, [CLAIM_TOKEN_ANNOTATION]: token };
    let created: Namespace;
    try {
      created = await this.client.create<Namespace>(NAMESPACES, ns);
    } catch (err) {
      await this.#release(tenantName, claim);
      throw err;
    }
    await this.ledger.update(tenantName, (tenant) => {
      const current = claimOf(tenant, name);
      if (current?.uid === created.metadata.uid) return undefined; // recorded already (the reconciler saw the token)
      if (!current || current.proof !== claim.proof) throw conflict(TENANT_NAMESPACES, name, 'the claim on this name was taken back while the namespace was created; try again');
      return withClaim(tenant.status?.claims ?? [], provenByUid(current, created.metadata.uid!));
    });
    return this.#awaitRow(name, created, claimed);
  }

  /** Takes back a claim this request wrote (its namespace could not be created); best effort. */
  async #release(tenantName: string, claim: NamespaceClaim): Promise<void> {
    await this.ledger.update(tenantName, (t) => withoutClaim(t, claim.name, (c) => c.proof === claim.proof && !c.uid), { live: true }).catch(() => undefined);
  }

  async delete(viewer: Viewer, name: string, options: DeleteOptions): Promise<ReturnType<typeof success>> {
    const row = this.view.store.get(name);
    if (!row || !this.view.store.canSee(viewer, row)) throw notFound(TENANT_NAMESPACES, name);
    const tenant = this.view.tenant(row.spec.tenant);
    if (!tenant || !isAdminOwner(viewer, tenant)) {
      throw forbidden(TENANT_NAMESPACES, name, viewer.name, 'delete', `only an admin owner of tenant "${row.spec.tenant}" may delete its namespaces`);
    }
    const claim = claimOf(tenant, name);
    if (!claim || claim.origin !== 'SelfService' || claim.uid !== row.metadata.uid || declaredNames(tenant).includes(name)) {
      throw forbiddenBecause(TENANT_NAMESPACES, name, `namespace "${name}" is declared in spec.namespaces of tenant "${row.spec.tenant}": remove it there`);
    }
    const { uid, resourceVersion } = options.preconditions;
    if (uid !== undefined && uid !== row.metadata.uid) {
      throw conflict(TENANT_NAMESPACES, name, `Precondition failed: UID in precondition: ${uid.slice(0, 64)}, UID in object meta: ${row.metadata.uid}`);
    }
    if (resourceVersion !== undefined && !this.view.store.unchangedSince(name, resourceVersion)) {
      throw conflict(TENANT_NAMESPACES, name, `Precondition failed: ResourceVersion in precondition: ${resourceVersion.slice(0, 64)}, ResourceVersion in object meta: ${row.metadata.resourceVersion}`);
    }
    const deleteOptions: Record<string, unknown> = { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: row.metadata.uid } };
    if (options.propagationPolicy) deleteOptions.propagationPolicy = options.propagationPolicy;
    if (options.dryRun) deleteOptions.dryRun = ['All'];
    try {
      await this.client.delete(`${NAMESPACES}/${name}`, { body: deleteOptions });
    } catch (err) {
      if (isNotFound(err)) throw notFound(TENANT_NAMESPACES, name);
      throw selfServiceError(err, name);
    }
    return success(TENANT_NAMESPACES, name, row.metadata.uid);
  }

  /**
   * The cached Tenant `tenantName` when `viewer` may self-serve `name` in it. Every refusal here is the
   * same 403 whatever exists: the tenant is not the caller's to administer, or the name is not the
   * tenant's (a longer `<tenant>-` prefix owns it, or the tenant's own name takes others' namespaces).
   */
  #adminTenant(viewer: Viewer, tenantName: string, name: string): Tenant {
    const tenant = this.view.tenant(tenantName);
    this.#checkStillAdmin(viewer, tenant, tenantName, name);
    if (tenantOfName(name, (t) => this.view.tenant(t) !== undefined) !== tenantName) {
      throw forbidden(TENANT_NAMESPACES, name, viewer.name, 'create', `the name is not in the namespace space of tenant "${tenantName}"`);
    }
    if (tenant.status?.conditions?.some((c) => c.type === 'Ready' && c.reason === 'TenantNameConflict')) {
      throw forbiddenBecause(TENANT_NAMESPACES, name, `tenant "${tenantName}" is refused (TenantNameConflict): see its status`);
    }
    return tenant;
  }

  /**
   * The caller is an admin owner of `tenant` (as cached, or as read live inside a claim write: owners may
   * have changed meanwhile), which exists, is not being deleted (the same 403 in every case) and is not
   * cordoned (a 403 that says so: the caller administers it).
   */
  #checkStillAdmin(viewer: Viewer, tenant: Tenant | undefined, tenantName: string, name: string): asserts tenant is Tenant {
    if (!tenant || !isAdminOwner(viewer, tenant) || tenant.metadata.deletionTimestamp) {
      throw forbidden(TENANT_NAMESPACES, name, viewer.name, 'create', `only an admin owner of tenant "${tenantName}" may create its namespaces`);
    }
    if (tenant.spec?.cordoned) throw forbiddenBecause(TENANT_NAMESPACES, name, `tenant "${tenantName}" is cordoned: no namespace may be created until spec.cordoned is false`);
  }

  #checkQuota(tenant: Tenant, name: string): void {
    if (selfServiceRefusal(tenant, name) === 'quota') throw this.#overQuota(name, tenant);
  }

  #overQuota(name: string, tenant: Tenant) {
    return forbiddenBecause(TENANT_NAMESPACES, name, `exceeded namespaceQuota of tenant "${tenant.metadata.name}": ${tenant.spec.namespaceQuota}`);
  }

  /** A GET right after a create returns the new object: wait (briefly) until the view has it. */
  /**
   * The new row, once the view has it (a GET right after the 201 then finds it). Waits for the view's
   * changes, not on a timer; should the namespace's event not come within 5 s, the row is made from the
   * created namespace and stamped with the view's resourceVersion of now, which predates the row: a watch
   * from it gets the row's ADDED when it comes. Either way the 201 carries a resourceVersion this server
   * accepts.
   */
  async #awaitRow(name: string, created: Namespace, tenant: Tenant): Promise<TenantNamespace> {
    const arrived = (): TenantNamespace | undefined => {
      const row = this.view.store.get(name);
      return row?.metadata.uid === created.metadata.uid ? row : undefined;
    };
    const now = arrived();
    if (now) return now;
    const rv = this.view.store.resourceVersion;
    return new Promise((resolve) => {
      const done = (row: TenantNamespace): void => {
        clearTimeout(timer);
        off();
        resolve(row);
      };
      const off = this.view.store.subscribe(() => {
        const row = arrived();
        if (row) done(row);
      });
      const timer = setTimeout(() => {
        const row = toTenantNamespace({ namespace: created, tenant, quotas: [] });
        done({ ...row, metadata: { ...row.metadata, resourceVersion: rv } });
      }, 5000);
    });
  }
}
