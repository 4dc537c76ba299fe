import type { LocalHost } from '../../lib/local/host';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { BATCH, METERS } from '../support/usage';

/**
 * The number a client writes is the number taken, or the request is refused:
 * bodies are written here as JSON text, at and just past each documented
 * limit, because JSON.stringify could not write the numbers that matter.
 */

const OCCURRED_AT = Date.parse('2026-03-10T12:00:00Z') / 1000;
const DAY = '2026-03-10';

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
  operator = await createTestOperator(testCatalog({ capacity: 10 }), { stem: 'as-sent' });
});

afterAll(() => host.close());

const post = (path: string, text: string, headers: Record<string, string> = {}) =>
  request('POST', path, { key: operator.key, rawBody: text, headers: { 'Content-Type': 'application/json', ...headers } });

/** The meters of the test day, by name: what the table holds for them. */
async function meters(): Promise<Record<string, { TotalUsage: number; EventCount: number }>> {
  const response = await request('GET', `${METERS}?from=${DAY}&to=${DAY}`, { key: operator.key });
  return Object.fromEntries(response.json.data.Meters.map((meter: any) => [meter.Meter, meter]));
}

const entry = (meter: string, usage: string, extra = '') => `{"Meter":"${meter}","Usage":${usage},"OccurredAt":${OCCURRED_AT}${extra}}`;

