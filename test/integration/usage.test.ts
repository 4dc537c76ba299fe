// Long because it is the single-entry usage API end to end (recording, idempotency, summaries, limits), over one shared operator.
import type { LocalHost } from '../../lib/local/host';
import { AGGREGATE_SHARDS, MAX_SUMMARY_DAYS } from '../../shared/usage/model';
import { summarizeUsage } from '../../shared/usage/summary';
import { addDays } from '../../shared/core/calendar';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { expectProblem } from '../support/problems';

const METERS = '/api/v2/usage/meters';

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

/** Unix seconds of a UTC date and time. */
const at = (date: string, time = '12:00:00') => Date.parse(`${date}T${time}Z`) / 1000;

const record = (operator: TestOperator, body: unknown, headers: Record<string, string> = {}) =>
  request('POST', METERS, { key: operator.key, body, headers });

const summary = (operator: TestOperator, query: string) => request('GET', `${METERS}?${query}`, { key: operator.key });

describe('POST /api/v2/usage/meters', () => {
  let operator: TestOperator;
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-post' });
  });

  it('records an entry and answers 201 with an integer ID, the meter, the usage and the time', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await record(operator, { Meter: 'api-calls', Usage: 2.5, ExtraInfo: '{"Endpoint":"/x"}' });
    const after = Math.floor(Date.now() / 1000);
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json.data).toEqual({ ID: expect.any(Number), Meter: 'api-calls', Usage: 2.5, OccurredAt: expect.any(Number) });
    expect(Number.isSafeInteger(response.json.data.ID)).toBe(true);
    expect(response.json.data.OccurredAt).toBeGreaterThanOrEqual(before);
    expect(response.json.data.OccurredAt).toBeLessThanOrEqual(after);
    expect(response.headers.get('location')).toBeNull();
  });

  it('keeps a given OccurredAt and gives later entries larger IDs', async () => {
    const first = await record(operator, { Meter: 'ordering', Usage: 1, OccurredAt: at('2026-01-10') });
    const second = await record(operator, { Meter: 'ordering', Usage: 1, OccurredAt: at('2026-01-09') });
    expect(first.json.data.OccurredAt).toBe(at('2026-01-10'));
    // IDs follow recording time, not OccurredAt.
    expect(second.json.data.ID).toBeGreaterThan(first.json.data.ID);
  });

  it('answers 422 naming the field for every kind of bad input, and records nothing', async () => {
    const day = '2026-01-20';
    const valid = { Meter: 'bad-input', Usage: 1, OccurredAt: at(day) };
    const cases: [unknown, RegExp][] = [
      [{ Usage: 1 }, /'Meter' is required/],
      [{ ...valid, Meter: '' }, /'Meter' must be 1 to 128 characters/],
      [{ ...valid, Meter: 42 }, /'Meter' must be/],
      [{ ...valid, Meter: 'has space' }, /'Meter' must be/],
      [{ ...valid, Meter: 'a#b' }, /'Meter' must be/],
      [{ ...valid, Meter: 'm'.repeat(129) }, /'Meter' must be/],
      [{ Meter: 'bad-input' }, /'Usage' is required/],
      [{ ...valid, Usage: '5' }, /'Usage' must be a number/],
      [{ ...valid, Usage: 0 }, /'Usage' must be a number greater than 0/],
      [{ ...valid, Usage: -1 }, /'Usage'/],
      [{ ...valid, Usage: null }, /'Usage'/],
      [{ ...valid, Usage: 'NaN' }, /'Usage'/],
      [{ ...valid, Usage: 1e13 }, /'Usage'/],
      [{ ...valid, Usage: 0.0000001 }, /'Usage'.*6 decimal places/],
      [{ ...valid, Usage: 123456789.1234567 }, /'Usage'/],
      [{ ...valid, OccurredAt: 1.5 }, /'OccurredAt' must be an integer/],
      [{ ...valid, OccurredAt: '123' }, /'OccurredAt'/],
      [{ ...valid, OccurredAt: -1 }, /'OccurredAt'/],
      [{ ...valid, OccurredAt: 253402300800 }, /'OccurredAt'/],
      [{ ...valid, ExtraInfo: { a: 1 } }, /'ExtraInfo' must be a string/],
      [{ ...valid, ExtraInfo: 'x'.repeat(4097) }, /'ExtraInfo'.*4096/],
      [{ ...valid, Extra: 1 }, /'Extra' is not allowed/],
      [[valid], /must be a JSON object/],
      [{ ...valid, Meter: 'order-completed' }, /'Meter'.*built-in meter/],
    ];
    for (const [body, detail] of cases) expectProblem(await record(operator, body), 422, { instance: METERS, detail });
    // 1e400 is Infinity to a JSON parser: too large, not a number to store.
    const infinite = await request('POST', METERS, {
      key: operator.key,
      rawBody: `{"Meter":"bad-input","Usage":1e400}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expectProblem(infinite, 422, { instance: METERS, detail: /'Usage'/ });
    expectProblem(await record(operator, valid, { 'Idempotency-Key': 'x'.repeat(256) }), 422, {
      instance: METERS,
      detail: /Idempotency-Key/,
    });

    const nothing = await summary(operator, `from=${day}&to=${day}`);
    expect(nothing.json.data.Meters).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await summary(operator, `from=${today}&to=${today}`)).json.data.Meters.map((m: any) => m.Meter)).not.toContain('bad-input');
  });

  it('answers 415 without a JSON content type and 400 for malformed JSON', async () => {
    const wrongType = await request('POST', METERS, {
      key: operator.key,
      rawBody: '{"Meter":"m","Usage":1}',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
    const malformed = await request('POST', METERS, {
      key: operator.key,
      rawBody: '{"Meter":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });

  it('needs the usage:write scope to record and usage:read to read', async () => {
    const readOnly = await operator.keyWith(['usage:read']);
    const writeOnly = await operator.keyWith(['usage:write']);
    expect((await request('POST', METERS, { key: readOnly, body: { Meter: 'm', Usage: 1 } })).status).toBe(403);
    expect((await request('GET', `${METERS}?from=2026-01-01&to=2026-01-01`, { key: writeOnly })).status).toBe(403);
    expect((await request('GET', `${METERS}?from=2026-01-01&to=2026-01-01`, { key: readOnly })).status).toBe(200);
    expect((await request('POST', METERS, { body: { Meter: 'm', Usage: 1 } })).status).toBe(401);
  });
});

describe('Idempotency-Key', () => {
  let operator: TestOperator;
  const day = '2026-02-03';
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-idem' });
  });

  it('returns the original entry for a repeated key and counts it once', async () => {
    const body = { Meter: 'uploads', Usage: 3, OccurredAt: at(day) };
    const first = await record(operator, body, { 'Idempotency-Key': 'upload-1' });
    const again = await record(operator, body, { 'Idempotency-Key': 'upload-1' });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.data).toEqual(first.json.data);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const other = await record(operator, body, { 'Idempotency-Key': 'upload-2' });
    expect(other.json.data.ID).not.toBe(first.json.data.ID);
    const { json } = await summary(operator, `from=${day}&to=${day}`);
    expect(json.data.Meters).toEqual([{ Meter: 'uploads', TotalUsage: 6, EventCount: 2 }]);
  });

  it('answers 422 when a key is reused for a different entry, and records nothing', async () => {
    const reuseDay = '2026-02-05';
    await record(operator, { Meter: 'uploads', Usage: 1, OccurredAt: at(reuseDay) }, { 'Idempotency-Key': 'reuse' });
    const response = await record(operator, { Meter: 'uploads', Usage: 2, OccurredAt: at(reuseDay) }, { 'Idempotency-Key': 'reuse' });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json.detail).toMatch(/'Idempotency-Key' was already used for usage entry \d+/);
    const { json } = await summary(operator, `from=${reuseDay}&to=${reuseDay}`);
    expect(json.data.Meters).toEqual([{ Meter: 'uploads', TotalUsage: 1, EventCount: 1 }]);
  });

  it('counts once when the same key arrives many times at the same moment', async () => {
    const raceDay = '2026-02-04';
    const body = { Meter: 'race', Usage: 0.5, OccurredAt: at(raceDay) };
    const responses = await Promise.all(Array.from({ length: 12 }, () => record(operator, body, { 'Idempotency-Key': 'race-key' })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(new Set(responses.map((response) => response.json.data.ID)).size).toBe(1);
    const { json } = await summary(operator, `from=${raceDay}&to=${raceDay}`);
    expect(json.data.Meters).toEqual([{ Meter: 'race', TotalUsage: 0.5, EventCount: 1 }]);
  });
});

describe('GET /api/v2/usage/meters', () => {
  let operator: TestOperator;
  const day = '2026-03-10';

  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-sum' });
    const entries = [
      ...Array.from({ length: 10 }, () => ({ Meter: 'tenths', Usage: 0.1, OccurredAt: at(day, '08:00:00') })),
      { Meter: 'pair', Usage: 0.1, OccurredAt: at(day, '09:00:00') },
      { Meter: 'pair', Usage: 0.2, OccurredAt: at(addDays(day, 1), '23:59:59') },
      { Meter: 'big', Usage: 7, OccurredAt: at(day, '00:00:00') },
      { Meter: 'alpha-tie', Usage: 1, OccurredAt: at(day) },
      { Meter: 'outside', Usage: 100, OccurredAt: at(addDays(day, 2), '00:00:00') },
      { Meter: 'outside', Usage: 100, OccurredAt: at(day, '00:00:00') - 1 },
    ];
    for (const entry of entries) expect((await record(operator, entry)).status).toBe(201);
  });

  it('sums each meter exactly over whole UTC days, sorted by total then name, with matching totals', async () => {
    const response = await summary(operator, `from=${day}&to=${addDays(day, 1)}`);
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({
      Period: {
        From: day,
        To: addDays(day, 1),
        FromTimestamp: at(day, '00:00:00'),
        ToTimestamp: at(addDays(day, 1), '23:59:59'),
        TimeZone: 'UTC',
      },
      Totals: { Usage: 9.3, Events: 14 },
      Meters: [
        { Meter: 'big', TotalUsage: 7, EventCount: 1 },
        { Meter: 'alpha-tie', TotalUsage: 1, EventCount: 1 },
        { Meter: 'tenths', TotalUsage: 1, EventCount: 10 },
        { Meter: 'pair', TotalUsage: 0.3, EventCount: 2 },
      ],
    });
  });

  it('adds a dense per-day series with granularity=day', async () => {
    const { json } = await summary(operator, `from=${day}&to=${addDays(day, 2)}&granularity=day`);
    const pair = json.data.Meters.find((m: any) => m.Meter === 'pair');
    expect(pair.Days).toEqual([
      { Date: day, Usage: 0.1, Events: 1 },
      { Date: addDays(day, 1), Usage: 0.2, Events: 1 },
      { Date: addDays(day, 2), Usage: 0, Events: 0 },
    ]);
    expect(json.data.Meters.find((m: any) => m.Meter === 'outside').Days.map((d: any) => d.Events)).toEqual([0, 0, 1]);
  });

  it('cuts days at the midnights of the zone given as tz', async () => {
    // Given in another case, a listed zone is answered as listed.
    // New York keeps UTC-4 from 8 March 2026, so its 9 March runs from 04:00Z on the 9th to 03:59:59Z on the 10th.
    const { json } = await summary(operator, `from=${addDays(day, -1)}&to=${addDays(day, -1)}&tz=america/new_york`);
    expect(json.data.Period).toEqual({
      From: addDays(day, -1),
      To: addDays(day, -1),
      FromTimestamp: at(addDays(day, -1), '04:00:00'),
      ToTimestamp: at(day, '03:59:59'),
      TimeZone: 'America/New_York',
    });
    expect(json.data.Meters).toEqual([
      { Meter: 'outside', TotalUsage: 100, EventCount: 1 },
      { Meter: 'big', TotalUsage: 7, EventCount: 1 },
    ]);
  });

  it('names the zone as it was sent, an alias too, in the answer and in a refusal', async () => {
    // Node's ICU calls these zones Europe/Kiev, America/New_York and Asia/Calcutta.
    for (const zone of ['Europe/Kyiv', 'US/Eastern']) {
      const { status, json } = await summary(operator, `from=${day}&to=${day}&tz=${zone}`);
      expect({ status, zone: json.data.Period.TimeZone }).toEqual({ status: 200, zone });
    }
    expectProblem(await summary(operator, `from=${day}&to=${day}&tz=Asia/Kolkata`), 422, {
      instance: METERS,
      detail: new RegExp(`^Query parameter 'tz' is Asia/Kolkata, where the day ${day} does not start on a whole UTC hour;`),
    });
  });

  it('handles a 23-hour DST day in a zone', async () => {
    const { json } = await summary(operator, `from=2026-03-29&to=2026-03-29&tz=Europe/Lisbon`);
    expect(json.data.Period.ToTimestamp - json.data.Period.FromTimestamp + 1).toBe(23 * 3600);
  });

  it('answers 422 for missing, unreal or reversed dates, too long a range, and unsupported zones', async () => {
    const cases: [string, RegExp][] = [
      [`to=${day}`, /'from' is required/],
      [`from=${day}`, /'to' is required/],
      [`from=2026-02-30&to=2026-03-01`, /'from'/],
      [`from=${day}&to=soon`, /'to'/],
      [`from=0000-01-01&to=0000-01-02`, /'from' must be a real calendar date .* from 1970-01-01/],
      [`from=9998-12-31&to=9999-12-31`, /'to'/],
      [`from=${day}&to=${addDays(day, -1)}`, /'to' must not be before 'from'/],
      [`from=${day}&to=${addDays(day, MAX_SUMMARY_DAYS)}`, /at most 366/],
      [`from=${day}&to=${day}&tz=Mars/Olympus`, /'tz'/],
      [`from=${day}&to=${day}&tz=Asia/Kolkata`, /'tz'.*whole UTC hours/],
      [`from=${day}&to=${day}&granularity=week`, /'granularity'/],
      [`from=${day}&to=${addDays(day, 7)}&granularity=hour`, /'granularity' may be 'hour' for ranges of at most 7 days/],
    ];
    for (const [query, detail] of cases) expectProblem(await summary(operator, query), 422, { instance: METERS, detail });
    expect((await summary(operator, `from=${day}&to=${addDays(day, MAX_SUMMARY_DAYS - 1)}`)).status).toBe(200);
  });

  it('sees only the calling operator', async () => {
    const stranger = await createTestOperator(undefined, { stem: 'usage-other' });
    expect((await summary(stranger, `from=${day}&to=${day}`)).json.data).toEqual(
      expect.objectContaining({ Totals: { Usage: 0, Events: 0 }, Meters: [] }),
    );
  });
});

describe('summary cost', () => {
  it('reads aggregates only: ten times the entries, no more items read', async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-cost' });
    const day = '2026-04-01';
    const occurredAt = at(day, '10:15:00');
    const recordMany = async (count: number) => {
      for (let i = 0; i < count; i += 10) {
        await Promise.all(
          Array.from({ length: Math.min(10, count - i) }, () => record(operator, { Meter: 'hot', Usage: 0.01, OccurredAt: occurredAt })),
        );
      }
    };
    await recordMany(20);
    const small = await summarizeUsage(operator.operatorId, { from: day, to: day });
    await recordMany(180);
    const large = await summarizeUsage(operator.operatorId, { from: day, to: day });

    expect(small.summary.Meters).toEqual([{ Meter: 'hot', TotalUsage: 0.2, EventCount: 20 }]);
    expect(large.summary.Meters).toEqual([{ Meter: 'hot', TotalUsage: 2, EventCount: 200 }]);
    // One meter in one hour: at most one aggregate per shard, for 20 entries as for 200.
    for (const { readCost } of [small, large]) {
      expect(readCost.itemsRead).toBeGreaterThan(0);
      expect(readCost.itemsRead).toBeLessThanOrEqual(AGGREGATE_SHARDS);
      // At most one 0.5-unit eventually consistent read (under 4 KB) per shard's Query.
      expect(readCost.capacityUnits).toBeGreaterThan(0);
      expect(readCost.capacityUnits).toBeLessThanOrEqual(AGGREGATE_SHARDS * 0.5);
    }
  });
});
