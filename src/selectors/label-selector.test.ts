// Cases ported from apimachinery pkg/labels/selector_test.go (TestSelectorParse, TestDeterministicParse,
// TestSelectorMatches, TestEverything, TestParseOperator, TestRequirementConstructor, TestToString,
// TestRequirementSelectorMatching, TestSetSelectorParser, TestRequiresExactMatch, TestMatchesNothing)
// and pkg/apis/meta/v1/helpers_test.go (TestLabelSelectorAsSelector). Expected error messages are
// kube-apiserver's, recorded from apimachinery v0.36.3.
import { newRequirement, type LabelOperator } from './label-requirement';
import {
  LabelSelector,
  SelectorParseError,
  labelSelectorFromMetav1,
  parseLabelSelector,
  type Metav1LabelSelector,
} from './label-selector';

const VALUE_RULE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const NAME_RULE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const parseError = (input: string): string => {
  try {
    parseLabelSelector(input);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    return (e as Error).message;
  }
  throw new Error(`${JSON.stringify(input)} parsed`);
};

const req = (key: string, op: LabelOperator, values: string[] = []) => newRequirement(key, op, values);
const selectorOf = (...reqs: ReturnType<typeof req>[]) => LabelSelector.fromRequirements(reqs);

describe('parseLabelSelector', () => {
  // TestSelectorParse: good strings print back without their spaces.
  it.each(['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5'])(
    'accepts %j and prints it back canonically',
    (input) => {
      expect(parseLabelSelector(input).toString()).toBe(input.replace(/ /g, ''));
    },
  );

  // TestSetSelectorParser: input → canonical form (keys sorted, set values sorted and de-duplicated).
  it.each([
    ['', ''],
    ['\rx', 'x'],
    ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
    ['this-is-another-dns.domain.com/key-with-dash in (so,what)', 'this-is-another-dns.domain.com/key-with-dash in (so,what)'],
    ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
    ['foo  in\t (abc)', 'foo in (abc)'],
    ['x notin\n (abc)', 'x notin (abc)'],
    ['x  notin\t\t\t(abc,def)', 'x notin (abc,def)'],
    ['x in (abc,def)', 'x in (abc,def)'],
    ['x in (abc,)', 'x in (,abc)'],
    ['x in (abc,abc)', 'x in (abc)'],
    ['x in ()', 'x in ()'],
    ['x in (a,,)', 'x in (,a)'],
    ['x in (a,,,)', 'x in (,a)'],
    ['x in (a,,,,,,)', 'x in (,a)'],
    ['x in (a,,a,,a,,a,,)', 'x in (,a)'],
    ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
    ['x,y in (a)', 'x,y in (a)'],
    ['x=a', 'x=a'],
    ['x>1', 'x>1'],
    ['x<7', 'x<7'],
    ['x=a,y!=b', 'x=a,y!=b'],
    ['x=a,y!=b,z in (h,i,j)', 'x=a,y!=b,z in (h,i,j)'],
    ['x notin ( )', 'x notin ()'],
    ['x notin (, a)', 'x notin (,a)'],
    ['a ', 'a'],
    ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'], // keywords are values inside a list
    ['notin=in', 'notin=in'], // ... and keys and values of exact matches
    ['x=a,a=x', 'a=x,x=a'], // TestDeterministicParse
    ['a=x,x=a', 'a=x,x=a'],
  ])('parses %j as %j', (input, canonical) => {
    expect(parseLabelSelector(input).toString()).toBe(canonical);
  });

  // TestSelectorParse and TestSetSelectorParser bad strings, with kube-apiserver's messages.
  it.each([
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE_RULE}`],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['x<a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x,,y', "found ',', expected: identifier after ','"],
    [',x,y', "found ',', expected: !, identifier, or 'end of string'"],
    ['x nott in (y)', `unable to parse requirement: found 'nott', expected: ${OPERATORS}`],
    ['a in (xyz),', "found '', expected: identifier after ','"],
    ['a in (xyz)b notin ()', "found 'b', expected: ',' or 'end of string'"],
    ['a in (xyz abc)', "unable to parse requirement: found 'abc', expected: ',' or ')'"],
    ['a notin(', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a (', `unable to parse requirement: found '(', expected: ${OPERATORS}`],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    // TestParseOperator: what is not a binary operator after a key.
    ['x !', `unable to parse requirement: found '!', expected: ${OPERATORS}`],
    ['x exists', `unable to parse requirement: found 'exists', expected: ${OPERATORS}`],
    // More of the grammar's error paths.
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['x=(', "unable to parse requirement: found '(', expected: identifier"],
    ['x in a', "unable to parse requirement: found 'a' expected: '('"],
    ['x in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['x=a b', "found 'b', expected: ',' or 'end of string'"],
    ['x>99999999999999999999', `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x$y', `unable to parse requirement: <nil>: Invalid value: "x$y": name part ${NAME_RULE}`],
    [
      'a/b/c',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ${NAME_RULE} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [
      'x in (a$,b$)',
      `unable to parse requirement: [values[0][x]: Invalid value: "a$": ${VALUE_RULE}, values[1][x]: Invalid value: "b$": ${VALUE_RULE}]`,
    ],
  ])('rejects %j: %s', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('limits the name part of a key to 63 bytes and the prefix to a DNS subdomain', () => {
    expect(parseLabelSelector(`${'k'.repeat(63)}=v`).isEmpty()).toBe(false);
    expect(parseError(`${'k'.repeat(64)}=v`)).toBe(
      `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 bytes`,
    );
    expect(parseError('Example.com/k')).toMatch(/prefix part a lowercase RFC 1123 subdomain must consist of/);
    expect(parseError('/k')).toBe('unable to parse requirement: <nil>: Invalid value: "/k": prefix part must be non-empty');
  });

  it('limits values to 63 bytes', () => {
    expect(parseLabelSelector(`k=${'v'.repeat(63)}`).isEmpty()).toBe(false);
    expect(parseError(`k=${'v'.repeat(64)}`)).toBe(
      `unable to parse requirement: values[0][k]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 bytes`,
    );
  });
});

describe('LabelSelector.matches', () => {
  const labelset = { foo: 'bar', baz: 'blah' };

  // TestSelectorMatches and TestEverything.
  it.each<[string, Record<string, string>]>([
    ['', { x: 'y' }],
    ['x=y', { x: 'y' }],
    ['x=y,z=w', { x: 'y', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'a' }],
    ['notin=in', { notin: 'in' }],
    ['x', { x: 'z' }],
    ['!x', { y: 'z' }],
    ['x>1', { x: '2' }],
    ['x<1', { x: '0' }],
    ['foo=bar', labelset],
    ['baz=blah', labelset],
    ['foo=bar,baz=blah', labelset],
  ])('%j matches %j', (selector, labels) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(true);
  });

  it.each<[string, Record<string, string>]>([
    ['x=z', {}],
    ['x=y', { x: 'z' }],
    ['x=y,z=w', { x: 'w', z: 'w' }],
    ['x!=y,z!=w', { x: 'z', z: 'w' }],
    ['x', { y: 'z' }],
    ['!x', { x: 'z' }],
    ['x>1', { x: '0' }],
    ['x<1', { x: '2' }],
    ['foo=blah', labelset],
    ['baz=bar', labelset],
    ['foo=bar,foobar=bar,baz=blah', labelset],
  ])('%j does not match %j', (selector, labels) => {
    expect(parseLabelSelector(selector).matches(labels)).toBe(false);
  });

  // TestRequirementSelectorMatching.
  it.each([
    [{ x: 'foo', y: 'baz' }, selectorOf(req('x', 'in', ['foo']), req('y', 'notin', ['alpha'])), true],
    [{ x: 'foo', y: 'baz' }, selectorOf(req('x', 'in', ['foo']), req('y', 'in', ['alpha'])), false],
    [{ y: '' }, selectorOf(req('x', 'notin', ['']), req('y', 'exists')), true],
    [{ y: '' }, selectorOf(req('x', '!'), req('y', 'exists')), true],
    [{ y: '' }, selectorOf(req('x', 'notin', ['']), req('y', '!')), false],
    [{ y: 'baz' }, selectorOf(req('x', 'in', [''])), false],
    [{ z: '2' }, selectorOf(req('z', 'gt', ['1'])), true],
    [{ z: 'v2' }, selectorOf(req('z', 'gt', ['1'])), false],
  ])('%j against %s is %s', (labels, selector, want) => {
    expect(selector.matches(labels)).toBe(want);
  });

  it('treats undefined labels as no labels', () => {
    expect(parseLabelSelector('').matches(undefined)).toBe(true);
    expect(parseLabelSelector('!x,y notin (a)').matches(undefined)).toBe(true);
    expect(parseLabelSelector('x').matches(undefined)).toBe(false);
  });

  it('never reads inherited properties as labels', () => {
    expect(parseLabelSelector('constructor').matches({})).toBe(false);
    expect(parseLabelSelector('!toString').matches({})).toBe(true);
  });

  it('empty selector is empty and matches everything (TestEverything)', () => {
    const everything = parseLabelSelector('');
    expect(everything.isEmpty()).toBe(true);
    expect(everything).toBe(LabelSelector.everything());
    expect(everything.matches({ x: 'y' })).toBe(true);
  });
});

