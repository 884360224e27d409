import { ClaimContention, TenantGone } from '../../../tenancy/claim-ledger';
import { KubeApiError } from '../../../kube/errors';
import { selfServiceError } from './kube-errors';

const kube = (code: number, reason: string, extra: Record<string, unknown> = {}) =>
  new KubeApiError({ apiVersion: 'v1', kind: 'Status', metadata: {}, status: 'Failure', code, reason, message: `kube says ${reason}`, ...extra });

const statusOf = (err: unknown) => (selfServiceError(err, 'oil-dev') as { status: { code: number; reason: string; details?: { retryAfterSeconds?: number } } }).status;

describe('selfServiceError: what kube-apiserver answered becomes the matching Status, never a 500', () => {
  it.each([
    [kube(409, 'AlreadyExists'), 409, 'AlreadyExists'],
    [kube(409, 'Conflict'), 409, 'Conflict'],
    [kube(403, 'Forbidden'), 403, 'Forbidden'],
    [kube(422, 'Invalid', { details: { causes: [{ field: 'metadata.name', message: 'bad' }] } }), 422, 'Invalid'],
    [kube(429, 'TooManyRequests', { details: { retryAfterSeconds: 3 } }), 429, 'TooManyRequests'],
    [kube(504, 'Timeout'), 504, 'Timeout'],
    [kube(500, 'InternalError'), 503, 'ServiceUnavailable'],
    [kube(503, 'ServiceUnavailable'), 503, 'ServiceUnavailable'],
    [kube(400, 'BadRequest'), 400, 'BadRequest'],
    [Object.assign(new Error('timed out'), { name: 'TimeoutError' }), 504, 'Timeout'],
    [new Error('connect ECONNREFUSED'), 503, 'ServiceUnavailable'],
    [new ClaimContention('oil'), 429, 'TooManyRequests'],
    [new TenantGone('oil'), 403, 'Forbidden'],
  ])('%s → %i %s', (err, code, reason) => {
    const s = statusOf(err);
    expect(s.code).toBe(code);
    expect(s.reason).toBe(reason);
  });

  it('keeps kube-apiserver\'s Retry-After', () => {
    expect(statusOf(kube(429, 'TooManyRequests', { details: { retryAfterSeconds: 3 } })).details?.retryAfterSeconds).toBe(3);
  });
});
