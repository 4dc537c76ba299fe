import type { LocalHost } from '../../lib/local/host';
import { documentClient } from '../../shared/db/client';
import { manualClock } from '../../shared/core/clock';
import { IDEMPOTENCY_TTL_SECONDS, MAX_BATCH_ENTRIES } from '../../shared/usage/model';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { recordUsage } from '../../shared/usage/record-usage';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { at, BATCH, expectSummaryInvariants, usageClient } from '../support/usage';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const entries = (day: string, count: number, stem: string) =>
  Array.from({ length: count }, (_, i) => ({
    Meter: `m-${i % 3}`,
    Usage: [0.1, 0.15, 0.2, 0.25, 0.3][i % 5],
    OccurredAt: at(day, `${String(i % 24).padStart(2, '0')}:30:00`),
    Identifier: `${stem}-${i}`,
  }));

describe('POST /api/v2/usage/meters/batch', () => {
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-batch' });
    usage = usageClient(request, operator);
  });

  it('records every entry and answers each in order, with its ID, fields and Replayed', async () => {
    const day = '2026-05-01';
    const sent = [
      { Meter: 'api-calls', Usage: 0.1, OccurredAt: at(day, '01:00:00') },
      { Meter: 'api-calls', Usage: 0.2, OccurredAt: at(day, '01:10:00'), ExtraInfo: '{"a":1}' },
      { Meter: 'storage-gb', Usage: 3, OccurredAt: at(day, '23:59:59'), Identifier: 'store-1' },
    ];
    const response = await usage.batch(sent);
    expect(response.status).toBe(201);
    expect(response.json.data.Entries).toEqual([
      { ID: expect.any(Number), Meter: 'api-calls', Usage: 0.1, OccurredAt: at(day, '01:00:00'), Replayed: false },
      { ID: expect.any(Number), Meter: 'api-calls', Usage: 0.2, OccurredAt: at(day, '01:10:00'), Replayed: false },
      { ID: expect.any(Number), Meter: 'storage-gb', Usage: 3, OccurredAt: at(day, '23:59:59'), Identifier: 'store-1', Replayed: false },
    ]);
    expect(new Set(response.json.data.Entries.map((entry: any) => entry.ID)).size).toBe(3);
    const summary = await usage.summary(`from=${day}&to=${day}`);
    expect(summary.Meters).toEqual([
      { Meter: 'storage-gb', TotalUsage: 3, EventCount: 1 },
      { Meter: 'api-calls', TotalUsage: 0.3, EventCount: 2 },
    ]);
  });

  it('counts a repeated Identifier once, in the same batch, in a later batch and with the Idempotency-Key header', async () => {
    const day = '2026-05-02';
    const entry = { Meter: 'uploads', Usage: 1.5, OccurredAt: at(day), Identifier: 'upload-7' };
    const first = await usage.batch([entry, { Meter: 'uploads', Usage: 2, OccurredAt: at(day) }, entry]);
    expect(first.status).toBe(201);
    const [original, , repeated] = first.json.data.Entries;
    expect(original.Replayed).toBe(false);
    expect(repeated).toEqual({ ...original, Replayed: true });

    const later = await usage.batch([{ ...entry }, { Meter: 'uploads', Usage: 4, OccurredAt: at(day), Identifier: 'upload-8' }]);
    expect(later.json.data.Entries[0]).toEqual({ ...original, Replayed: true });
    expect(later.json.data.Entries[1].Replayed).toBe(false);
    // The Identifier and the single route's Idempotency-Key are one key space.
    const single = await usage.record({ Meter: 'uploads', Usage: 1.5, OccurredAt: at(day) }, { 'Idempotency-Key': 'upload-7' });
    expect(single.status).toBe(201);
    expect(single.headers.get('idempotent-replayed')).toBe('true');
    expect(single.json.data.ID).toBe(original.ID);

    expect((await usage.summary(`from=${day}&to=${day}`)).Meters).toEqual([{ Meter: 'uploads', TotalUsage: 7.5, EventCount: 3 }]);
  });

  it('records each Identifier once when the same batch is sent many times at once', async () => {
    const day = '2026-05-03';
    const batch = entries(day, 40, 'race');
    const responses = await Promise.all(Array.from({ length: 6 }, () => usage.batch(batch)));
    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(201));
    const ids = responses.map((response) => response.json.data.Entries.map((entry: any) => entry.ID));
    for (const other of ids) expect(other).toEqual(ids[0]);
    const summary = await usage.summary(`from=${day}&to=${day}`);
    expect(summary.Totals.Events).toBe(40);
    expectSummaryInvariants(summary);
  });

  it('refuses invalid entries with 422 naming each by index and field, and writes nothing', async () => {
    const day = '2026-05-04';
    const valid = (i: number) => ({ Meter: 'bad', Usage: 1, OccurredAt: at(day), Identifier: `bad-${i}` });
    const several = await usage.batch([valid(0), { ...valid(1), Usage: 0.0000001 }, valid(2), { ...valid(3), Meter: 'Order-Completed' }]);
    expectProblem(several, 422, {
      instance: BATCH,
      detail: /^Field 'Entries\[1\]\.Usage' must be a number .* \(and 1 more: Entries\[3\]\.Meter; see errors\)$/,
    });
    expect(several.json.errors).toEqual([
      { field: 'Entries[1].Usage', detail: expect.stringMatching(/6 decimal places/) },
      { field: 'Entries[3].Meter', detail: expect.stringMatching(/built-in meter/) },
    ]);

    const cases: [unknown, RegExp][] = [
      [{ Entries: [valid(0), valid(1), valid(2), { ...valid(3), Usage: '5' }] }, /'Entries\[3\]\.Usage' must be a number/],
      [{ Entries: [valid(0), { Usage: 1 }] }, /'Entries\[1\]\.Meter' is required/],
      [{ Entries: [{ ...valid(0), Colour: 'red' }] }, /'Entries\[0\]\.Colour' is not allowed/],
      [{ Entries: [valid(0)], Extra: true }, /'Extra' is not allowed/],
      [{ Entries: [] }, /'Entries' must be an array of 1 to 100/],
      [{ Entries: Array.from({ length: MAX_BATCH_ENTRIES + 1 }, (_, i) => valid(i)) }, /'Entries' must be an array of 1 to 100/],
      [{ Entries: valid(0) }, /'Entries' must be an array/],
      [{}, /'Entries' is required/],
      [{ Entries: [{ ...valid(0), Identifier: '' }] }, /'Entries\[0\]\.Identifier' must be 1 to 255 visible ASCII/],
      [{ Entries: [{ ...valid(0), Identifier: 'has space' }] }, /'Entries\[0\]\.Identifier'/],
      [
        { Entries: [valid(0), valid(1), { ...valid(0), Usage: 2 }] },
        /'Entries\[2\]\.Identifier' repeats the Identifier of Entries\[0\] with different fields/,
      ],
    ];
    for (const [body, detail] of cases)
      expectProblem(await request('POST', BATCH, { key: operator.key, body }), 422, { instance: BATCH, detail });

    const tooLarge = JSON.stringify({ Entries: [{ ...valid(0), ExtraInfo: 'x'.repeat(6 * 1024 * 1024) }] });
    expectProblem(
      await request('POST', BATCH, { key: operator.key, rawBody: tooLarge, headers: { 'Content-Type': 'application/json' } }),
      413,
      { instance: BATCH, detail: /too large/, octo: true },
    );
    expectProblem(
      await request('POST', BATCH, { key: operator.key, rawBody: '{"Entries":[', headers: { 'Content-Type': 'application/json' } }),
      400,
      { instance: BATCH, detail: /not valid JSON/ },
    );
    expectProblem(
      await request('POST', BATCH, { key: operator.key, rawBody: '{"Entries":[]}', headers: { 'Content-Type': 'text/plain' } }),
      415,
      { instance: BATCH, detail: /Content-Type/ },
    );

    expect((await usage.summary(`from=${day}&to=${day}`)).Meters).toEqual([]);
  });

  it('refuses a batch that reuses an earlier Identifier for other fields, writing none of it', async () => {
    const day = '2026-05-05';
    expect((await usage.batch([{ Meter: 'reuse', Usage: 1, OccurredAt: at(day), Identifier: 'reuse-1' }])).status).toBe(201);
    const response = await usage.batch([
      { Meter: 'reuse', Usage: 5, OccurredAt: at(day), Identifier: 'reuse-2' },
      { Meter: 'reuse', Usage: 2, OccurredAt: at(day), Identifier: 'reuse-1' },
    ]);
    expectProblem(response, 422, {
      instance: BATCH,
      detail: /^Field 'Entries\[1\]\.Identifier' was already used for usage entry \d+ with a different request/,
    });
    expect((await usage.summary(`from=${day}&to=${day}`)).Meters).toEqual([{ Meter: 'reuse', TotalUsage: 1, EventCount: 1 }]);
  });

  it('answers 5xx when a transaction fails part-way, and the same batch sent again completes it without counting twice', async () => {
    const day = '2026-05-06';
    // 100 entries with Identifiers over 24 hours and 3 meters need several transactions (at most 100 items each).
    const batch = entries(day, 100, 'partial');
    let transactions = 0;
    const stack = documentClient().middlewareStack;
    stack.add(
      (next) => async (args) => {
        if ('TransactItems' in (args.input as object) && ++transactions === 2) throw new Error('DynamoDB is unreachable');
        return next(args);
      },
      { step: 'initialize', name: 'failSecondTransaction' },
    );
    let failed;
    let lines;
    try {
      ({ result: failed, lines } = await logsDuring(() => usage.batch(batch), 'ERROR'));
    } finally {
      stack.remove('failSecondTransaction');
    }
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        route: 'record-usage-batch',
        status: 500,
        error: expect.objectContaining({ message: 'DynamoDB is unreachable' }),
      }),
    ]);
    expect(failed.status).toBe(500);
    expect(failed.headers.get('content-type')).toBe('application/problem+json');
    expect(failed.json.detail).toMatch(/safe to retry/);
    const partial = await usage.summary(`from=${day}&to=${day}`);
    expect(transactions).toBeGreaterThanOrEqual(2);
    expect(partial.Totals.Events).toBeLessThan(100);

    const retried = await usage.batch(batch);
    expect(retried.status).toBe(201);
    const replayed = retried.json.data.Entries.filter((entry: any) => entry.Replayed).length;
    expect(replayed).toBe(partial.Totals.Events);
    const complete = await usage.summary(`from=${day}&to=${day}&granularity=hour`);
    expect(complete.Totals.Events).toBe(100);
    // 100 entries of 0.1, 0.15, 0.2, 0.25, 0.3 in turn: 20 of each, exactly 20.
    expect(complete.Totals.Usage).toBe(20);
    expectSummaryInvariants(complete);
  });

  it('remembers an Identifier for 7 days: live strictly before its ExpiresAt', async () => {
    const day = '2026-05-07';
    const clock = manualClock(new Date('2026-05-07T10:00:00Z'));
    const entry = { Meter: 'expiry', Usage: 1, OccurredAt: at(day), Identifier: 'expiry-1' };
    const [first] = await recordUsageBatch(operator.operatorId, [entry], clock());
    clock.advance(IDEMPOTENCY_TTL_SECONDS * 1000 - 1000);
    const [lastSecond] = await recordUsageBatch(operator.operatorId, [entry], clock());
    expect(lastSecond).toEqual({ ...first, Replayed: true });
    // At ExpiresAt the record is gone, whether or not DynamoDB's TTL has swept it: the entry is new, and its key is live again.
    clock.advance(1000);
    const [afterExpiry] = await recordUsageBatch(operator.operatorId, [{ ...entry, Usage: 2 }], clock());
    expect(afterExpiry).toEqual(expect.objectContaining({ Usage: 2, Replayed: false }));
    expect(afterExpiry.ID).not.toBe(first.ID);
    const { entry: single, replayed } = await recordUsage(
      operator.operatorId,
      { Meter: 'expiry', Usage: 2, OccurredAt: at(day) },
      { idempotencyKey: 'expiry-1' },
      clock(),
    );
    expect([single.ID, replayed]).toEqual([afterExpiry.ID, true]);
    expect((await usage.summary(`from=${day}&to=${day}`)).Meters).toEqual([{ Meter: 'expiry', TotalUsage: 3, EventCount: 2 }]);
  });

  it('needs the usage:write scope', async () => {
    const readOnly = await operator.keyWith(['usage:read']);
    const response = await request('POST', BATCH, { key: readOnly, body: { Entries: [{ Meter: 'm', Usage: 1 }] } });
    expect(response.status).toBe(403);
  });
});