describe('newRequirement (TestRequirementConstructor)', () => {
  it.each<[string, LabelOperator, string[] | null, string | null]>([
    ['x1', 'in', null, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
    ['x2', 'notin', [], "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"],
    ['x3', 'in', ['foo'], null],
    ['x4', 'notin', ['foo'], null],
    ['x5', '=', ['bar', 'foo'], 'values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value'],
    ['x6', 'exists', [], null],
    ['x7', '!', [], null],
    ['x8', 'exists', ['foo'], 'values: Invalid value: ["foo"]: values set must be empty for exists and does not exist'],
    ['x9', 'in', ['bar'], null],
    ['x10', 'in', ['bar'], null],
    ['x11', 'gt', ['1'], null],
    ['x12', 'lt', ['6'], null],
    ['x13', 'gt', [], "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required"],
    ['x14', 'gt', ['bar'], `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x15', 'lt', ['bar'], `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a'.repeat(254), 'exists', [], `key: Invalid value: "${'a'.repeat(254)}": name part must be no more than 63 bytes`],
    ['x16', '=', ['a'.repeat(254)], `values[0][x16]: Invalid value: "${'a'.repeat(254)}": must be no more than 63 bytes`],
    ['x17', '=', ['a b'], `values[0][x17]: Invalid value: "a b": ${VALUE_RULE}`],
  ])('%s %s %j → %s', (key, op, values, message) => {
    if (message === null) {
      expect(newRequirement(key, op, values)).toEqual({ key, operator: op, values: values ?? [] });
    } else {
      expect(() => newRequirement(key, op, values)).toThrow(new SelectorParseError(message));
    }
  });
});

describe('LabelSelector.toString (TestToString)', () => {
  it.each([
    [selectorOf(req('x', 'in', ['abc', 'def']), req('y', 'notin', ['jkl']), req('z', 'exists')), 'x in (abc,def),y notin (jkl),z'],
    [selectorOf(req('x', 'notin', ['abc', 'def']), req('y', '!=', ['jkl']), req('z', '!')), 'x notin (abc,def),y!=jkl,!z'],
    [selectorOf(req('x', 'notin', ['abc']), req('y', 'in', ['jkl', 'mno']), req('z', 'notin', [''])), 'x notin (abc),y in (jkl,mno),z notin ()'],
    [selectorOf(req('x', '=', ['abc']), req('y', '==', ['jkl']), req('z', '!=', ['a']), req('z', 'exists')), 'x=abc,y==jkl,z!=a,z'],
    [selectorOf(req('x', 'gt', ['2']), req('y', 'lt', ['8']), req('z', 'exists')), 'x>2,y<8,z'],
  ])('%s', (selector, text) => {
    expect(selector.toString()).toBe(text);
  });
});

describe('LabelSelector.requiredValues (TestRequiresExactMatch)', () => {
  it.each<[LabelSelector, string, string[] | undefined]>([
    [selectorOf(req('key', 'in', ['value'])), 'key', ['value']],
    [selectorOf(req('key', 'in', ['value', 'value2'])), 'key', ['value', 'value2']],
    [selectorOf(req('key', 'in', ['value', 'value1']), req('key2', 'in', ['value2'])), 'key2', ['value2']],
    [selectorOf(req('key', '=', ['value'])), 'key', ['value']],
    [selectorOf(req('key', '==', ['value'])), 'key', ['value']],
    [selectorOf(req('key', '!=', ['value'])), 'key', undefined],
    [selectorOf(req('key', 'in', ['value']), req('key2', 'in', ['value2'])), 'key', ['value']],
    [parseLabelSelector('key in (a,b,c),key notin (b),key in (b,c,d)'), 'key', ['b', 'c']],
    [parseLabelSelector('key,other=x'), 'key', undefined],
    [parseLabelSelector(''), 'key', undefined],
  ])('%s pins %j to %j', (selector, key, values) => {
    const got = selector.requiredValues(key);
    expect(got === undefined ? undefined : [...got].sort()).toEqual(values);
  });
});

describe('labelSelectorFromMetav1 (TestLabelSelectorAsSelector)', () => {
  const matchLabels = { foo: 'bar' };
  const matchExpressions = [{ key: 'baz', operator: 'In', values: ['qux', 'norf'] }];

  it('selects nothing for a null selector (TestMatchesNothing)', () => {
    const nothing = labelSelectorFromMetav1(null);
    expect(nothing.matches({})).toBe(false);
    expect(nothing.isEmpty()).toBe(false);
    expect(nothing.matchesNothing()).toBe(true);
    expect(nothing.toString()).toBe('');
  });

  it.each<[Metav1LabelSelector, string]>([
    [{}, ''],
    [{ matchLabels }, 'foo=bar'],
    [{ matchExpressions }, 'baz in (norf,qux)'],
    [{ matchLabels, matchExpressions }, 'baz in (norf,qux),foo=bar'],
    [{ matchExpressions: [{ key: 'baz', operator: 'DoesNotExist' }, { key: 'a', operator: 'Exists' }] }, 'a,!baz'],
    [{ matchExpressions: [{ key: 'x', operator: 'In', values: ['b', 'a', 'b'] }, { key: 'x', operator: 'NotIn', values: ['c'] }] }, 'x in (a,b,b),x notin (c)'],
  ])('converts %j to %j', (selector, text) => {
    const got = labelSelectorFromMetav1(selector);
    expect(got.toString()).toBe(text);
    expect(got.matchesNothing()).toBe(false);
  });

  it('does not modify its input', () => {
    const input = { matchLabels: { ...matchLabels }, matchExpressions: [{ ...matchExpressions[0]!, values: ['qux', 'norf'] }] };
    labelSelectorFromMetav1(input);
    expect(input.matchExpressions[0]!.values).toEqual(['qux', 'norf']);
  });

  it.each<[Metav1LabelSelector, string]>([
    [{ matchExpressions: [{ key: 'baz', operator: 'Exists', values: ['qux', 'norf'] }] }, 'values: Invalid value: ["qux","norf"]: values set must be empty for exists and does not exist'],
    [{ matchExpressions: [{ key: 'baz', operator: 'In', values: [] }] }, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"],
    [{ matchExpressions: [{ key: 'baz', operator: 'Foo' }] }, '"Foo" is not a valid label selector operator'],
    [{ matchExpressions: [{ key: 'x', operator: 'gt', values: ['1'] }] }, '"gt" is not a valid label selector operator'],
    [{ matchLabels: { 'bad key': 'v' } }, `key: Invalid value: "bad key": name part ${NAME_RULE}`],
    [{ matchLabels: { k: 'bad value' } }, `values[0][k]: Invalid value: "bad value": ${VALUE_RULE}`],
  ])('rejects %j', (selector, message) => {
    expect(() => labelSelectorFromMetav1(selector)).toThrow(new SelectorParseError(message));
  });

  it('matches as NetworkPolicy and ownership selectors need', () => {
    const selector = labelSelectorFromMetav1({ matchLabels: { tenant: 'oil' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] });
    expect(selector.matches({ tenant: 'oil' })).toBe(true);
    expect(selector.matches({ tenant: 'oil', tier: 'web' })).toBe(true);
    expect(selector.matches({ tenant: 'oil', tier: 'db' })).toBe(false);
    expect(selector.matches({ tenant: 'gas' })).toBe(false);
    expect(selector.requiredValues('tenant')).toEqual(new Set(['oil']));
  });
});
