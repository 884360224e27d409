// Cases ported from apimachinery pkg/fields/selector_test.go (TestSplitTerms, TestSplitTerm,
// TestEscapeValue, TestSelectorParse, TestDeterministicParse, TestSelectorMatches, TestEverything,
// TestRequiresExactMatch, TestTransform) and fields_test.go. Expected error messages are
// kube-apiserver's, recorded from apimachinery v0.36.3.
import {
  FieldSelector,
  SelectorParseError,
  UnsupportedFieldError,
  escapeFieldValue,
  parseFieldSelector,
  unescapeFieldValue,
  validateFieldSelector,
} from './field-selector';

const terms = (selector: string) => parseFieldSelector(selector).requirements.map((r) => [r.field, r.operator, r.value]);

describe('parseFieldSelector', () => {
  // TestSelectorParse good strings print back unchanged; TestDeterministicParse sorts terms.
  it.each([
    ['x=a,y=b,z=c', 'x=a,y=b,z=c'],
    ['', ''],
    ['x!=a,y=b', 'x!=a,y=b'],
    ['x=a||y\\=b', 'x=a||y\\=b'],
    ['x=a\\=\\=b', 'x=a\\=\\=b'],
    ['x=a,a=x', 'a=x,x=a'],
    ['a=x,x=a', 'a=x,x=a'],
    ['b==value', 'b=value'],
  ])('parses %j as %j', (input, canonical) => {
    expect(parseFieldSelector(input).toString()).toBe(canonical);
  });

  // TestSplitTerms and TestSplitTerm, observed through the parsed terms.
  it.each<[string, string[][]]>([
    ['a=avalue,b=bvalue', [['a', '=', 'avalue'], ['b', '=', 'bvalue']]],
    ['a=avalue,b==bvalue,c!=cvalue', [['a', '=', 'avalue'], ['b', '=', 'bvalue'], ['c', '!=', 'cvalue']]],
    ['a=a,', [['a', '=', 'a']]], // empty terms are skipped
    [',a=a', [['a', '=', 'a']]],
    // Terms sort by their raw text, so `k2=…` comes before `k=…` ('2' < '=').
    ['k=\\,,k2=v2', [['k2', '=', 'v2'], ['k', '=', ',']]], // escaped comma in value
    ['k=\\\\,k2=v2', [['k2', '=', 'v2'], ['k', '=', '\\']]], // escaped backslash, unescaped comma
    ['k=\\\\\\,,k2=v2', [['k2', '=', 'v2'], ['k', '=', '\\,']]], // escaped backslash and comma
    ['k=\\=', [['k', '=', '=']]],
    ['함=수,목=록', [['목', '=', '록'], ['함', '=', '수']]], // multi-byte, sorted by UTF-8 bytes
    ['=,!=', []], // a term with neither field nor value restricts nothing (TestTransform)
  ])('splits %j into %j', (input, expected) => {
    expect(terms(input)).toEqual(expected);
  });

  it.each([
    ['x=a||y=b', 'invalid field selector: unescaped character in value: 61'],
    ['x==a==b', 'invalid field selector: unescaped character in value: 61'],
    ['x=a,b', "invalid selector: 'x=a,b'; can't understand 'b'"],
    ['x in (a)', "invalid selector: 'x in (a)'; can't understand 'x in (a)'"],
    ['x in (a,b,c)', "invalid selector: 'x in (a,b,c)'; can't understand 'b'"],
    ['x', "invalid selector: 'x'; can't understand 'x'"],
    ['k=\\a\\b\\', 'invalid field selector: invalid escape sequence: \\a'],
    ['k=\\', 'invalid field selector: invalid escape sequence: \\'],
  ])('rejects %j: %s', (input, message) => {
    expect(() => parseFieldSelector(input)).toThrow(new SelectorParseError(message));
  });
});

describe('field value escaping (TestEscapeValue)', () => {
  it.each([
    ['', ''],
    ['a', 'a'],
    ['=', '\\='],
    [',', '\\,'],
    ['\\', '\\\\'],
    ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
  ])('escapes %j as %j and back', (raw, escaped) => {
    expect(escapeFieldValue(raw)).toBe(escaped);
    expect(unescapeFieldValue(escaped)).toBe(raw);
  });

  it.each(['\\', '\\\\\\', '\\a'])('rejects the invalid escape sequence in %j', (value) => {
    expect(() => unescapeFieldValue(value)).toThrow(/^invalid field selector: invalid escape sequence: /);
  });
});

describe('FieldSelector.matches (TestSelectorMatches)', () => {
  const fieldset = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };

  it.each<[string, Record<string, string>]>([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['foo=bar', fieldset],
    ['baz=blah', fieldset],
    ['foo=bar,baz=blah', fieldset],
    ['foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\', fieldset],
    ['missing=', {}], // an absent field reads as ""
    ['missing!=x', {}],
  ])('%j matches %j', (selector, fields) => {
    expect(parseFieldSelector(selector).matches(fields)).toBe(true);
  });

  it.each<[string, Record<string, string>]>([
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['foo=blah', fieldset],
    ['baz=bar', fieldset],
    ['foo=bar,foobar=bar,baz=blah', fieldset],
    ['constructor=x', {}],
  ])('%j does not match %j', (selector, fields) => {
    expect(parseFieldSelector(selector).matches(fields)).toBe(false);
  });

  it('an empty selector is empty and matches everything (TestEverything)', () => {
    expect(parseFieldSelector('')).toBe(FieldSelector.everything());
    expect(parseFieldSelector(',').isEmpty()).toBe(true);
    expect(parseFieldSelector('x=').isEmpty()).toBe(false);
  });
});

describe('FieldSelector.requiredValue (TestRequiresExactMatch)', () => {
  it.each<[string, string, string | undefined]>([
    ['', 'test', undefined],
    ['a=b', 'test', undefined],
    ['test=b', 'test', 'b'],
    ['test=', 'test', ''],
    ['test!=b', 'test', undefined],
    ['test!=', 'test', undefined],
    ['a=,test=b', 'test', 'b'],
  ])('%j requires %j to be %j', (selector, field, value) => {
    expect(parseFieldSelector(selector).requiredValue(field)).toBe(value);
  });
});

describe('validateFieldSelector', () => {
  const allowed = new Set(['metadata.name', 'spec.tenant', 'status.phase']);

  it('accepts the supported fields', () => {
    expect(() => validateFieldSelector(parseFieldSelector('metadata.name=a,spec.tenant!=b,status.phase=Active'), allowed)).not.toThrow();
  });

  it("names the unsupported field with kube-apiserver's message", () => {
    expect(() => validateFieldSelector(parseFieldSelector('spec.tenant=oil,foo=bar'), allowed)).toThrow(
      new UnsupportedFieldError('foo'),
    );
    expect(new UnsupportedFieldError('foo').message).toBe('field label not supported: foo');
  });

  it('reports the first unsupported field in canonical (sorted) order, as upstream', () => {
    try {
      validateFieldSelector(parseFieldSelector('zzz=1,metadata.name=a,aaa=2'), allowed);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(UnsupportedFieldError);
      expect((e as UnsupportedFieldError).field).toBe('aaa');
    }
  });

  it('treats an empty field name as unsupported', () => {
    expect(() => validateFieldSelector(parseFieldSelector('=x'), allowed)).toThrow('field label not supported: ');
  });
});
