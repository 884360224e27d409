import { invalid, fieldInvalid, isStatusError } from '../status';
import { decodeBody, jsonDepthExceeds, measure } from './decode';

/** The 387-byte "billion laughs": nine levels of nine aliases each, 9^9 strings once expanded. */
const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
  'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
  'kind: [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
].join('\n');

function decodeError(text: string, type: 'application/json' | 'application/yaml') {
  try {
    decodeBody(text, type);
  } catch (err) {
    if (isStatusError(err)) return err;
    throw err;
  }
  throw new Error('decoded');
}

describe('decodeBody', () => {
  it('refuses a YAML alias bomb quickly with a small 400', () => {
    const started = Date.now();
    const err = decodeError(ALIAS_BOMB, 'application/yaml');
    expect(Date.now() - started).toBeLessThan(500);
    expect(err.code).toBe(400);
    expect(err.status.message).toContain('excessive aliasing');
    expect(err.body.length).toBeLessThan(1024);
  });

  it('keeps aliases and merge keys that expand to a reasonable size, as plain copies', () => {
    const v = decodeBody('x: &x {a: 1}\ny: *x\nz: {<<: *x, b: 2}\nwhen: 2024-01-02', 'application/yaml') as Record<string, any>;
    expect(v).toEqual({ x: { a: 1 }, y: { a: 1 }, z: { a: 1, b: 2 }, when: '2024-01-02T00:00:00.000Z' });
    expect(v.y).not.toBe(v.x);
  });

  it('refuses JSON nested 20000 deep in kind with a 400, not a stack overflow', () => {
    const text = `{"kind":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const err = decodeError(text, 'application/json');
    expect(err.code).toBe(400);
    expect(err.status.message).toBe('the body of the request could not be decoded: object nested deeper than 100 levels');
  });

  it('accepts nesting up to the bound, and counts brackets inside strings as text', () => {
    expect(decodeBody(`${'['.repeat(100)}${']'.repeat(100)}`, 'application/json')).toBeDefined();
    expect(decodeError(`${'['.repeat(101)}${']'.repeat(101)}`, 'application/json').code).toBe(400);
    expect(jsonDepthExceeds(`{"a":"${'['.repeat(500)}\\"["}`, 100)).toBe(false);
  });

  it('refuses YAML nested past the bound, also when reached through an alias', () => {
    expect(decodeError(`a: ${'['.repeat(150)}${']'.repeat(150)}`, 'application/yaml').code).toBe(400);
    const deep = `${'['.repeat(90)}1${']'.repeat(90)}`;
    const err = decodeError(`a: &a ${deep}\nb: [[[[[[[[[[[[*a]]]]]]]]]]]]`, 'application/yaml');
    expect(err.status.message).toContain('nested deeper than 100 levels');
  });

  it('quotes at most a short piece of malformed input', () => {
    const err = decodeError(`{"a": "${'x'.repeat(100_000)}" oops}`, 'application/json');
    expect(err.code).toBe(400);
    expect(err.body.length).toBeLessThan(2048);
    const yamlErr = decodeError(`a: [${'y'.repeat(100_000)}\nb: }`, 'application/yaml');
    expect(yamlErr.body.length).toBeLessThan(2048);
  });

  it('measures an expanded document without recursion', () => {
    expect(measure({ a: ['x'] }, { maxDepth: 2, maxExpandedBytes: 100 })).toBe('ok');
    expect(measure({ a: [['x']] }, { maxDepth: 2, maxExpandedBytes: 100 })).toBe('too-deep');
    expect(measure({ a: 'x'.repeat(200) }, { maxDepth: 2, maxExpandedBytes: 100 })).toBe('too-large');
  });
});

describe('Status messages quote bounded input', () => {
  it('cuts a huge bad value in a 422 to a short quote', () => {
    const huge = 'k'.repeat(1_000_000);
    const err = invalid({ group: 'tenancy.paddock.dev', kind: 'TenantNamespace' }, 'x', [fieldInvalid('kind', huge, 'must be TenantNamespace')]);
    expect(err.code).toBe(422);
    expect(err.body.length).toBeLessThan(2048);
    expect(err.status.message).toContain('more characters');
  });

  it('cuts a huge structured bad value too', () => {
    const big = Array.from({ length: 100_000 }, (_, i) => ({ i }));
    const err = invalid({ group: 'tenancy.paddock.dev', kind: 'TenantNamespace' }, 'x', [fieldInvalid('kind', big, 'must be TenantNamespace')]);
    expect(err.body.length).toBeLessThan(2048);
  });
});
