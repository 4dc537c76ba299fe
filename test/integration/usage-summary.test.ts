import { addDays, zonedInstant } from '../../shared/core/calendar';
import { cover } from '../../shared/usage/buckets';
import { addDecimals, decimalToNumber, parseDecimal, ZERO } from '../../shared/usage/decimal';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { summarizeUsage } from '../../shared/usage/summary';
import { createTestOperator, type TestOperator } from '../support/fixtures';
import { expectSummaryInvariants } from '../support/usage';

/**
 * Summaries read hour, day and month aggregates through signed covers; these
 * tests hold every answer to a sum computed here from the entries themselves.
 */
const METERS = ['api-calls', 'storage-gb', 'sms'];
const AMOUNTS = [0.1, 0.2, 0.35, 1, 2.000001, 12.5];
const FIRST = Date.parse('2025-10-28T00:00:00Z') / 1000;
const LAST = Date.parse('2026-12-03T00:00:00Z') / 1000;

interface Sent {
  Meter: string;
  Usage: number;
  OccurredAt: number;
}

/** Entries every 7 hours and 13 minutes or so, so that they land at every hour of the day over more than a year. */
const entries: Sent[] = [];
for (let t = FIRST, i = 0; t < LAST; t += 7 * 3600 + 13 * 60 + 7, i += 1) {
  entries.push({ Meter: METERS[i % METERS.length], Usage: AMOUNTS[i % AMOUNTS.length], OccurredAt: t });
}

/** The exact per-meter sums of the entries in [start, end). */
function expected(start: number, end: number): Record<string, { usage: number; events: number }> {
  const sums = new Map<string, { usage: ReturnType<typeof parseDecimal>; events: number }>();
  for (const entry of entries.filter((e) => e.OccurredAt >= start && e.OccurredAt < end)) {
    const sum = sums.get(entry.Meter) ?? { usage: ZERO, events: 0 };
    sums.set(entry.Meter, { usage: addDecimals(sum.usage, parseDecimal(String(entry.Usage))), events: sum.events + 1 });
  }
  return Object.fromEntries([...sums].map(([meter, sum]) => [meter, { usage: decimalToNumber(sum.usage), events: sum.events }]));
}

const answered = (meters: { Meter: string; TotalUsage: number; EventCount: number }[]) =>
  Object.fromEntries(meters.map((meter) => [meter.Meter, { usage: meter.TotalUsage, events: meter.EventCount }]));

let operator: TestOperator;

beforeAll(async () => {
  operator = await createTestOperator(undefined, { stem: 'usage-summary' });
  for (let i = 0; i < entries.length; i += 100) await recordUsageBatch(operator.operatorId, entries.slice(i, i + 100));
});

