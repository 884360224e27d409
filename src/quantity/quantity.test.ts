// Cases ported from apimachinery pkg/api/resource/quantity_test.go (TestQuantityParseZero,
// TestQuantityParseNonNumericPanic, TestQuantityAddZeroPreservesSuffix, TestQuantitySubZeroPreservesSuffix,
// TestQuantityCmp, TestQuantityParse, TestQuantityCmpInt64AndDec, TestQuantityNeg, TestQuantityString,
// TestQuantityParseEmit, TestSub, TestNeg, TestAdd, TestAddSubRoundTrip, TestAddSubRoundTripAcrossScales,
// TestNegateRoundTrip, TestMilliNewSet, TestNewSet, TestNewScaledSet) and quantity_example_test.go.
// Expected strings for inputs outside upstream's tables were recorded from apimachinery v0.36.3.
import { Quantity, QuantityParseError, parseQuantity } from './quantity';
import { q } from './testing/scaled';

const FORMAT_WRONG = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX_ERROR = "unable to parse quantity's suffix";

const MOST_POSITIVE = 2n ** 63n - 1n;
const MOST_NEGATIVE = -(2n ** 63n);
const MAX_ALLOWED = q(MOST_POSITIVE, 0, 'BinarySI');

describe('parseQuantity', () => {
  it('parses "0" as zero printing "0" (TestQuantityParseZero)', () => {
    expect(parseQuantity('0').toString()).toBe('0');
  });

  it('rejects non-numeric input and the empty string', () => {
    expect(() => parseQuantity('Non-Numeric')).toThrow(new QuantityParseError(FORMAT_WRONG));
    expect(() => parseQuantity('')).toThrow(new QuantityParseError(FORMAT_WRONG));
  });

  // TestQuantityParse: input → exact value and format.
  const table: [string, Quantity][] = [
    ['0', q(0, 0)],
    ['0n', q(0, 0)],
    ['0u', q(0, 0)],
    ['0m', q(0, 0)],
    ['0Ki', q(0, 0, 'BinarySI')],
    ['0k', q(0, 0)],
    ['0Mi', q(0, 0, 'BinarySI')],
    ['0M', q(0, 0)],
    ['0Gi', q(0, 0, 'BinarySI')],
    ['0G', q(0, 0)],
    ['0Ti', q(0, 0, 'BinarySI')],
    ['0T', q(0, 0)],
    // Quantity-less numbers are allowed.
    ['1', q(1, 0)],
    // Binary suffixes.
    ['1Ki', q(1024, 0, 'BinarySI')],
    ['8Ki', q(8 * 1024, 0, 'BinarySI')],
    ['7Mi', q(7 * 1024 ** 2, 0, 'BinarySI')],
    ['6Gi', q(6 * 1024 ** 3, 0, 'BinarySI')],
    ['5Ti', q(5 * 1024 ** 4, 0, 'BinarySI')],
    ['4Pi', q(4n * 1024n ** 5n, 0, 'BinarySI')],
    ['3Ei', q(3n * 1024n ** 6n, 0, 'BinarySI')],
    ['10Ti', q(10 * 1024 ** 4, 0, 'BinarySI')],
    ['100Ti', q(100 * 1024 ** 4, 0, 'BinarySI')],
    // Decimal suffixes.
    ['5n', q(5, -9)],
    ['4u', q(4, -6)],
    ['3m', q(3, -3)],
    ['9', q(9, 0)],
    ['8k', q(8, 3)],
    ['50k', q(5, 4)],
    ['7M', q(7, 6)],
    ['6G', q(6, 9)],
    ['5T', q(5, 12)],
    ['40T', q(4, 13)],
    ['300T', q(3, 14)],
    ['2P', q(2, 15)],
    ['1E', q(1, 18)],
    // Decimal exponents.
    ['1E-3', q(1, -3, 'DecimalExponent')],
    ['1e3', q(1, 3, 'DecimalExponent')],
    ['1E6', q(1, 6, 'DecimalExponent')],
    ['1e9', q(1, 9, 'DecimalExponent')],
    ['1E12', q(1, 12, 'DecimalExponent')],
    ['1e15', q(1, 15, 'DecimalExponent')],
    ['1E18', q(1, 18, 'DecimalExponent')],
    // Nonstandard but still parsable.
    ['1e14', q(1, 14, 'DecimalExponent')],
    ['1e13', q(1, 13, 'DecimalExponent')],
    ['1e3', q(1, 3, 'DecimalExponent')],
    ['100.035k', q(100035, 0)],
    // Things that look like floating point.
    ['0.001', q(1, -3)],
    ['0.0005k', q(5, -1)],
    ['0.005', q(5, -3)],
    ['0.05', q(5, -2)],
    ['0.5', q(5, -1)],
    ['0.00050k', q(5, -1)],
    ['0.00500', q(5, -3)],
    ['0.05000', q(5, -2)],
    ['0.50000', q(5, -1)],
    ['0.5e0', q(5, -1, 'DecimalExponent')],
    ['0.5e-1', q(5, -2, 'DecimalExponent')],
    ['0.5e-2', q(5, -3, 'DecimalExponent')],
    ['0.5e0', q(5, -1, 'DecimalExponent')],
    ['10.035M', q(10035, 3)],
    ['1.2e3', q(12, 2, 'DecimalExponent')],
    ['1.3E+6', q(13, 5, 'DecimalExponent')],
    ['1.40e9', q(14, 8, 'DecimalExponent')],
    ['1.53E12', q(153, 10, 'DecimalExponent')],
    ['1.6e15', q(16, 14, 'DecimalExponent')],
    ['1.7E18', q(17, 17, 'DecimalExponent')],
    ['9.01', q(901, -2)],
    ['8.1k', q(81, 2)],
    ['7.123456M', q(7123456, 0)],
    ['6.987654321G', q(6987654321, 0)],
    ['5.444T', q(5444, 9)],
    ['40.1T', q(401, 11)],
    ['300.2T', q(3002, 11)],
    ['2.5P', q(25, 14)],
    ['1.01E', q(101, 16)],
    // Things that saturate/round.
    ['3.001n', q(4, -9)],
    ['1.1E-9', q(2, -9, 'DecimalExponent')],
    ['0.0000000001', q(1, -9)],
    ['0.0000000005', q(1, -9)],
    ['0.00000000050', q(1, -9)],
    ['0.5e-9', q(1, -9, 'DecimalExponent')],
    ['0.9n', q(1, -9)],
    ['0.00000012345', q(124, -9)],
    ['0.00000012354', q(124, -9)],
    ['9Ei', MAX_ALLOWED],
    ['9223372036854775807Ki', MAX_ALLOWED],
    ['12E', q(12, 18)],
    // We'll accept fractional binary stuff, too.
    ['100.035Ki', q(10243584, -2, 'BinarySI')],
    ['0.5Mi', q(0.5 * 1024 * 1024, 0, 'BinarySI')],
    ['0.05Gi', q(536870912, -1, 'BinarySI')],
    ['0.025Ti', q(274877906944, -1, 'BinarySI')],
    // Things written by trolls.
    ['0.000000000001Ki', q(2, -9)], // rounds up, changes format
    ['.001', q(1, -3)],
    ['.0001k', q(100, -3)],
    ['1.', q(1, 0)],
    ['1.G', q(1, 9)],
  ];

  it.each(table)('reads %j exactly', (input, want) => {
    const got = parseQuantity(input);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });

  it.each(table)('reads -%s as the negation, in the same format', (input, want) => {
    const got = parseQuantity(`-${input}`);
    expect(got.cmp(want.neg())).toBe(0);
    expect(got.format).toBe(want.format);
  });

  it.each(table)('reads +%s as the same value', (input, want) => {
    const got = parseQuantity(`+${input}`);
    expect(got.cmp(want)).toBe(0);
    expect(got.format).toBe(want.format);
  });

  it.each([
    ['1.1.M', FORMAT_WRONG],
    ['1+1.0M', FORMAT_WRONG],
    ['0.1mi', SUFFIX_ERROR],
    ['0.1am', FORMAT_WRONG],
    ['aoeu', FORMAT_WRONG],
    ['.5i', SUFFIX_ERROR],
    ['1i', SUFFIX_ERROR],
    ['-3.01i', SUFFIX_ERROR],
    ['-3.01e-', SUFFIX_ERROR],
    [' 1', FORMAT_WRONG], // whitespace is forbidden
    ['1 ', FORMAT_WRONG],
    ['1K', SUFFIX_ERROR],
    ['1e9223372036854775808', SUFFIX_ERROR], // the exponent must fit in an int64
    ['e-10', 'unable to parse numeric part of quantity'], // no digits, beyond nano precision
    ['-e-12', 'unable to parse numeric part of quantity'],
  ])('rejects %j: %s', (input, message) => {
    expect(() => parseQuantity(input)).toThrow(new QuantityParseError(message));
  });

  it('reads a lone sign or a lone point as zero, as upstream does', () => {
    for (const input of ['.', '-', '+', '-.', '-0', '000', '.Ki', 'Ki']) expect(parseQuantity(input).isZero()).toBe(true);
  });
});

