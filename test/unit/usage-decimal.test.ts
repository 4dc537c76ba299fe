import {
  addDecimals,
  compareDecimals,
  decimalToNumber,
  formatDecimal,
  microsToDecimal,
  numberPrecision,
  parseDecimal,
  parseMicros,
  ZERO,
} from '../../shared/usage/decimal';

const sum = (...values: string[]) => formatDecimal(values.map(parseDecimal).reduce(addDecimals, ZERO));

describe('exact decimals', () => {
  it('adds without float error', () => {
    expect(sum('0.1', '0.2')).toBe('0.3');
    expect(sum(...Array(10).fill('0.1'))).toBe('1');
    expect(decimalToNumber(parseDecimal(sum(...Array(10).fill('0.1'))))).toBe(1);
    expect(sum('999999999999.999999', '0.000001')).toBe('1000000000000');
  });

  it('keeps 38 significant digits, as DynamoDB numbers have', () => {
    const big = '12345678901234567890123456789012.345678';
    expect(sum(big, big)).toBe('24691357802469135780246913578024.691356');
  });

  it('reads the exponent form and normalises trailing zeros', () => {
    expect(formatDecimal(parseDecimal('1E+2'))).toBe('100');
    expect(formatDecimal(parseDecimal('2.50'))).toBe('2.5');
    expect(formatDecimal(parseDecimal('1e-7'))).toBe('0.0000001');
    expect(formatDecimal(parseDecimal('-0.5'))).toBe('-0.5');
    expect(() => parseDecimal('abc')).toThrow(/Not a decimal/);
  });

  it('reads usage totals as exact millionths, and refuses what cannot be one', () => {
    expect(['0.3', '-1.5', '12', '0.000001', '1E+2', '2.5e-3', '123456789012345678.123456'].map(parseMicros)).toEqual([
      300_000n,
      -1_500_000n,
      12_000_000n,
      1n,
      100_000_000n,
      2_500n,
      123456789012345678123456n,
    ]);
    expect(formatDecimal(microsToDecimal(parseMicros('10.250000')))).toBe('10.25');
    expect(formatDecimal(microsToDecimal(-300_000n))).toBe('-0.3');
    expect(() => parseMicros('0.0000001')).toThrow(/more than 6 decimal places/);
  });

  it('compares by value', () => {
    expect(compareDecimals(parseDecimal('0.30'), parseDecimal('0.3'))).toBe(0);
    expect(compareDecimals(parseDecimal('1'), parseDecimal('0.999999'))).toBe(1);
    expect(compareDecimals(parseDecimal('2'), parseDecimal('10'))).toBe(-1);
  });

  it('measures the precision of a JSON number as it will be stored', () => {
    expect(numberPrecision(0.1)).toEqual({ significantDigits: 1, decimalPlaces: 1 });
    expect(numberPrecision(1_000_000_000_000)).toEqual({ significantDigits: 1, decimalPlaces: 0 });
    expect(numberPrecision(123.456)).toEqual({ significantDigits: 6, decimalPlaces: 3 });
    expect(numberPrecision(0.0000001).decimalPlaces).toBe(7);
    expect(numberPrecision(123456789.1234567).significantDigits).toBeGreaterThan(15);
  });
});
