// Upstream cases: TestLexer, TestLexerSequence and TestParserLookahead of apimachinery
// pkg/labels/selector_test.go.
import { tokenize, type TokenKind } from './label-lexer';

describe('label selector lexer', () => {
  // TestLexer: the first token of each input, and its literal.
  it.each<[string, TokenKind]>([
    ['', 'end'],
    [',', 'comma'],
    ['notin', 'notIn'],
    ['in', 'in'],
    ['=', 'equals'],
    ['==', 'doubleEquals'],
    ['>', 'greaterThan'],
    ['<', 'lessThan'],
    ['!', 'doesNotExist'], // the longest valid token wins
    ['!=', 'notEquals'],
    ['(', 'openPar'],
    [')', 'closePar'],
    ['~', 'identifier'], // non-special characters belong to identifiers
    ['||', 'identifier'],
  ])('reads %j as %s', (input, kind) => {
    const [first] = tokenize(input);
    expect(first).toEqual({ kind, literal: input });
  });

  // TestLexerSequence and TestParserLookahead: every token up to and including the end.
  it.each<[string, TokenKind[]]>([
    ['key in ( value )', ['identifier', 'in', 'openPar', 'identifier', 'closePar']],
    ['key notin ( value )', ['identifier', 'notIn', 'openPar', 'identifier', 'closePar']],
    ['key in ( value1, value2 )', ['identifier', 'in', 'openPar', 'identifier', 'comma', 'identifier', 'closePar']],
    ['key', ['identifier']],
    ['!key', ['doesNotExist', 'identifier']],
    ['()', ['openPar', 'closePar']],
    ['', []],
    ['x in (),y', ['identifier', 'in', 'openPar', 'closePar', 'comma', 'identifier']],
    ['== != (), = notin', ['doubleEquals', 'notEquals', 'openPar', 'closePar', 'comma', 'equals', 'notIn']],
    ['key>2', ['identifier', 'greaterThan', 'identifier']],
    ['key<1', ['identifier', 'lessThan', 'identifier']],
  ])('splits %j into %j', (input, kinds) => {
    expect(tokenize(input).map((t) => t.kind)).toEqual([...kinds, 'end']);
  });

  it('treats \\r and \\n as whitespace', () => {
    expect(tokenize('\rx\n in').map((t) => t.literal)).toEqual(['x', 'in', '']);
  });

  it('ends the input at a NUL where a token would start, as the byte-oriented upstream lexer does', () => {
    expect(tokenize('a \0 b').map((t) => t.kind)).toEqual(['identifier', 'end']);
    expect(tokenize('a\0b').map((t) => t.literal)).toEqual(['a', 'b', '']);
  });
});
