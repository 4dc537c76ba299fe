// Usage by dimension end to end: recording, grouped and filtered reads, voids and races (its rules are in usage-dimension-rules.test.ts).
import type { LocalHost } from '../../lib/local/host';
import { addDays, zonedInstant } from '../../shared/core/calendar';
import { documentClient, tableName } from '../../shared/db/client';
import * as usageKeys from '../../shared/db/usage-keys';
import { addDecimals, compareDecimals, decimalToNumber, parseDecimal, ZERO, type Decimal } from '../../shared/usage/decimal';
import { LEVELS } from '../../shared/db/usage-levels';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import type { Dimensions } from '../../shared/usage/schemas';
import { listAggregates, putAggregates } from '../../shared/usage/repository';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { summarizeUsage } from '../../shared/usage/summary';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { at, expectSummaryInvariants, usageClient } from '../support/usage';

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

interface Sent {
  Meter: string;
  Usage: number;
  OccurredAt: number;
  Dimensions?: Dimensions;
}

/** What a summary of `entries` in [start, end) answers, computed here: per meter and group, exact. */
function expected(entries: Sent[], start: number, end: number, groupBy: string[] = [], filter: Dimensions = {}) {
  const sums = new Map<string, { meter: string; values: (string | null)[]; usage: Decimal; events: number }>();
  for (const entry of entries) {
    if (entry.OccurredAt < start || entry.OccurredAt >= end) continue;
    const dimensions = entry.Dimensions ?? {};
    if (!Object.entries(filter).every(([key, value]) => Object.hasOwn(dimensions, key) && dimensions[key] === value)) continue;
    const values = groupBy.map((key) => (Object.hasOwn(dimensions, key) ? dimensions[key] : null));
    const key = JSON.stringify([entry.Meter, ...values]);
    const sum = sums.get(key) ?? { meter: entry.Meter, values, usage: ZERO, events: 0 };
    sums.set(key, { ...sum, usage: addDecimals(sum.usage, parseDecimal(String(entry.Usage))), events: sum.events + 1 });
  }
  const compare = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1);
  return [...sums.values()]
    .sort(
      (a, b) =>
        compareDecimals(b.usage, a.usage) ||
        compare(a.meter, b.meter) ||
        a.values.reduce((order, value, i) => order || compare(value, b.values[i]), 0),
    )
    .map(({ meter, values, usage, events }) => ({
      Meter: meter,
      ...(groupBy.length ? { Dimensions: Object.fromEntries(groupBy.map((key, i) => [key, values[i]])) } : {}),
      TotalUsage: decimalToNumber(usage),
      EventCount: events,
    }));
}

const withoutSeries = (meters: any[]) =>
  meters.map(({ Meter, Dimensions, TotalUsage, EventCount }) => ({ Meter, ...(Dimensions ? { Dimensions } : {}), TotalUsage, EventCount }));

const query = (from: string, to: string, extra: Record<string, string> = {}) => new URLSearchParams({ from, to, ...extra }).toString();

const REGIONS = ['eu-west', 'eu-central', 'us-east'];
const PLANS = ['pro', 'free', 'team', 'constructor'];
const AMOUNTS = [0.1, 0.2, 0.35, 1, 2.000001, 12.5, 0.000001];

/** Entries every 97 minutes over 6 days, on 2 meters, with Region and Plan in turn, some without one or both, one with a third key. */
function sample(firstDay: string, count: number): Sent[] {
  return Array.from({ length: count }, (_, i) => {
    const dimensions: Dimensions = {};
    if (i % 7 !== 3) dimensions.Region = REGIONS[i % REGIONS.length];
    if (i % 5 !== 1) dimensions.Plan = PLANS[(i >> 1) % PLANS.length];
    if (i % 11 === 0) dimensions.Channel = 'api';
    return {
      Meter: i % 4 === 0 ? 'storage-gb' : 'api-calls',
      Usage: AMOUNTS[i % AMOUNTS.length],
      OccurredAt: at(firstDay, '00:07:00') + i * 97 * 60,
      ...(Object.keys(dimensions).length ? { Dimensions: dimensions } : {}),
    };
  });
}

