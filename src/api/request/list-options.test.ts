import { StatusError } from '../status';
import { parseListOptions } from './list-options';

const parse = (query: string) => parseListOptions(new URLSearchParams(query), ['metadata.name']);

describe('parseListOptions: integers as kube-apiserver reads them (int64)', () => {
  it.each([['2147484', 2147484], ['9999999999', 9999999999], ['9223372036854775807', 9223372036854775807]])('accepts timeoutSeconds=%s', (value, seconds) => {
    expect(parse(`watch=true&timeoutSeconds=${value}`).timeoutSeconds).toBe(seconds);
  });

  it.each(['9223372036854775808', '99999999999999999999', '-9223372036854775809'])('refuses %s, beyond int64, with 400 as strconv.ParseInt does', (value) => {
    for (const name of ['timeoutSeconds', 'limit']) {
      let err: unknown;
      try {
        parse(`watch=true&${name}=${value}`);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(StatusError);
      expect((err as StatusError).code).toBe(400);
      expect((err as StatusError).message).toBe(`strconv.ParseInt: parsing "${value}": value out of range`);
    }
  });
});

describe('parseListOptions: a repeated parameter', () => {
  it('takes the first value, as kube-apiserver does', () => {
    const opts = parse('labelSelector=a=1&labelSelector=b=2&limit=3&limit=500&resourceVersion=first&resourceVersion=second&watch=true&watch=false');
    expect(opts.labelSelector?.requirements.map((r) => r.key)).toEqual(['a']);
    expect(opts.limit).toBe(3);
    expect(opts.resourceVersion).toBe('first');
    expect(opts.watch).toBe(true);
  });
});