describe('POST /api/v2/usage/meters', () => {
  it.each([
    ['the smallest amount, 10^-6', '0.000001', 0.000001],
    ['the same in exponent form', '1E-6', 0.000001],
    ['the largest amount, 10^12', '1000000000000', 1e12],
    ['the same in exponent form', '1e12', 1e12],
    ['15 significant digits with 6 decimal places', '999999999.999999', 999999999.999999],
    ['15 significant digits just under 10^12', '999999999999.999', 999999999999.999],
    ['trailing zeros past the 6th decimal place', '2.50000000000000000000', 2.5],
  ])('takes %s (%s) and stores exactly that', async (_, text, value) => {
    const meter = `at-limit-${text.replace(/[^0-9a-zA-Z]/g, '-')}`;
    const response = await post(METERS, entry(meter, text));
    expect(response.status).toBe(201);
    expect(response.json.data.Usage).toBe(value);
    expect((await meters())[meter]).toEqual({ Meter: meter, TotalUsage: value, EventCount: 1 });
  });

  it.each([
    ['0', 'zero'],
    ['1e-400', 'a positive amount read as 0'],
    ['0.0000001', '7 decimal places'],
    ['1.1234567', '7 decimal places'],
    ['1000000000001', 'over 10^12'],
    ['1000000000000.000001', 'over 10^12 by 10^-6, read as 10^12'],
    ['1e400', 'over 10^12, read as Infinity'],
    ['9999999999.999999', '16 significant digits'],
    ['0.1000000000000000001', '19 significant digits, read as 0.1'],
  ])('refuses %s (%s) with a 422 naming Usage, and writes nothing', async (text) => {
    const meter = `past-limit-${text.replace(/[^0-9a-zA-Z]/g, '-')}`;
    const key = `as-sent-${meter}`;
    const response = await post(METERS, entry(meter, text), { 'Idempotency-Key': key });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json.detail).toBe(
      "Field 'Usage' must be a number greater than 0 and at most 1000000000000, with at most 6 decimal places and 15 significant digits",
    );
    expect((await meters())[meter]).toBeUndefined();
    // Nothing was written for the key either: sent again with a number it can take, it records afresh.
    const retried = await post(METERS, entry(meter, '1'), { 'Idempotency-Key': key });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('refuses an OccurredAt that is not the whole number it is read as', async () => {
    for (const occurredAt of [`${OCCURRED_AT}.0000000001`, '253370764799.0000001']) {
      const response = await post(METERS, `{"Meter":"when","Usage":1,"OccurredAt":${occurredAt}}`);
      expect(response.status).toBe(422);
      expect(response.json.detail).toMatch(/^Field 'OccurredAt' must be an integer Unix timestamp/);
    }
    expect((await meters()).when).toBeUndefined();
  });
});

describe('POST /api/v2/usage/meters/batch', () => {
  it('takes every entry at the limits', async () => {
    const texts = ['0.000001', '1000000000000', '999999999.999999'];
    const response = await post(BATCH, `{"Entries":[${texts.map((text, i) => entry(`batch-at-${i}`, text)).join(',')}]}`);
    expect(response.status).toBe(201);
    expect(response.json.data.Entries.map((recorded: any) => recorded.Usage)).toEqual([0.000001, 1e12, 999999999.999999]);
  });

  it('refuses a batch with entries past the limits, naming each, and writes none of it', async () => {
    const texts = ['1', '2', '3', '0.1000000000000000001', '4', '1000000000000.000001'];
    const response = await post(BATCH, `{"Entries":[${texts.map((text, i) => entry(`batch-past-${i}`, text)).join(',')}]}`);
    expect(response.status).toBe(422);
    expect(response.json.detail).toMatch(
      /^Field 'Entries\[3\]\.Usage' must be a number .* \(and 1 more: Entries\[5\]\.Usage; see errors\)$/,
    );
    expect(response.json.errors.map((error: any) => error.field)).toEqual(['Entries[3].Usage', 'Entries[5].Usage']);
    const recorded = await meters();
    expect(texts.map((_, i) => recorded[`batch-past-${i}`])).toEqual(texts.map(() => undefined));
  });
});

describe('POST /api/v2/ota/marketplace/booking', () => {
  it('refuses Participants that is not the whole number it is read as, and takes no place', async () => {
    const date = tomorrow();
    const vacancies = async () => {
      const response = await request('GET', `/api/v2/ota/marketplace/availability/s_walk1/timeslots?Date=${date}`, { key: operator.key });
      return response.json.data.find((slot: any) => slot.Time === '09:00').Vacancies;
    };
    const before = await vacancies();
    const response = await post(
      '/api/v2/ota/marketplace/booking',
      `{"ActivityID":"s_walk1","Date":"${date}","Time":"09:00","Participants":2.0000000000000001,
        "Customer":{"FirstName":"Ana","LastName":"Silva","Email":"ana@example.com"}}`,
    );
    expect(response.status).toBe(422);
    expect(response.json.detail).toBe("Field 'Participants' must be a whole number from 1 to 10000");
    expect(await vacancies()).toBe(before);
  });
});

describe('every fault of a body, listed', () => {
  it('lists the numbers not read as written beside the faults the schema finds, and writes nothing', async () => {
    const response = await post(
      BATCH,
      `{"Entries":[${entry('listed-0', '0.1000000000000000001')},{"Usage":1},${entry('listed-2', '1', ',"Colour":"red"')},${entry('listed-3', '"5"')}]}`,
    );
    expect(response.status).toBe(422);
    expect(response.json.detail).toMatch(
      /^Field 'Entries\[0\]\.Usage' must be a number .* \(and 3 more: Entries\[1\]\.Meter, Entries\[2\]\.Colour, Entries\[3\]\.Usage; see errors\)$/,
    );
    expect(response.json.errors).toEqual([
      { field: 'Entries[0].Usage', detail: expect.stringMatching(/^must be a number greater than 0/) },
      { field: 'Entries[1].Meter', detail: 'is required' },
      { field: 'Entries[2].Colour', detail: 'is not allowed' },
      { field: 'Entries[3].Usage', detail: expect.stringMatching(/^must be a number greater than 0/) },
    ]);
    expect((await meters())['listed-0']).toBeUndefined();
  });

  it('lists every field of a booking the schema refuses, a number not read as written among them', async () => {
    const response = await post(
      '/api/v2/ota/marketplace/booking',
      `{"ActivityID":"s_walk1","Date":"someday","Time":"09:00","Participants":2.0000000000000001,
        "Customer":{"FirstName":"Ana","LastName":"","Email":"ana"}}`,
    );
    expect(response.status).toBe(422);
    expect(response.json.errors.map((error: any) => error.field)).toEqual(['Participants', 'Date', 'Customer.LastName', 'Customer.Email']);
    expect(response.json.detail).toMatch(/^Field 'Participants' must be a whole number from 1 to 10000 \(and 3 more: /);
  });

  it('names one fault in errors too', async () => {
    const response = await post(METERS, '{"Meter":"one-fault"}');
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({ detail: "Field 'Usage' is required", errors: [{ field: 'Usage', detail: 'is required' }] });
  });

  it("answers an OCTo route in OCTo's error body, every fault in its errorMessage", async () => {
    const response = await post(
      '/octo/bookings',
      '{"productId":"s_walk1","optionId":"DEFAULT","unitItems":[{"unitId":"adult"}],"notes":5}',
    );
    expect(response.status).toBe(400);
    expect(Object.keys(response.json).sort()).toEqual(['error', 'errorMessage']);
    expect(response.json.error).toBe('BAD_REQUEST');
    expect(response.json.errorMessage).toBe(
      "Field 'availabilityId' is required; Field 'notes' must be text of at most 2000 characters, or null",
    );
  });
});