describe('recording and reading by dimension', () => {
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;
  const firstDay = '2026-07-01';
  const entries = sample(firstDay, 89);
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-dims' });
    usage = usageClient(request, operator);
    // Through the batch route in batches of 30, and the first five one by one through the single route.
    for (const entry of entries.slice(0, 5)) expect((await usage.record(entry)).status).toBe(201);
    for (let i = 5; i < entries.length; i += 30) expect((await usage.batch(entries.slice(i, i + 30))).status).toBe(201);
  });

  it('echoes Dimensions in every answer, keys in code-point order, and leaves them out for entries without', async () => {
    const single = await usage.record({
      Meter: 'echo',
      Usage: 1,
      OccurredAt: at('2026-06-01'),
      Dimensions: { Plan: 'pro', Region: 'eu-west' },
    });
    expect(single.json.data).toEqual({
      ID: expect.any(Number),
      Meter: 'echo',
      Usage: 1,
      OccurredAt: at('2026-06-01'),
      Dimensions: { Plan: 'pro', Region: 'eu-west' },
    });
    expect(Object.keys(single.json.data.Dimensions)).toEqual(['Plan', 'Region']);
    const batch = await usage.batch([
      { Meter: 'echo', Usage: 1, OccurredAt: at('2026-06-01'), Dimensions: { Region: 'us-east', Plan: 'free' }, Identifier: 'echo-1' },
      { Meter: 'echo', Usage: 2, OccurredAt: at('2026-06-01') },
      { Meter: 'echo', Usage: 3, OccurredAt: at('2026-06-01'), Dimensions: {} },
    ]);
    expect(batch.json.data.Entries).toEqual([
      expect.objectContaining({ Dimensions: { Plan: 'free', Region: 'us-east' }, Identifier: 'echo-1', Replayed: false }),
      expect.not.objectContaining({ Dimensions: expect.anything() }),
      expect.not.objectContaining({ Dimensions: expect.anything() }),
    ]);
    const voided = await usage.voidEntry(single.json.data.ID);
    expect(voided.json.data).toEqual(
      expect.objectContaining({ Dimensions: { Plan: 'pro', Region: 'eu-west' }, VoidedAt: expect.any(Number) }),
    );
  });

  it('answers the summary without groupBy and filter exactly as for entries without dimensions, reading the same items', async () => {
    const plain = await createTestOperator(undefined, { stem: 'usage-dims-plain' });
    await recordUsageBatch(
      plain.operatorId,
      entries.map(({ Meter, Usage, OccurredAt }) => ({ Meter, Usage, OccurredAt })),
    );
    // The very aggregates of this data as they were before dimensions: the same items, in the same shards, without combinations.
    const before = await createTestOperator(undefined, { stem: 'usage-dims-before' });
    for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
      for (const level of LEVELS) await putAggregates(before.operatorId, shard, await listAggregates(operator.operatorId, shard, level));
    }
    for (const extra of [{}, { granularity: 'day' }, { tz: 'Asia/Tokyo', granularity: 'hour' }] as const) {
      const range = { from: firstDay, to: addDays(firstDay, 6), ...extra };
      const [dimensioned, bare, old] = await Promise.all(
        [operator, plain, before].map(({ operatorId }) => summarizeUsage(operatorId, range)),
      );
      expect(dimensioned.summary).toEqual(bare.summary);
      expect(dimensioned.summary).toEqual(old.summary);
      expect(dimensioned.readCost).toEqual({ ...old.readCost, capacityUnits: expect.any(Number) });
      expect(dimensioned.readCost.combinationsRead).toBe(0);
      // Only the items' size grows, and with it the read units.
      expect(dimensioned.readCost.capacityUnits).toBeGreaterThanOrEqual(old.readCost.capacityUnits);
      // Grouped, the same items again, read whole.
      const grouped = await summarizeUsage(operator.operatorId, { ...range, groupBy: 'Region,Plan' });
      expect([grouped.readCost.itemsRead, grouped.readCost.queries]).toEqual([old.readCost.itemsRead, old.readCost.queries]);
    }
  });

  const start = at(firstDay, '00:00:00');
  const end = at(addDays(firstDay, 7), '00:00:00');
  const selections: [string, string[], Dimensions][] = [
    ['groupBy=Region', ['Region'], {}],
    ['groupBy=Plan,Region', ['Plan', 'Region'], {}],
    ['groupBy=Channel', ['Channel'], {}],
    ['filter[Plan]=pro', [], { Plan: 'pro' }],
    ['filter[Plan]=pro&groupBy=Region', ['Region'], { Plan: 'pro' }],
    ['filter[Region]=eu-west&filter[Plan]=constructor&groupBy=Plan', ['Plan'], { Region: 'eu-west', Plan: 'constructor' }],
    ['filter[Region]=nowhere', [], { Region: 'nowhere' }],
  ];

  it.each(selections)(
    '%s: each group is the exact sum of its entries, in a total order, with Totals their sum',
    async (_, groupBy, filter) => {
      const extra: Record<string, string> = {};
      if (groupBy.length) extra.groupBy = groupBy.join(',');
      for (const [key, value] of Object.entries(filter)) extra[`filter[${key}]`] = value;
      const summary = await usage.summary(query(firstDay, addDays(firstDay, 6), extra));
      expect(summary.Meters).toEqual(expected(entries, start, end, groupBy, filter));
      expectSummaryInvariants(summary);
      const totals = expected(entries, start, end, [], filter);
      expect(summary.Totals.Events).toBe(totals.reduce((sum, meter) => sum + meter.EventCount, 0));
    },
  );

  it.each(selections)('%s: every day and every hour of the series is exact per group', async (_, groupBy, filter) => {
    const extra: Record<string, string> = {};
    if (groupBy.length) extra.groupBy = groupBy.join(',');
    for (const [key, value] of Object.entries(filter)) extra[`filter[${key}]`] = value;
    const daily = await usage.summary(query(firstDay, addDays(firstDay, 6), { ...extra, granularity: 'day' }));
    const hourly = await usage.summary(query(addDays(firstDay, 1), addDays(firstDay, 2), { ...extra, granularity: 'hour' }));
    for (const { summary, points } of [
      {
        summary: daily,
        points: (item: any) =>
          item.Days.map((day: any) => ({ point: day, start: at(day.Date, '00:00:00'), end: at(addDays(day.Date, 1), '00:00:00') })),
      },
      {
        summary: hourly,
        points: (item: any) => item.Hours.map((hour: any) => ({ point: hour, start: hour.Timestamp, end: hour.Timestamp + 3600 })),
      },
    ]) {
      expectSummaryInvariants(summary);
      for (const item of summary.Meters) {
        for (const { point, start: from, end: to } of points(item)) {
          const match = expected(entries, from, to, groupBy, filter).find(
            (line) => line.Meter === item.Meter && JSON.stringify(line.Dimensions) === JSON.stringify(item.Dimensions),
          );
          expect([point.Usage, point.Events]).toEqual([match?.TotalUsage ?? 0, match?.EventCount ?? 0]);
        }
      }
    }
  });

  it('cuts the days of a zone across its midnight, per group', async () => {
    for (const tz of ['Asia/Tokyo', 'America/New_York']) {
      const daily = await usage.summary(query(firstDay, addDays(firstDay, 5), { tz, groupBy: 'Region', granularity: 'day' }));
      expectSummaryInvariants(daily);
      for (const item of daily.Meters) {
        for (const day of item.Days) {
          const from = zonedInstant(day.Date, '00:00', tz) / 1000;
          const to = zonedInstant(addDays(day.Date, 1), '00:00', tz) / 1000;
          const match = expected(entries, from, to, ['Region']).find(
            (line) => line.Meter === item.Meter && line.Dimensions!.Region === item.Dimensions.Region,
          );
          expect([day.Usage, day.Events]).toEqual([match?.TotalUsage ?? 0, match?.EventCount ?? 0]);
        }
      }
      // Entries every 97 minutes fall on both sides of the zone's midnight: the zone's days differ from UTC's.
      const utc = await usage.summary(query(firstDay, addDays(firstDay, 5), { groupBy: 'Region', granularity: 'day' }));
      expect(daily.Meters[0].Days).not.toEqual(
        utc.Meters.find((item: any) => item.Meter === daily.Meters[0].Meter && item.Dimensions.Region === daily.Meters[0].Dimensions.Region)
          .Days,
      );
    }
  });

  it('takes a voided entry out of its group only, and every other group stays exact', async () => {
    const day = '2026-08-03';
    const sent: Sent[] = [
      { Meter: 'calls', Usage: 0.1, OccurredAt: at(day, '01:00:00'), Dimensions: { Region: 'eu-west', Plan: 'pro' } },
      { Meter: 'calls', Usage: 0.2, OccurredAt: at(day, '02:00:00'), Dimensions: { Region: 'eu-west', Plan: 'pro' } },
      { Meter: 'calls', Usage: 0.3, OccurredAt: at(day, '03:00:00'), Dimensions: { Region: 'us-east', Plan: 'pro' } },
      { Meter: 'calls', Usage: 0.4, OccurredAt: at(day, '04:00:00'), Dimensions: { Region: 'us-east' } },
      { Meter: 'calls', Usage: 0.5, OccurredAt: at(day, '05:00:00') },
    ];
    const recorded = (await usage.batch(sent)).json.data.Entries;
    const dayStart = at(day, '00:00:00');
    const dayEnd = at(addDays(day, 1), '00:00:00');
    const voided = new Set<number>();
    for (const voidIndex of [1, 4]) {
      expect((await usage.voidEntry(recorded[voidIndex].ID)).status).toBe(200);
      voided.add(voidIndex);
      const kept = sent.filter((_, i) => !voided.has(i));
      for (const [groupBy, filter] of [
        [['Region'], {}],
        [['Region', 'Plan'], {}],
        [[], { Plan: 'pro' }],
        [[], {}],
      ] as [string[], Dimensions][]) {
        const extra: Record<string, string> = { granularity: 'hour' };
        if (groupBy.length) extra.groupBy = groupBy.join(',');
        for (const [key, value] of Object.entries(filter)) extra[`filter[${key}]`] = value;
        const summary = await usage.summary(query(day, day, extra));
        expect(withoutSeries(summary.Meters)).toEqual(expected(kept, dayStart, dayEnd, groupBy, filter));
        expectSummaryInvariants(summary);
      }
    }
    // Voiding the only entry of a group takes the group away; the others keep theirs.
    expect((await usage.voidEntry(recorded[2].ID)).status).toBe(200);
    const summary = await usage.summary(query(day, day, { groupBy: 'Region,Plan' }));
    expect(summary.Meters).toEqual([
      { Meter: 'calls', Dimensions: { Region: 'us-east', Plan: null }, TotalUsage: 0.4, EventCount: 1 },
      { Meter: 'calls', Dimensions: { Region: 'eu-west', Plan: 'pro' }, TotalUsage: 0.1, EventCount: 1 },
    ]);
  });

  it('gives exact totals when 20 batches with overlapping dimensions, new combinations among them, arrive at once', async () => {
    const day = '2026-08-10';
    const raced = await createTestOperator(undefined, { stem: 'usage-dims-race' });
    const racedUsage = usageClient(request, raced);
    const batches: Sent[][] = Array.from({ length: 20 }, (_, b) =>
      Array.from({ length: 25 }, (_, i) => ({
        Meter: `m-${i % 2}`,
        Usage: AMOUNTS[(b + i) % AMOUNTS.length],
        OccurredAt: at(day, `${String((b + i) % 24).padStart(2, '0')}:15:00`),
        Dimensions: { Region: REGIONS[(b + i) % 3], Plan: PLANS[i % 4], Batch: `b${b % 4}` },
      })),
    );
    const responses = await Promise.all(batches.map((batch) => racedUsage.batch(batch)));
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const all = batches.flat();
    for (const groupBy of [['Region'], ['Plan', 'Batch'], []]) {
      const extra: Record<string, string> = groupBy.length ? { groupBy: groupBy.join(',') } : {};
      const summary = await racedUsage.summary(query(day, day, extra));
      expect(summary.Meters).toEqual(expected(all, at(day, '00:00:00'), at(addDays(day, 1), '00:00:00'), groupBy));
    }
    // Each distinct combination of a meter was registered once: 3 regions × 4 plans × 4 batches, split over 2 meters.
    const counts = await Promise.all(
      ['m-0', 'm-1'].map(
        async (meter) =>
          (
            await documentClient().send(
              new GetCommand({ TableName: tableName(), Key: usageKeys.combinationCount(raced.operatorId, meter) }),
            )
          ).Item?.Count,
      ),
    );
    const distinct = (meter: string) =>
      new Set(all.filter((entry) => entry.Meter === meter).map((entry) => JSON.stringify(entry.Dimensions))).size;
    expect(counts).toEqual([distinct('m-0'), distinct('m-1')]);
  });

  it('never shows another operator its dimensions or their totals', async () => {
    const other = await createTestOperator(undefined, { stem: 'usage-dims-other' });
    const otherUsage = usageClient(request, other);
    // The same meter names, and the same dimensions, recorded by the first operator: the other sees only its own.
    await otherUsage.batch([
      { Meter: 'api-calls', Usage: 5, OccurredAt: at(firstDay, '10:00:00'), Dimensions: { Region: 'eu-west', Secret: 'other-only' } },
    ]);
    const mine = await usage.summary(query(firstDay, addDays(firstDay, 6), { groupBy: 'Secret' }));
    expect(JSON.stringify(mine)).not.toContain('other-only');
    expect(mine.Meters).toEqual(expected(entries, start, end, ['Secret']));
    const theirs = await otherUsage.summary(query(firstDay, addDays(firstDay, 6), { groupBy: 'Region,Plan' }));
    expect(theirs.Meters).toEqual([{ Meter: 'api-calls', Dimensions: { Region: 'eu-west', Plan: null }, TotalUsage: 5, EventCount: 1 }]);
    const filtered = await otherUsage.summary(query(firstDay, addDays(firstDay, 6), { 'filter[Plan]': 'pro' }));
    expect(filtered.Meters).toEqual([]);
  });
});
