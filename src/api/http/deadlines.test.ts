import { isStatusError } from '../status';
import { withDeadline } from './deadlines';

describe('withDeadline', () => {
  it('answers 504 Timeout at the deadline while the work is still waiting', async () => {
    const never = new Promise<string>(() => {});
    const err = await withDeadline(20, () => never).catch((e: unknown) => e);
    expect(isStatusError(err) && [err.code, err.reason, err.status.message]).toEqual([504, 'Timeout', 'Timeout: request did not complete within the allotted timeout']);
  });

  it('passes through what finishes in time, value or error', async () => {
    expect(await withDeadline(1000, async () => 'ok')).toBe('ok');
    await expect(withDeadline(1000, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  });
});
