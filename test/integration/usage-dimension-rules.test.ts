// Usage by dimension: Dimensions with idempotency keys, their validation, and the limit of combinations per meter.
import type { LocalHost } from '../../lib/local/host';
import { documentClient, tableName } from '../../shared/db/client';
import * as usageKeys from '../../shared/db/usage-keys';
import { MAX_DIMENSION_COMBINATIONS } from '../../shared/usage/model';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { at, METERS, usageClient } from '../support/usage';
import { expectProblem } from '../support/problems';

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const query = (from: string, to: string, extra: Record<string, string> = {}) => new URLSearchParams({ from, to, ...extra }).toString();

describe('Dimensions with idempotency keys', () => {
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;
  const day = '2026-08-20';
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-dims-idem' });
    usage = usageClient(request, operator);
  });

  it('replays a key sent again with the same dimensions in any order, and refuses it with other dimensions', async () => {
    const body = { Meter: 'uploads', Usage: 2, OccurredAt: at(day), Dimensions: { Region: 'eu-west', Plan: 'pro' } };
    const first = await usage.record(body, { 'Idempotency-Key': 'dims-1' });
    const again = await usage.record({ ...body, Dimensions: { Plan: 'pro', Region: 'eu-west' } }, { 'Idempotency-Key': 'dims-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toEqual(first.json.data);
    for (const Dimensions of [
      { Region: 'eu-west' },
      { Region: 'eu-west', Plan: 'team' },
      { Region: 'eu-west', Plan: 'pro', Tier: 'new' },
      undefined,
    ]) {
      const reused = await usage.record({ ...body, Dimensions }, { 'Idempotency-Key': 'dims-1' });
      expectProblem(reused, 422, { detail: /^Header 'Idempotency-Key' was already used for usage entry \d+ with a different request/ });
    }
    // An entry without dimensions and one with `{}` are the same request.
    const plain = { Meter: 'uploads', Usage: 1, OccurredAt: at(day) };
    const recorded = await usage.record(plain, { 'Idempotency-Key': 'dims-2' });
    const empty = await usage.record({ ...plain, Dimensions: {} }, { 'Idempotency-Key': 'dims-2' });
    expect([empty.status, empty.json.data.ID, empty.headers.get('idempotent-replayed')]).toEqual([201, recorded.json.data.ID, 'true']);

    const summary = await usage.summary(query(day, day, { groupBy: 'Region,Tier' }));
    expect(summary.Meters).toEqual([
      { Meter: 'uploads', Dimensions: { Region: 'eu-west', Tier: null }, TotalUsage: 2, EventCount: 1 },
      { Meter: 'uploads', Dimensions: { Region: null, Tier: null }, TotalUsage: 1, EventCount: 1 },
    ]);
    // The refused requests registered nothing: the meter knows one combination.
    const count = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: usageKeys.combinationCount(operator.operatorId, 'uploads') }),
    );
    expect(count.Item?.Count).toBe(1);
  });

  it('treats a batch Identifier the same way: replayed with the same dimensions, refused with others, nothing written', async () => {
    const entry = { Meter: 'jobs', Usage: 0.5, OccurredAt: at(day), Dimensions: { Queue: 'fast' }, Identifier: 'job-1' };
    const [first] = (await usage.batch([entry])).json.data.Entries;
    const [replayed] = (await usage.batch([{ ...entry }])).json.data.Entries;
    expect(replayed).toEqual({ ...first, Replayed: true });
    const refused = await usage.batch([
      { Meter: 'jobs', Usage: 1, OccurredAt: at(day), Dimensions: { Queue: 'slow' }, Identifier: 'job-2' },
      { ...entry, Dimensions: { Queue: 'slow' } },
    ]);
    expectProblem(refused, 422, {
      detail: /^Field 'Entries\[1\]\.Identifier' was already used for usage entry \d+ with a different request/,
    });
    const inBatch = await usage.batch([entry, { ...entry, Dimensions: { Queue: 'other' } }]);
    expectProblem(inBatch, 422, { detail: /'Entries\[1\]\.Identifier' repeats the Identifier of Entries\[0\] with different fields/ });
    expect((await usage.summary(query(day, day, { groupBy: 'Queue', 'filter[Queue]': 'fast' }))).Meters).toEqual([
      { Meter: 'jobs', Dimensions: { Queue: 'fast' }, TotalUsage: 0.5, EventCount: 1 },
    ]);
    expect((await usage.summary(query(day, day, { 'filter[Queue]': 'slow' }))).Meters).toEqual([]);
  });
});

