import { everyViolation, ValidationError, type FieldViolation } from './errors';

/**
 * JSON numbers as they were sent. JSON.parse reads every number into a
 * double, which carries 15 to 17 significant digits: `0.1000000000000000001`
 * is read as 0.1 and `9007199254740993` as 9007199254740992, without a word.
 * A number is taken only when the double it is read as is the decimal that
 * was written, so that no rule is checked, and nothing stored, on a number
 * the client did not send. Node 20's JSON.parse cannot show a reviver the
 * source text of a number (that came with V8 in Node 22), so the text is
 * scanned here, beside the parse.
 */

export type JsonPath = (string | number)[];

export interface InexactNumber {
  /** Where the number stands: object keys and array indexes from the top. */
  path: JsonPath;
  /** The path as the API names fields: `Entries[3].Usage`. */
  field: string;
  /** The number as written. */
  text: string;
  /** What JSON.parse reads it as. */
  read: number;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// Characters a JSON string holds as they are: anything but the quote, the backslash and control characters.
// eslint-disable-next-line no-control-regex -- control characters are exactly what a JSON string may not hold raw
const STRING_RUN = /[^"\\\u0000-\u001f]*/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;
const LITERAL = /true|false|null/y;
const DECIMAL = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** The decimal value of a number's text, as digits and the place of the point, with zeros that say nothing left out. */
function decimalKey(text: string): string {
  const [, whole, fraction = '', exponent = '0'] = DECIMAL.exec(text) as RegExpExecArray;
  const digits = `${whole}${fraction}`;
  const leading = digits.length - digits.replace(/^0+/, '').length;
  const significant = digits.slice(leading).replace(/0+$/, '');
  if (!significant) return '0';
  const point = whole.length - leading + Number(exponent);
  return `${text.startsWith('-') ? '-' : ''}${significant}e${point}`;
}

function readExactly(text: string, read: number): boolean {
  const shortest = String(read);
  if (shortest === text) return true;
  // Up to 15 characters and no exponent: at most 15 digits, within the range where every such decimal is read exactly.
  if (text.length <= 15 && !/[eE]/.test(text)) return true;
  return Number.isFinite(read) && decimalKey(text) === decimalKey(shortest);
}

const fieldName = (path: JsonPath): string =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${key}` : key), '');

/** The index of the first character at or after `index` that is not JSON whitespace. */
function skipSpace(text: string, index: number): number {
  let i = index;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(i)) i += 1;
  return i;
}

function at(pattern: RegExp, text: string, index: number): number {
  pattern.lastIndex = index;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/** The index after the string that opens at `index`, or -1 when it is not a JSON string. */
function afterString(text: string, index: number): number {
  let i = index + 1;
  for (;;) {
    i = at(STRING_RUN, text, i);
    const c = text[i];
    if (c === '"') return i + 1;
    if (c !== '\\') return -1;
    i = at(ESCAPE, text, i);
    if (i < 0) return -1;
  }
}

/**
 * The numbers of a JSON text that JSON.parse would not read as the decimal
 * written, in the order they appear. A text that is not JSON has none: its
 * parse fails, and that is the error to report.
 */
export function inexactNumbers(text: string): InexactNumber[] {
  const found: InexactNumber[] = [];
  // The containers open at the current value; in each, `at` is the value's index (arrays) or where its key starts (objects).
  const open: { array: boolean; at: number }[] = [];
  const pathHere = (): JsonPath =>
    open.map(({ array, at: place }) => (array ? place : (JSON.parse(text.slice(place, afterString(text, place))) as string)));
  /** Reads `"key":` at `index` as the current object's key; returns the index of the value after it. */
  const readKey = (index: number): number => {
    const end = text[index] === '"' ? afterString(text, index) : -1;
    if (end < 0) return -1;
    open[open.length - 1].at = index;
    const colon = skipSpace(text, end);
    return text[colon] === ':' ? skipSpace(text, colon + 1) : -1;
  };
  let i = skipSpace(text, 0);
  for (;;) {
    // A value starts at i.
    const c = text[i];
    let closed = true;
    if (c === '{' || c === '[') {
      open.push({ array: c === '[', at: 0 });
      i = skipSpace(text, i + 1);
      if (text[i] === (c === '[' ? ']' : '}')) {
        open.pop();
        i += 1;
      } else {
        closed = false;
        if (c === '{') i = readKey(i);
      }
    } else if (c === '"') {
      i = afterString(text, i);
    } else if (c === 't' || c === 'f' || c === 'n') {
      i = at(LITERAL, text, i);
    } else {
      const start = i;
      i = at(NUMBER, text, i);
      if (i >= 0) {
        const written = text.slice(start, i);
        const read = Number(written);
        if (!readExactly(written, read)) {
          const path = pathHere();
          found.push({ path, field: fieldName(path), text: written, read });
        }
      }
    }
    if (i < 0) return [];
    // After a value: close the containers it ends, or move to the next member or element.
    while (closed) {
      i = skipSpace(text, i);
      const container = open.at(-1);
      if (!container) return i === text.length ? found : [];
      if (text[i] === (container.array ? ']' : '}')) {
        open.pop();
        i += 1;
      } else if (text[i] === ',') {
        i = skipSpace(text, i + 1);
        if (container.array) container.at += 1;
        else i = readKey(i);
        if (i < 0) return [];
        closed = false;
      } else {
        return [];
      }
    }
  }
}

const shown = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

/**
 * The numbers of a JSON text that would not all be read as written, as
 * violations: each field with the rule `ruleOf` gives for its place (a
 * schema's wording), or else what it would be read as. A bare number as the
 * whole text has no field to name, and is refused at once.
 */
export function numberViolations(text: string, ruleOf: (path: JsonPath) => string | undefined = () => undefined): FieldViolation[] {
  const violations: FieldViolation[] = inexactNumbers(text).map(({ path, field, text: written, read }) => ({
    field,
    message:
      ruleOf(path) ??
      `must be a number that is read as written (at most 15 significant digits): ${shown(written)} would be read as ${read}`,
  }));
  if (violations.some(({ field }) => !field)) throw new ValidationError('The JSON text is a number that would not be read as written');
  return violations;
}

/** Refuses a JSON text whose numbers would not all be read as written: one ValidationError naming every such field. */
export function checkNumbersAsSent(text: string, ruleOf?: (path: JsonPath) => string | undefined): void {
  const violations = numberViolations(text, ruleOf);
  if (violations.length) throw everyViolation(violations);
}
