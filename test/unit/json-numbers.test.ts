import { ValidationError } from '../../shared/core/errors';
import { checkNumbersAsSent, inexactNumbers } from '../../shared/core/json-numbers';
import { compareDecimals, parseDecimal } from '../../shared/usage/decimal';

/** The numbers of a text, each reported or not, by path. */
const reported = (text: string) => inexactNumbers(text).map(({ field, text: written }) => [field, written]);

describe('numbers read exactly as written', () => {
  it.each([
    '0.1',
    '0.000001',
    '1e2',
    '1E-6',
    '-0',
    '0.0',
    '1.000000000000000000000',
    '123456789.123456',
    '999999999.999999',
    '1000000000000',
    '9007199254740991',
    '9007199254740992',
    '100000000000000000000',
    '0.30000000000000004',
    '1.7976931348623157e308',
    '5e-324',
  ])('%s is not reported', (number) => {
    expect(reported(`{"x":${number}}`)).toEqual([]);
  });

  it.each([
    ['0.1000000000000000001', 0.1],
    ['1000000000000.000001', 1e12],
    ['9007199254740993', 9007199254740992],
    ['2.0000000000000001', 2],
    ['-2.0000000000000001', -2],
    ['1e400', Infinity],
    ['-1e400', -Infinity],
    ['1e-400', 0],
    ['1.7976931348623159e308', Infinity],
  ])('%s is reported with what it would be read as', (number, read) => {
    expect(inexactNumbers(`{"x":${number}}`)).toEqual([{ path: ['x'], field: 'x', text: number, read }]);
  });

  it('agrees, on 2,000 random decimals, with exact decimal arithmetic on the text and on the double it is read as', () => {
    // mulberry32, seeded: the same 2,000 decimals on every run.
    let seed = 19;
    const next = (below: number) => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * below);
    };
    const digits = (count: number) => Array.from({ length: count }, () => next(10)).join('');
    const outcomes = { exact: 0, inexact: 0 };
    for (let i = 0; i < 2000; i += 1) {
      const whole = digits(1 + next(18)).replace(/^0+(?=\d)/, '');
      const fraction = next(2) ? `.${digits(1 + next(20))}` : '';
      const exponent = next(4) ? '' : `e${next(2) ? '-' : ''}${next(330)}`;
      const number = `${next(2) ? '-' : ''}${whole}${fraction}${exponent}`;
      const read = Number(number);
      const exact = Number.isFinite(read) && compareDecimals(parseDecimal(number), parseDecimal(String(read))) === 0;
      expect([number, reported(`[${number}]`).length]).toEqual([number, exact ? 0 : 1]);
      outcomes[exact ? 'exact' : 'inexact'] += 1;
    }
    // Both kinds, in numbers: the draw covers long digit runs, long fractions and exponents on both sides of a double's range.
    expect(outcomes.exact).toBeGreaterThan(500);
    expect(outcomes.inexact).toBeGreaterThan(500);
  });
});

describe('where a number stands', () => {
  it('names fields the way the API does, through arrays, escaped keys and odd names', () => {
    const text = `{"Entries":[{"Usage":1},{"Usage":2},{"Meter":"a,b:[c]","Usage":0.1000000000000000001}],
      "a\\"b": 1e400, "\\u0041": [ 1 , [ 2.0000000000000001 ] ], "__proto__": {"constructor": 9007199254740993}}`;
    expect(reported(text)).toEqual([
      ['Entries[2].Usage', '0.1000000000000000001'],
      ['a"b', '1e400'],
      ['A[1][0]', '2.0000000000000001'],
      ['__proto__.constructor', '9007199254740993'],
    ]);
    expect(inexactNumbers(text)[0].path).toEqual(['Entries', 2, 'Usage']);
  });

  it('reads a document nested 100,000 deep without recursion', () => {
    const depth = 100_000;
    const [found] = inexactNumbers(`${'['.repeat(depth)}1.00000000000000000001${']'.repeat(depth)}`);
    expect(found.path).toHaveLength(depth);
    expect(found.read).toBe(1);
  });

  it.each([
    '{"x":0.1000000000000000001',
    '{"x":0.1000000000000000001,}',
    '[0.1000000000000000001,]',
    '{"x":0.1000000000000000001}x',
    '{"x":0.1000000000000000001 "y":1}',
    '{"x":01,"y":0.1000000000000000001}',
    '{"x":+1,"y":0.1000000000000000001}',
    '{"x":1.,"y":0.1000000000000000001}',
    '{"x":tru,"y":0.1000000000000000001}',
    '{"x":"\\x","y":0.1000000000000000001}',
    '{"x":"\u0001","y":0.1000000000000000001}',
    '{x:0.1000000000000000001}',
    '',
  ])('finds nothing in %j, which is not JSON: its parse fails, and that is the error to report', (text) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(inexactNumbers(text)).toEqual([]);
  });
});

describe('checkNumbersAsSent', () => {
  const thrown = (text: string, ruleOf?: (path: (string | number)[]) => string | undefined) => {
    try {
      checkNumbersAsSent(text, ruleOf);
    } catch (error) {
      return error as ValidationError;
    }
    return undefined;
  };

  it('passes a text whose numbers are all read as written', () => {
    expect(thrown('{"Usage":0.000001,"OccurredAt":1700000000}')).toBeUndefined();
  });

  it('names the field with its rule when there is one, else with what it would be read as', () => {
    const withRule = thrown('{"Usage":1000000000000.000001}', (path) => (path[0] === 'Usage' ? 'must be small' : undefined));
    expect(withRule).toBeInstanceOf(ValidationError);
    expect(withRule).toMatchObject({ field: 'Usage', message: 'must be small' });
    expect(thrown('{"Size":9007199254740993}')?.message).toBe(
      'must be a number that is read as written (at most 15 significant digits): 9007199254740993 would be read as 9007199254740992',
    );
  });

  it('names every such field, the first in the message and all of them in errors', () => {
    const error = thrown('{"Entries":[{"Usage":0.1000000000000000001},{"Usage":1},{"Usage":1e400}]}', () => 'must be exact');
    expect(error).toMatchObject({ field: 'Entries[0].Usage', message: 'must be exact (and 1 more: Entries[2].Usage; see errors)' });
    expect(error?.extensions).toEqual({
      errors: [
        { field: 'Entries[0].Usage', detail: 'must be exact' },
        { field: 'Entries[2].Usage', detail: 'must be exact' },
      ],
    });
  });
});