describe('Quantity.cmp', () => {
  // TestQuantityCmp.
  it.each<[string, string, number]>([
    ['0', '0', 0],
    ['100m', '50m', 1],
    ['50m', '100m', -1],
    ['10000T', '100Gi', 1],
    ['1000m', '1', 0],
    ['0.1', '100m', 0],
    ['1Ki', '1024', 0],
    ['1Gi', '1G', 1],
    ['-1', '1n', -1],
  ])('%s vs %s is %d', (a, b, want) => {
    expect(parseQuantity(a).cmp(parseQuantity(b))).toBe(want);
    expect(parseQuantity(b).cmp(parseQuantity(a))).toBe(-want || 0);
    expect(parseQuantity(a).equals(parseQuantity(b))).toBe(want === 0);
  });

  // TestQuantityCmpInt64AndDec.
  const k18 = 1_000_000n ** 3n;
  it.each<[Quantity, Quantity, number]>([
    [q(901, -2), q(901, -2), 0],
    [q(90, -1), q(901, -2), -1],
    [q(901, -2), q(900, -2), 1],
    [q(0, 0), q(0, 0), 0],
    [q(0, 1), q(0, -1), 0],
    [q(0, -1), q(0, 1), 0],
    [q(800, -3), q(1, 0), -1],
    [q(800, -3), q(79, -2), 1],
    [q(MOST_POSITIVE, 0), q(1, -1), 1],
    [q(MOST_POSITIVE, 1), q(1, 0), 1],
    [q(MOST_POSITIVE, 1), q(1, 1), 1],
    [q(MOST_POSITIVE, 1), q(0, 1), 1],
    [q(MOST_POSITIVE, -16), q(1, 3), -1],
    [q(MOST_NEGATIVE, 0), q(0, 0), -1],
    [q(MOST_NEGATIVE, -18), q(-1, 0), -1],
    [q(MOST_NEGATIVE, -19), q(-1, 0), 1],
    [q(k18, -17), q(1, 1), 0],
    [q(k18, -17), q(-10, 0), 1],
    [q(-k18, -17), q(-10, 0), 0],
    [q(k18, -17), q(1, 0), 1],
    [q(k18 + 1n, -17), q(1, 1), 1],
    [q(k18 - 1n, -17), q(1, 1), -1],
  ])('%s vs %s is %d, and the inverse', (a, b, want) => {
    expect(a.cmp(b)).toBe(want);
    expect(b.cmp(a)).toBe(-want || 0);
  });
});
