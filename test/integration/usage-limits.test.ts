import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import type { LocalHost } from '../../lib/local/host';
import type * as RecordUsageModule from '../../shared/usage/record-usage';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { at, METERS, usageClient } from '../support/usage';

/**
 * What one `usage:write` key can make the service hold: the custom meters of
 * an operator are capped (built-in meters apart), exactly, however many
 * requests meet new meters at once. (What a summary may read:
 * usage-summary-limit.test.ts.)
 */

/** The documented limit (docs/usage.md, "Limits of meters and summaries"). */
const METER_LIMIT = 50;

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const named = (prefix: string, count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `${prefix}${String(from + i).padStart(2, '0')}`);

async function metersOn(usage: ReturnType<typeof usageClient>, day: string): Promise<string[]> {
  return (await usage.summary(`from=${day}&to=${day}`)).Meters.map((meter: { Meter: string }) => meter.Meter).sort();
}

const overLimit = (field: string, meter: string, number: number) =>
  `Field '${field}' names the new meter '${meter}', which would be this operator's meter number ${number}, ` +
  `over the limit of ${METER_LIMIT} custom meters per operator (built-in meters not counted); nothing was recorded`;

describe('custom meters per operator', () => {
  const day = '2026-04-14';
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;

  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'meter-limit' });
    usage = usageClient(request, operator);
  });

  it(`takes ${METER_LIMIT} meters, refuses the next naming it with nothing written, and goes on with known meters and platform events`, async () => {
    const first = named('m', METER_LIMIT);
    expect((await usage.batch(first.map((Meter) => ({ Meter, Usage: 1, OccurredAt: at(day) })))).status).toBe(201);

    const single = await usage.record({ Meter: 'm50', Usage: 1, OccurredAt: at(day) }, { 'Idempotency-Key': 'over-the-limit' });
    expect(single.status).toBe(422);
    expect(single.headers.get('content-type')).toBe('application/problem+json');
    expect(single.json).toMatchObject({ status: 422, instance: METERS, detail: overLimit('Meter', 'm50', 51) });

    const batch = await usage.batch([
      { Meter: 'm01', Usage: 5, OccurredAt: at(day) },
      { Meter: 'new-a', Usage: 1, OccurredAt: at(day) },
      { Meter: 'new-b', Usage: 1, OccurredAt: at(day) },
    ]);
    expect(batch.status).toBe(422);
    expect(batch.json.detail).toBe(overLimit('Entries[1].Meter', 'new-a', 51));
    // Nothing of either request was written: every meter still holds its one entry.
    expect(await metersOn(usage, day)).toEqual(first);
    expect((await usage.summary(`from=${day}&to=${day}`)).Totals).toEqual({ Usage: METER_LIMIT, Events: METER_LIMIT });

    // Known meters go on, one by one and in batches.
    expect((await usage.record({ Meter: 'm02', Usage: 2, OccurredAt: at(day) })).status).toBe(201);
    expect((await usage.batch([{ Meter: 'm03', Usage: 3, OccurredAt: at(day) }])).status).toBe(201);

    // A platform event is never refused by the operator's own meters: built-in meters are not counted.
    const events = new EventBridgeClient({
      endpoint: host.url,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    try {
      const detail = JSON.stringify({ OperatorID: operator.operatorId, BasketID: 'b_limit' });
      const sent = await events.send(
        new PutEventsCommand({
          Entries: [{ Source: 'platform.orders', DetailType: 'Order Completed', Detail: detail, Time: new Date(at(day) * 1000) }],
        }),
      );
      expect(sent.FailedEntryCount).toBe(0);
      await host.eventBus.idle();
    } finally {
      events.destroy();
    }
    expect(host.eventBus.deadLetters).toEqual([]);
    expect(await metersOn(usage, day)).toEqual([...first, 'order-completed'].sort());
  });

  it('holds the limit exactly when requests in this process and another race to register new meters at it', async () => {
    const racer = await createTestOperator(undefined, { stem: 'meter-race' });
    const racing = usageClient(request, racer);
    const raceDay = '2026-04-15';
    expect((await racing.batch(named('r', METER_LIMIT - 5).map((Meter) => ({ Meter, Usage: 1, OccurredAt: at(raceDay) })))).status).toBe(
      201,
    );
    // Another process: its own copy of the domain code, which neither shares this one's memory nor takes turns with it.
    let other!: typeof RecordUsageModule;
    jest.isolateModules(() => {
      other = jest.requireActual<typeof RecordUsageModule>('../../shared/usage/record-usage');
    });
    const overHttp = named('h', 12).map(async (Meter) => {
      const response = await racing.record({ Meter, Usage: 1, OccurredAt: at(raceDay) });
      return { Meter, recorded: response.status === 201, refusal: response.status === 422 ? response.json.detail : undefined };
    });
    const elsewhere = named('o', 8).map(async (Meter) => {
      try {
        await other.recordUsage(racer.operatorId, { Meter, Usage: 1, OccurredAt: at(raceDay) });
        return { Meter, recorded: true, refusal: undefined };
      } catch (error) {
        return { Meter, recorded: false, refusal: (error as Error).message };
      }
    });
    const outcomes = await Promise.all([...overHttp, ...elsewhere]);
    const recorded = outcomes.filter((outcome) => outcome.recorded).map((outcome) => outcome.Meter);
    expect(recorded).toHaveLength(5);
    for (const outcome of outcomes.filter((one) => !one.recorded)) {
      expect(outcome.refusal).toMatch(
        new RegExp(`names the new meter '${outcome.Meter}', .* over the limit of ${METER_LIMIT} custom meters`),
      );
    }
    expect(await metersOn(racing, raceDay)).toEqual([...named('r', METER_LIMIT - 5), ...recorded].sort());
    const after = await racing.record({ Meter: 'late', Usage: 1, OccurredAt: at(raceDay) });
    expect(after.json.detail).toBe(overLimit('Meter', 'late', 51));
  });
});
