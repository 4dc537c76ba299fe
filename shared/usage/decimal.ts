/**
 * Exact decimal arithmetic for usage amounts. DynamoDB stores numbers as
 * decimals of up to 38 significant digits; adding them as JavaScript floats
 * would turn 0.1 + 0.2 into 0.30000000000000004. A decimal here is an integer
 * count of units of 10^-scale, held in a BigInt.
 */
export interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_TEXT = /^(-)?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export const ZERO: Decimal = { units: 0n, scale: 0 };

/** Parses decimal text as DynamoDB and JSON write it, exponent notation included. */
export function parseDecimal(text: string): Decimal {
  const match = DECIMAL_TEXT.exec(text.trim());
  if (!match) throw new Error(`Not a decimal number: '${text}'`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  let units = BigInt(`${whole}${fraction}`);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalise({ units: sign ? -units : units, scale });
}

/** Drops trailing zeros of the fraction, so that equal values have one representation. */
function normalise({ units, scale }: Decimal): Decimal {
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

const rescale = (value: Decimal, scale: number): bigint => value.units * 10n ** BigInt(scale - value.scale);

export function addDecimals(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return normalise({ units: rescale(a, scale) + rescale(b, scale), scale });
}

export const negateDecimal = ({ units, scale }: Decimal): Decimal => ({ units: -units, scale });

export function compareDecimals(a: Decimal, b: Decimal): number {
  const scale = Math.max(a.scale, b.scale);
  const difference = rescale(a, scale) - rescale(b, scale);
  return difference === 0n ? 0 : difference > 0n ? 1 : -1;
}

/** Plain decimal text without exponent or trailing zeros: 0.3, 1, 1234.5. */
export function formatDecimal({ units, scale }: Decimal): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The JSON number of a decimal. Exact whenever the decimal has at most 15
 * significant digits (every double prints back as the shortest decimal that
 * identifies it); beyond that it is the nearest double.
 */
export const decimalToNumber = (value: Decimal): number => Number(formatDecimal(value));

/**
 * Totals as whole millionths. Every usage amount has at most
 * MAX_USAGE_DECIMAL_PLACES (6) decimal places, so every sum of them is an
 * exact count of millionths: summaries add them as plain BigInts, about ten
 * times faster than decimals of varying scale, which matters when a grouped
 * summary adds up every combination of every aggregate it reads.
 */
const MICRO_SCALE = 6;
const PLAIN_MICROS = /^-?\d+(?:\.\d{1,6})?$/;

export function parseMicros(text: string): bigint {
  if (PLAIN_MICROS.test(text)) {
    const [whole, fraction = ''] = text.split('.');
    const micros = BigInt(`${whole.replace('-', '')}${fraction.padEnd(MICRO_SCALE, '0')}`);
    return whole.startsWith('-') ? -micros : micros;
  }
  const { units, scale } = parseDecimal(text);
  if (scale > MICRO_SCALE) throw new Error(`A usage total with more than ${MICRO_SCALE} decimal places: '${text}'`);
  return units * 10n ** BigInt(MICRO_SCALE - scale);
}

export const microsToDecimal = (micros: bigint): Decimal => normalise({ units: micros, scale: MICRO_SCALE });

/** Significant digits and decimal places of a number as JavaScript prints it (its shortest exact form). */
export function numberPrecision(value: number): { significantDigits: number; decimalPlaces: number } {
  const { units, scale } = parseDecimal(String(value));
  const digits = (units < 0n ? -units : units).toString().replace(/0+$/, '');
  return { significantDigits: units === 0n ? 0 : digits.length, decimalPlaces: scale };
}