describe('usage summaries against the entries', () => {
  const cases: [string, string, string][] = [
    ['2026-03-10', '2026-03-10', 'UTC'],
    ['2026-02-01', '2026-02-28', 'UTC'],
    ['2026-10-22', '2026-11-21', 'UTC'],
    ['2025-11-22', '2026-11-22', 'UTC'],
    ['2025-12-01', '2026-11-30', 'UTC'],
    ['2026-03-01', '2026-04-15', 'Europe/Lisbon'],
    ['2025-11-05', '2026-11-04', 'America/New_York'],
    ['2026-01-31', '2026-03-01', 'Asia/Tokyo'],
    ['2026-10-20', '2026-11-03', 'Pacific/Kiritimati'],
  ];

  it.each(cases)('totals from %s to %s in %s equal the sums of the entries', async (from, to, tz) => {
    const { summary } = await summarizeUsage(operator.operatorId, { from, to, tz });
    const start = zonedInstant(from, '00:00', tz) / 1000;
    const end = zonedInstant(addDays(to, 1), '00:00', tz) / 1000;
    expect([summary.Period.FromTimestamp, summary.Period.ToTimestamp]).toEqual([start, end - 1]);
    expect(answered(summary.Meters)).toEqual(expected(start, end));
    expectSummaryInvariants(summary);
  });

  it.each(cases)('every day from %s to %s in %s equals the sums of its entries, and so does every month', async (from, to, tz) => {
    const [daily, monthly, total] = await Promise.all(
      (['day', 'month', undefined] as const).map((granularity) => summarizeUsage(operator.operatorId, { from, to, tz, granularity })),
    );
    for (const meter of daily.summary.Meters) {
      for (const day of meter.Days!) {
        const start = zonedInstant(day.Date, '00:00', tz) / 1000;
        const end = zonedInstant(addDays(day.Date, 1), '00:00', tz) / 1000;
        expect([day.Usage, day.Events]).toEqual([
          expected(start, end)[meter.Meter]?.usage ?? 0,
          expected(start, end)[meter.Meter]?.events ?? 0,
        ]);
      }
    }
    for (const meter of monthly.summary.Meters) {
      for (const month of meter.Months!) {
        const firstDay = month.Month < from.slice(0, 7) || month.Month === from.slice(0, 7) ? from : `${month.Month}-01`;
        const nextMonth = addDays(`${month.Month}-28`, 4).slice(0, 7);
        const afterLast = nextMonth > to.slice(0, 7) ? addDays(to, 1) : `${nextMonth}-01`;
        const sums = expected(zonedInstant(firstDay, '00:00', tz) / 1000, zonedInstant(afterLast, '00:00', tz) / 1000)[meter.Meter];
        expect([month.Usage, month.Events]).toEqual([sums?.usage ?? 0, sums?.events ?? 0]);
      }
    }
    for (const { summary } of [daily, monthly]) {
      expect(summary.Totals).toEqual(total.summary.Totals);
      expect(answered(summary.Meters)).toEqual(answered(total.summary.Meters));
      expectSummaryInvariants(summary);
    }
  });

  it('gives one point per hour with granularity=hour, in the zone, for up to 7 days', async () => {
    const { summary } = await summarizeUsage(operator.operatorId, {
      from: '2026-03-26',
      to: '2026-04-01',
      tz: 'Europe/Lisbon',
      granularity: 'hour',
    });
    const hours = summary.Meters[0].Hours!;
    // Seven days with the spring-forward day: 7 × 24 - 1 hours.
    expect(hours).toHaveLength(7 * 24 - 1);
    expect(hours[0]).toEqual(
      expect.objectContaining({ Start: '2026-03-26T00:00:00+00:00', Timestamp: Date.parse('2026-03-26T00:00:00Z') / 1000 }),
    );
    expect(hours[hours.length - 1].Start).toBe('2026-04-01T23:00:00+01:00');
    for (const meter of summary.Meters) {
      for (const hour of meter.Hours!) {
        const sums = expected(hour.Timestamp, hour.Timestamp + 3600)[meter.Meter];
        expect([hour.Usage, hour.Events]).toEqual([sums?.usage ?? 0, sums?.events ?? 0]);
      }
    }
    expectSummaryInvariants(summary);
  });
});

describe('what a summary reads', () => {
  it('is bounded by the range and the meters: the same items after ten times the entries, and few for a year', async () => {
    const fresh = await createTestOperator(undefined, { stem: 'usage-cost' });
    const [from, to] = ['2026-10-22', '2026-11-21'];
    const start = Date.parse(`${from}T00:00:00Z`) / 1000;
    // Every shard, meter and day of the range gets entries at once: a batch is written to one shard per transaction.
    const load = async (perCell: number) => {
      for (let round = 0; round < perCell; round += 1) {
        for (let day = 0; day < 31; day += 4) {
          const batch = Array.from({ length: 100 }, (_, i) => ({
            Meter: METERS[i % 3],
            Usage: 0.5,
            OccurredAt: start + (day + (i % 4)) * 86_400 + (i % 24) * 3600,
          }));
          await recordUsageBatch(fresh.operatorId, batch);
        }
      }
    };
    await load(1);
    const small = await summarizeUsage(fresh.operatorId, { from, to });
    await load(9);
    const large = await summarizeUsage(fresh.operatorId, { from, to });
    expect(large.summary.Totals.Events).toBe(10 * small.summary.Totals.Events);

    const cells = cover({ start, end: Date.parse(`${addDays(to, 1)}T00:00:00Z`) / 1000 }).length;
    // 2026-10-22 to 2026-11-21: November less its last 9 days, plus the last 10 days of October.
    expect(cells).toBe(20);
    const bound = cells * METERS.length * AGGREGATE_SHARDS;
    for (const { readCost } of [small, large]) {
      expect(readCost.itemsRead).toBeGreaterThan(0);
      expect(readCost.itemsRead).toBeLessThanOrEqual(bound);
    }

    const year = await summarizeUsage(fresh.operatorId, { from: '2025-11-22', to: '2026-11-21' });
    expect(year.summary.Totals).toEqual(large.summary.Totals);
    const yearCells = cover({ start: Date.parse('2025-11-22T00:00:00Z') / 1000, end: Date.parse('2026-11-22T00:00:00Z') / 1000 }).length;
    // December 2025 to November 2026, plus 22-30 November 2025, less 22-30 November 2026.
    expect(yearCells).toBe(12 + 9 + 9);
    expect(year.readCost.itemsRead).toBeLessThanOrEqual(yearCells * METERS.length * AGGREGATE_SHARDS);
  });
});