describe('validation', () => {
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;
  const day = '2026-08-25';
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-dims-valid' });
    usage = usageClient(request, operator);
  });

  const bad: [unknown, string, RegExp][] = [
    ['eu-west', 'Dimensions', /must be an object of at most 5 dimensions/],
    [['eu-west'], 'Dimensions', /must be an object/],
    [null, 'Dimensions', /must be an object/],
    [{ a: '1', b: '1', c: '1', d: '1', e: '1', f: '1' }, 'Dimensions', /must be an object of at most 5 dimensions/],
    [{ Region: '' }, 'Dimensions.Region', /must be a string of 1 to 100 characters/],
    [{ Region: 'x'.repeat(101) }, 'Dimensions.Region', /must be a string of 1 to 100 characters/],
    [{ Region: 5 }, 'Dimensions.Region', /must be a string/],
    [{ Region: null }, 'Dimensions.Region', /must be a string/],
    [{ Region: { nested: 'x' } }, 'Dimensions.Region', /must be a string/],
    [{ '1Region': 'x' }, 'Dimensions.1Region', /must be a dimension key/],
    [{ 'Re-gion': 'x' }, 'Dimensions.Re-gion', /must be a dimension key/],
    [{ '': 'x' }, 'Dimensions.', /must be a dimension key/],
    [{ ['K'.repeat(41)]: 'x' }, `Dimensions.${'K'.repeat(41)}`, /must be a dimension key/],
    [{ __proto__x: 'x' }, 'Dimensions.__proto__x', /must be a dimension key/],
  ];

  it('refuses every broken rule of Dimensions with 422 naming the field, on both routes, and writes nothing', async () => {
    for (const [Dimensions, field, detail] of bad) {
      const single = await usage.record({ Meter: 'valid', Usage: 1, OccurredAt: at(day), Dimensions });
      expectProblem(single, 422, { detail: new RegExp(`^Field '${field.replace(/[.[\]]/g, '\\$&')}' ${detail.source}`) });
      const batch = await usage.batch([
        { Meter: 'valid', Usage: 1, OccurredAt: at(day), Dimensions: { Region: 'ok' } },
        { Meter: 'valid', Usage: 1, OccurredAt: at(day) },
        { Meter: 'valid', Usage: 1, OccurredAt: at(day) },
        { Meter: 'valid', Usage: 1, OccurredAt: at(day), Dimensions },
      ]);
      expectProblem(batch, 422, { detail: new RegExp(`^Field 'Entries\\[3\\]\\.${field.replace(/[.[\]]/g, '\\$&')}' ${detail.source}`) });
    }
    // JSON.parse makes `__proto__` an own key: refused by its name, never treated as the prototype.
    const proto = await request('POST', METERS, {
      key: operator.key,
      rawBody: `{"Meter":"valid","Usage":1,"OccurredAt":${at(day)},"Dimensions":{"__proto__":"x"}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expectProblem(proto, 422, { detail: /^Field 'Dimensions\.__proto__' must be a dimension key/ });
    expect((await usage.summary(query(day, day))).Meters).toEqual([]);
  });

  it('accepts the edges: 5 keys, 40-character keys, 100-character values, names of inherited members', async () => {
    const Dimensions = { A: '1', ['K'.repeat(40)]: 'v'.repeat(100), constructor: 'c', toString: 't', hasOwnProperty: 'h' };
    const recorded = await usage.record({ Meter: 'edges', Usage: 1, OccurredAt: at(day), Dimensions });
    expect(recorded.status).toBe(201);
    const summary = await usage.summary(query(day, day, { groupBy: 'constructor,toString', 'filter[hasOwnProperty]': 'h' }));
    expect(summary.Meters).toEqual([{ Meter: 'edges', Dimensions: { constructor: 'c', toString: 't' }, TotalUsage: 1, EventCount: 1 }]);
    // A key the entry lacks is null, even one an object would inherit.
    const missing = await usage.summary(query(day, day, { groupBy: 'valueOf' }));
    expect(missing.Meters).toEqual([{ Meter: 'edges', Dimensions: { valueOf: null }, TotalUsage: 1, EventCount: 1 }]);
    expect((await usage.summary(query(day, day, { 'filter[valueOf]': 'x' }))).Meters).toEqual([]);
  });

  it('refuses a bad groupBy or filter with 422 naming the query parameter', async () => {
    const cases: [string, RegExp][] = [
      ['groupBy=', /^Query parameter 'groupBy' must be one or two dimension keys/],
      ['groupBy=Region,Plan,Tier', /^Query parameter 'groupBy' must be one or two/],
      ['groupBy=Region,', /^Query parameter 'groupBy'/],
      ['groupBy=Re-gion', /^Query parameter 'groupBy'/],
      ['groupBy=Region,Region', /^Query parameter 'groupBy' names 'Region' twice/],
      ['filter[Region]=', /^Query parameter 'filter\[Region\]' must be a string of 1 to 100 characters/],
      [`filter[Region]=${'x'.repeat(101)}`, /^Query parameter 'filter\[Region\]' must be a string of 1 to 100/],
      ['filter[Re-gion]=x', /^Query parameter 'filter\[Re-gion\]' must be a dimension key/],
      ['filter[]=x', /^Query parameter 'filter\[\]' must be a dimension key/],
      ['filter[__proto__]=x', /^Query parameter 'filter\[__proto__\]' must be a dimension key/],
      ['filter[constructor][x]=y', /^Query parameter 'filter\[constructor\]\[x\]' is not a parameter of the form filter\[Key\]/],
      ['filter[Region=x', /^Query parameter 'filter\[Region' is not a parameter of the form filter\[Key\]/],
      ['Filter[Region]=x', /^Query parameter 'filter' cannot be sent as 'Filter\[Region\]': parameter names are case-sensitive/],
      ['filter=Region', /^Query parameter 'filter' must be given as filter\[Key\]=value/],
      [
        'filter[A]=1&filter[B]=1&filter[C]=1&filter[D]=1&filter[E]=1&filter[F]=1',
        /^Query parameter 'filter' must be given as filter\[Key\]=value, at most 5/,
      ],
    ];
    for (const [parameters, detail] of cases) {
      const response = await request(
        'GET',
        `${METERS}?from=${day}&to=${day}&${encodeURI(parameters).replace(/\[/g, '%5B').replace(/\]/g, '%5D')}`,
        {
          key: operator.key,
        },
      );
      expectProblem(response, 422, { detail });
      expect(response.json.instance).toBe(METERS);
    }
    // Five filters are allowed; a parameter unrelated to filter is ignored as any unknown one.
    const five = await usage.summary(`from=${day}&to=${day}&filter[A]=1&filter[B]=1&filter[C]=1&filter[D]=1&filter[E]=1&filtered=1`);
    expect(five.Meters).toEqual([]);
  });
});

describe('the limit of combinations per meter', () => {
  it(`refuses the ${MAX_DIMENSION_COMBINATIONS + 1}st combination of a meter with 422 naming the meter and the limit, writing nothing`, async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-dims-limit' });
    const usage = usageClient(request, operator);
    const day = '2026-09-01';
    const entry = (n: number, meter = 'busy') => ({ Meter: meter, Usage: 1, OccurredAt: at(day), Dimensions: { Customer: `c-${n}` } });
    for (let n = 0; n < MAX_DIMENSION_COMBINATIONS; n += 100) {
      const batch = Array.from({ length: Math.min(100, MAX_DIMENSION_COMBINATIONS - n) }, (_, i) => entry(n + i));
      expect((await usage.batch(batch)).status).toBe(201);
    }
    const before = await usage.summary(query(day, day));
    expect(before.Totals.Events).toBe(MAX_DIMENSION_COMBINATIONS);

    // A batch whose last entry brings one combination too many: none of it is written, known combinations and other meters included.
    const refused = await usage.batch([
      entry(0),
      entry(1, 'quiet'),
      { Meter: 'busy', Usage: 1, OccurredAt: at(day) },
      entry(MAX_DIMENSION_COMBINATIONS),
    ]);
    expectProblem(refused, 422, {
      detail: new RegExp(
        `^Field 'Entries\\[3\\]\\.Dimensions' would bring meter 'busy' to ${MAX_DIMENSION_COMBINATIONS + 1} distinct combinations of Dimensions, over the limit of ${MAX_DIMENSION_COMBINATIONS} per meter; nothing was recorded$`,
      ),
    });
    const single = await usage.record(entry(MAX_DIMENSION_COMBINATIONS + 1), { 'Idempotency-Key': 'over-1' });
    expectProblem(single, 422, {
      detail: /^Field 'Dimensions' would bring meter 'busy' to \d+ distinct combinations of Dimensions, over the limit/,
    });
    expect(await usage.summary(query(day, day))).toEqual(before);
    const count = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: usageKeys.combinationCount(operator.operatorId, 'busy') }),
    );
    expect(count.Item?.Count).toBe(MAX_DIMENSION_COMBINATIONS);
    expect(
      (
        await documentClient().send(
          new GetCommand({ TableName: tableName(), Key: usageKeys.combinationCount(operator.operatorId, 'quiet') }),
        )
      ).Item,
    ).toBeUndefined();

    // Known combinations, entries without dimensions, and other meters go on as before; the key refused is not spent.
    const after = await usage.batch([entry(7), { Meter: 'busy', Usage: 1, OccurredAt: at(day) }, entry(1, 'quiet')]);
    expect(after.status).toBe(201);
    expect((await usage.record(entry(3), { 'Idempotency-Key': 'over-1' })).status).toBe(201);
    const grouped = await usage.summary(query(day, day, { groupBy: 'Customer', 'filter[Customer]': 'c-7' }));
    expect(grouped.Meters).toEqual([{ Meter: 'busy', Dimensions: { Customer: 'c-7' }, TotalUsage: 2, EventCount: 2 }]);
  });
});
