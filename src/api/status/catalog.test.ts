import { TNS_KIND, TNS_RESOURCE } from '../resources/tenantnamespaces/names';
import {
  alreadyExists,
  badRequest,
  conflict,
  EXPIRED_MESSAGES,
  expired,
  fieldInvalid,
  fieldNotSupported,
  fieldRequired,
  forbidden,
  forbiddenBecause,
  forbiddenPath,
  gone,
  internalError,
  invalid,
  invalidContinueToken,
  methodNotSupported,
  notAcceptable,
  notFound,
  requestEntityTooLarge,
  serviceUnavailable,
  StatusError,
  success,
  timeout,
  tooManyRequests,
  toStatusError,
  unauthorized,
  unsupportedMediaType,
} from './index';

describe('Status catalog', () => {
  it('answers a missing TenantNamespace with NotFound, as kube-apiserver words it', () => {
    const err = notFound(TNS_RESOURCE, 'oil-dev');
    expect(err).toBeInstanceOf(StatusError);
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe(404);
    expect(err.status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'tenantnamespaces.tenancy.paddock.dev "oil-dev" not found',
      reason: 'NotFound',
      details: { name: 'oil-dev', group: 'tenancy.paddock.dev', kind: 'tenantnamespaces' },
      code: 404,
    });
  });

  it('serializes fields in the order kube-apiserver does', () => {
    expect(notFound(TNS_RESOURCE, 'x').body).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"tenantnamespaces.tenancy.paddock.dev \\"x\\" not found","reason":"NotFound","details":{"name":"x","group":"tenancy.paddock.dev","kind":"tenantnamespaces"},"code":404}',
    );
  });

  it('leaves out the group of core resources', () => {
    const err = notFound({ group: '', resource: 'namespaces' }, 'oil-dev');
    expect(err.status.message).toBe('namespaces "oil-dev" not found');
    expect(err.status.details).toEqual({ name: 'oil-dev', kind: 'namespaces' });
  });

  it('words a refused list like the RBAC authorizer does', () => {
    const err = forbidden(TNS_RESOURCE, '', 'alice', 'list');
    expect(err.code).toBe(403);
    expect(err.reason).toBe('Forbidden');
    expect(err.status.message).toBe(
      'tenantnamespaces.tenancy.paddock.dev is forbidden: User "alice" cannot list resource "tenantnamespaces" in API group "tenancy.paddock.dev" at the cluster scope',
    );
    expect(err.status.details).toEqual({ group: 'tenancy.paddock.dev', kind: 'tenantnamespaces' });
  });

  it('names the object and appends the reason of a refused request', () => {
    const err = forbidden(TNS_RESOURCE, 'oil-dev', 'bob', 'delete', 'not an admin owner of tenant "oil"');
    expect(err.status.message).toBe(
      'tenantnamespaces.tenancy.paddock.dev "oil-dev" is forbidden: User "bob" cannot delete resource "tenantnamespaces" in API group "tenancy.paddock.dev" at the cluster scope: not an admin owner of tenant "oil"',
    );
    expect(err.status.details).toEqual({ name: 'oil-dev', group: 'tenancy.paddock.dev', kind: 'tenantnamespaces' });
  });

  it('words namespaced and subresource requests and escapes HTML', () => {
    const err = forbidden({ group: '', resource: 'pods' }, '', { user: '<x>', verb: 'get', namespace: 'oil', subresource: 'log' });
    expect(err.status.message).toBe('pods is forbidden: User "&lt;x&gt;" cannot get resource "pods/log" in API group "" in the namespace "oil"');
  });

  it('refuses a non-resource path without details', () => {
    const err = forbiddenPath('carol', 'get', '/metrics');
    expect(err.status.message).toBe('forbidden: User "carol" cannot get path "/metrics"');
    expect(err.status.details).toEqual({});
  });

  it('refuses by policy with a reason of its own', () => {
    const err = forbiddenBecause(TNS_RESOURCE, 'oil-production', 'declared namespaces are deleted by editing the Tenant');
    expect(err.status.message).toBe(
      'tenantnamespaces.tenancy.paddock.dev "oil-production" is forbidden: declared namespaces are deleted by editing the Tenant',
    );
  });

  it('answers a request without identity with 401 Unauthorized', () => {
    expect(unauthorized().status).toMatchObject({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
    expect(unauthorized().status.details).toBeUndefined();
  });

  it('answers AlreadyExists and Conflict with 409', () => {
    expect(alreadyExists(TNS_RESOURCE, 'oil-dev').status).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: 'tenantnamespaces.tenancy.paddock.dev "oil-dev" already exists',
      details: { name: 'oil-dev', group: 'tenancy.paddock.dev', kind: 'tenantnamespaces' },
    });
    expect(conflict(TNS_RESOURCE, 'oil-dev', 'namespace quota of tenant "oil" is exhausted').status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on tenantnamespaces.tenancy.paddock.dev "oil-dev": namespace quota of tenant "oil" is exhausted',
    });
  });

  it('answers validation failures with 422 Invalid, one cause per field', () => {
    const err = invalid(TNS_KIND, 'Oil_dev', [
      fieldInvalid('metadata.name', 'Oil_dev', "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'"),
      fieldRequired('spec.tenant'),
    ]);
    expect(err.code).toBe(422);
    expect(err.status.message).toBe(
      'TenantNamespace.tenancy.paddock.dev "Oil_dev" is invalid: [metadata.name: Invalid value: "Oil_dev": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', spec.tenant: Required value]',
    );
    expect(err.status.details).toEqual({
      name: 'Oil_dev',
      group: 'tenancy.paddock.dev',
      kind: 'TenantNamespace',
      causes: [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "Oil_dev": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\'',
          field: 'metadata.name',
        },
        { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.tenant' },
      ],
    });
  });

  it('prints a single invalid field without brackets and lists supported values', () => {
    const err = invalid(TNS_KIND, 'oil-dev', [fieldNotSupported('status.phase', 'Gone', ['Active', 'Terminating'])]);
    expect(err.status.message).toBe(
      'TenantNamespace.tenancy.paddock.dev "oil-dev" is invalid: status.phase: Unsupported value: "Gone": supported values: "Active", "Terminating"',
    );
  });

  it('answers a too old resourceVersion with 410 Expired', () => {
    const err = expired(EXPIRED_MESSAGES.tooOldResourceVersion(5, 9));
    expect(err.status).toMatchObject({ code: 410, reason: 'Expired', message: 'too old resource version: 5 (9)', metadata: {} });
    expect(expired(EXPIRED_MESSAGES.continueTooOldInconsistent, 'abc').status.metadata).toEqual({ continue: 'abc' });
    expect(gone('gone').status).toMatchObject({ code: 410, reason: 'Gone' });
  });

  it('answers an undecodable continue token with 400, as kube does, not 410', () => {
    const err = invalidContinueToken('illegal base64 data at input byte 4');
    expect(err.status).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'invalid continue token: continue key is not valid: illegal base64 data at input byte 4',
    });
  });

  it('answers negotiation failures with 406 and 415', () => {
    expect(notAcceptable(['application/json', 'application/yaml']).status).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message: 'only the following media types are accepted: application/json, application/yaml',
    });
    expect(unsupportedMediaType(['application/json']).status).toMatchObject({
      code: 415,
      reason: 'UnsupportedMediaType',
      message: 'the body of the request was in an unknown format - accepted media types include: application/json',
    });
  });

  it('answers an unsupported verb with 405 MethodNotAllowed', () => {
    expect(methodNotSupported(TNS_RESOURCE, 'update').status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'update is not supported on resources of kind "tenantnamespaces.tenancy.paddock.dev"',
      reason: 'MethodNotAllowed',
      details: { group: 'tenancy.paddock.dev', kind: 'tenantnamespaces' },
      code: 405,
    });
  });

  it('answers overload with 429 and a Retry-After', () => {
    const err = tooManyRequests(3);
    expect(err.status).toMatchObject({ code: 429, reason: 'TooManyRequests', details: { retryAfterSeconds: 3 } });
    expect(err.retryAfter).toBe('3');
    expect(notFound(TNS_RESOURCE, 'x').retryAfter).toBeUndefined();
  });

  it('answers an oversized body with 413, a timeout with 504, an outage with 503', () => {
    expect(requestEntityTooLarge(1048576).status).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 1048576' });
    expect(timeout().status).toMatchObject({ code: 504, reason: 'Timeout', message: 'Timeout: request did not complete within the allotted timeout' });
    expect(serviceUnavailable('caches not synced').status).toMatchObject({ code: 503, reason: 'ServiceUnavailable' });
  });

  it('turns any other thrown value into a 500 InternalError', () => {
    const err = toStatusError(new Error('boom'));
    expect(err.status).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: boom', details: { causes: [{ message: 'boom' }] } });
    const nf = notFound(TNS_RESOURCE, 'x');
    expect(toStatusError(nf)).toBe(nf);
    expect(internalError('text').status.message).toBe('Internal error occurred: text');
  });

  it('freezes the Status it carries', () => {
    const err = badRequest('nope');
    expect(Object.isFrozen(err.status)).toBe(true);
    expect(err.message).toBe('nope');
  });

  it('describes a successful delete', () => {
    expect(success(TNS_RESOURCE, 'oil-dev', 'u1')).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'oil-dev', group: 'tenancy.paddock.dev', kind: 'tenantnamespaces', uid: 'u1' },
      code: 200,
    });
  });

  it('quotes names like Go does', () => {
    expect(notFound(TNS_RESOURCE, 'a"b\n').status.message).toBe('tenantnamespaces.tenancy.paddock.dev "a\\"b\\n" not found');
  });
});
