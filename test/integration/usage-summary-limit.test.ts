import type { LocalHost } from '../../lib/local/host';
import { localClient, startDynamoDbLocal, type DynamoDbLocal } from '../../lib/local/dynamodb-local';
import { ensureTable } from '../../lib/local/table';
import { config, configure } from '../../shared/core/config';
import { putAggregates, type AggregateRow } from '../../shared/usage/repository';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { METERS, usageClient } from '../support/usage';

/**
 * A summary reads a bounded number of aggregates, refusing past it with a
 * 422 that says how to narrow it, never a timeout or a 5xx. The operator
 * here holds an aggregate in every hour of a week for 25 meters in every
 * shard (33,600 items): written to a DynamoDB Local of this file's own, in
 * memory, so that the run's shared one (and its streams) does not carry them.
 */

/** The documented limit (docs/usage.md, "Limits of meters and summaries"). */
const SUMMARY_ITEM_LIMIT = 30_000;
const SHARDS = 8;

// Java starts once more for this file, which takes long on a busy machine.
jest.setTimeout(180_000);

let dynamo: DynamoDbLocal;
let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  dynamo = await startDynamoDbLocal();
  const client = localClient(dynamo.endpoint);
  await ensureTable(client, 'ota-usage-summary-limit');
  client.destroy();
  // Before anything reaches a table: the clients are made from the configuration on first use.
  configure({ ...config(), tableName: 'ota-usage-summary-limit', dynamoEndpoint: dynamo.endpoint });
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(async () => {
  await host.close();
  await dynamo.stop();
});

const named = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

describe('the aggregates one summary reads', () => {
  const start = '2026-05-04';
  const days = ['2026-05-04', '2026-05-05', '2026-05-06', '2026-05-07', '2026-05-08', '2026-05-09', '2026-05-10'];
  const meters = named('busy-', 25);
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;

  beforeAll(async () => {
    // An operator whose every meter has entries in every hour of a week in every shard: an hourly week reads 25 × 168 × 8 = 33,600 aggregates.
    operator = await createTestOperator(undefined, { stem: 'summary-budget' });
    usage = usageClient(request, operator);
    const hours = days.flatMap((day) => Array.from({ length: 24 }, (_, hour) => `${day}T${String(hour).padStart(2, '0')}`));
    for (let shard = 0; shard < SHARDS; shard += 1) {
      const rows: AggregateRow[] = hours.flatMap((bucket) =>
        meters.map((meter) => ({ level: 'hour', bucket, meter, usage: '0.5', events: 1 })),
      );
      await putAggregates(operator.operatorId, shard, rows);
    }
  });

  it(`refuses a summary past ${SUMMARY_ITEM_LIMIT.toLocaleString('en')} aggregates with a 422 that says how to narrow it`, async () => {
    const response = await request('GET', `${METERS}?from=${start}&to=2026-05-10&granularity=hour`, { key: operator.key });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.json).toMatchObject({
      status: 422,
      instance: METERS,
      detail:
        `This summary would read more than ${SUMMARY_ITEM_LIMIT} usage aggregates, over the limit of ${SUMMARY_ITEM_LIMIT}: narrow the range (from, to), ` +
        'ask for a coarser granularity or none, or name the meters it covers (meter=api-calls,storage-gb, up to 10)',
    });
  });

  it('answers the same week for named meters, and a shorter range of every meter', async () => {
    const named2 = await usage.summary(`from=${start}&to=2026-05-10&granularity=hour&meter=busy-03,busy-17,busy-03`);
    expect(named2.Meters.map((meter: any) => [meter.Meter, meter.TotalUsage, meter.EventCount, meter.Hours.length])).toEqual([
      ['busy-03', 168 * SHARDS * 0.5, 168 * SHARDS, 168],
      ['busy-17', 168 * SHARDS * 0.5, 168 * SHARDS, 168],
    ]);
    expect(named2.Meters[0].Hours.every((hour: any) => hour.Usage === 4 && hour.Events === SHARDS)).toBe(true);
    const oneDay = await usage.summary(`from=${start}&to=${start}&granularity=hour`);
    expect(oneDay.Meters).toHaveLength(25);
    expect(oneDay.Totals).toEqual({ Usage: 25 * 24 * SHARDS * 0.5, Events: 25 * 24 * SHARDS });
  });

  it('refuses named meters at once when their aggregates alone pass the limit, and a malformed meter list', async () => {
    const ten = named('busy-', 10).join(',');
    const year = await request('GET', `${METERS}?from=2025-05-11&to=2026-05-10&granularity=day&tz=America/New_York&meter=${ten}`, {
      key: operator.key,
    });
    expect(year.status).toBe(422);
    expect(year.json.detail).toMatch(/^This summary would read \d+ usage aggregates, over the limit of 30000: narrow the range/);
    for (const meter of ['a,,b', ',a', 'a b', named('busy-', 11).join(','), 'a#b']) {
      const refused = await request('GET', `${METERS}?from=${start}&to=${start}&meter=${encodeURIComponent(meter)}`, { key: operator.key });
      expect(refused.status).toBe(422);
      expect(refused.json.detail).toBe(
        "Query parameter 'meter' must be one to 10 meter names separated by commas (such as api-calls or api-calls,storage-gb)",
      );
    }
  });
});
