import { addDecimals, compareDecimals, decimalToNumber, parseDecimal, ZERO, type Decimal } from './decimal';
import { summaryPeriod, type PeriodDay } from './period';
import { AGGREGATE_SHARDS, type UsageSummary, type UsageSummaryMeter } from './model';
import { queryAggregates } from './repository';

export interface UsageSummaryRequest {
  from: string;
  to: string;
  /** IANA zone whose midnights cut the days; UTC when absent. */
  tz?: string;
  /** `day` adds a per-day series to every meter. */
  granularity?: 'day';
}

export interface UsageSummaryResult {
  summary: UsageSummary;
  /** What the summary cost DynamoDB: it depends on days, meters and shards, never on the number of entries. */
  readCost: { itemsRead: number; capacityUnits: number };
}

interface MeterTotals {
  usage: Decimal;
  events: number;
  days: { usage: Decimal; events: number }[];
}

/** The day (index into `days`) an hour bucket belongs to; every bucket read lies inside the period. */
function dayIndexOf(days: PeriodDay[], bucketStart: number): number {
  let low = 0;
  let high = days.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (days[middle].start <= bucketStart) low = middle;
    else high = middle - 1;
  }
  return low;
}

const byTotalThenName = (a: [string, MeterTotals], b: [string, MeterTotals]) =>
  compareDecimals(b[1].usage, a[1].usage) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/**
 * Per-meter totals of an operator over whole days, summed exactly from the
 * hourly aggregates (never from the entries).
 */
export async function summarizeUsage(operatorId: string, request: UsageSummaryRequest): Promise<UsageSummaryResult> {
  const period = summaryPeriod(request.from, request.to, request.tz);
  const { days } = period;
  const read = await queryAggregates(operatorId, AGGREGATE_SHARDS, period.firstHour, period.lastHour);

  const meters = new Map<string, MeterTotals>();
  for (const row of read.rows) {
    let totals = meters.get(row.Meter);
    if (!totals) {
      totals = { usage: ZERO, events: 0, days: days.map(() => ({ usage: ZERO, events: 0 })) };
      meters.set(row.Meter, totals);
    }
    const usage = parseDecimal(row.TotalUsage);
    totals.usage = addDecimals(totals.usage, usage);
    totals.events += row.EventCount;
    const day = totals.days[dayIndexOf(days, row.BucketStart)];
    day.usage = addDecimals(day.usage, usage);
    day.events += row.EventCount;
  }

  const sorted = [...meters.entries()].sort(byTotalThenName);
  const items: UsageSummaryMeter[] = sorted.map(([meter, totals]) => ({
    Meter: meter,
    TotalUsage: decimalToNumber(totals.usage),
    EventCount: totals.events,
    ...(request.granularity === 'day'
      ? { Days: totals.days.map((day, i) => ({ Date: days[i].date, Usage: decimalToNumber(day.usage), Events: day.events })) }
      : {}),
  }));
  const totalUsage = sorted.reduce((sum, [, totals]) => addDecimals(sum, totals.usage), ZERO);

  return {
    summary: {
      Period: {
        From: period.from,
        To: period.to,
        FromTimestamp: days[0].start,
        ToTimestamp: days[days.length - 1].end - 1,
        TimeZone: period.timeZone,
      },
      Totals: { Usage: decimalToNumber(totalUsage), Events: sorted.reduce((sum, [, totals]) => sum + totals.events, 0) },
      Meters: items,
    },
    readCost: { itemsRead: read.itemsRead, capacityUnits: read.capacityUnits },
  };
}
