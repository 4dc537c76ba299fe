import type { UsageLevel } from '../db/keys';
import { bucketStart, cover, nextStart, type Cell } from './buckets';
import { addDecimals, compareDecimals, decimalToNumber, negateDecimal, parseDecimal, ZERO, type Decimal } from './decimal';
import { summaryPeriod, type Interval, type SeriesPoint } from './period';
import type { UsageSummary, UsageSummaryMeter, UsageSummaryRequest } from './schemas';
import { AGGREGATE_SHARDS } from './model';
import { queryAggregates, type ReadCost } from './repository';

export interface UsageSummaryResult {
  summary: UsageSummary;
  /** What the summary cost DynamoDB: it depends on the range, the meters and the shards, never on the number of entries. */
  readCost: ReadCost;
}

interface Amount {
  usage: Decimal;
  events: number;
}

/** A run of consecutive buckets of one level: one Query per shard. */
interface Run {
  level: UsageLevel;
  first: string;
  last: string;
}

/** The cells needed, grouped into runs of consecutive buckets of each level. */
function runsOf(cells: Cell[]): Run[] {
  const runs: Run[] = [];
  for (const level of ['hour', 'day', 'month'] as const) {
    const buckets = [...new Set(cells.filter((cell) => cell.level === level).map((cell) => cell.bucket))].sort();
    for (const bucket of buckets) {
      const last = runs[runs.length - 1];
      if (last?.level === level && nextStart(level, bucketStart(level, last.last)) === bucketStart(level, bucket)) last.last = bucket;
      else runs.push({ level, first: bucket, last: bucket });
    }
  }
  return runs;
}

/** Queries in flight at once: a daily series in a zone off UTC reads a few hours at every midnight. */
const MAX_PARALLEL_QUERIES = 32;

/** Every shard's aggregates of every run, summed over the shards: cell key → meter → amount. */
export async function readCells(operatorId: string, runs: Run[], cost: ReadCost): Promise<Map<string, Map<string, Amount>>> {
  const cells = new Map<string, Map<string, Amount>>();
  const queries = runs.flatMap((run) => Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => ({ run, shard })));
  let next = 0;
  const worker = async () => {
    while (next < queries.length) {
      const { run, shard } = queries[next++];
      for (const row of await queryAggregates(operatorId, shard, run.level, run.first, run.last, cost)) {
        const key = `${row.level}|${row.bucket}`;
        const meters = cells.get(key) ?? new Map<string, Amount>();
        const amount = meters.get(row.meter) ?? { usage: ZERO, events: 0 };
        meters.set(row.meter, { usage: addDecimals(amount.usage, parseDecimal(row.usage)), events: amount.events + row.events });
        cells.set(key, meters);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_QUERIES, queries.length) }, worker));
  return cells;
}

/** Per meter, the signed sum of an interval's cells. */
function sumCells(cover: Cell[], cells: Map<string, Map<string, Amount>>): Map<string, Amount> {
  const sums = new Map<string, Amount>();
  for (const { level, bucket, sign } of cover) {
    for (const [meter, amount] of cells.get(`${level}|${bucket}`) ?? []) {
      const sum = sums.get(meter) ?? { usage: ZERO, events: 0 };
      sums.set(meter, {
        usage: addDecimals(sum.usage, sign === 1 ? amount.usage : negateDecimal(amount.usage)),
        events: sum.events + sign * amount.events,
      });
    }
  }
  return sums;
}

const byTotalThenName = (a: [string, Amount], b: [string, Amount]) =>
  compareDecimals(b[1].usage, a[1].usage) || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

const SERIES_FIELD = { hour: 'Hours', day: 'Days', month: 'Months' } as const;

/** What a summary reads: the cover of each span asked for (the period, or each point of its series), in runs of buckets. */
export function summaryPlan(request: UsageSummaryRequest) {
  const period = summaryPeriod(request.from, request.to, request.tz, request.granularity);
  // The points of a series make up the whole period, so its totals are their sums and need no cells of their own.
  const spans: Interval[] = period.points.length ? period.points : [period];
  const covers = spans.map(cover);
  return { period, covers, runs: runsOf(covers.flat()) };
}

/**
 * Per-meter totals of an operator over whole days of a zone, summed exactly
 * from aggregates (never from entries). Each span asked for (the period, or
 * each point of the series) is covered by the fewest hour, day and month
 * buckets (see `cover`), so the items read depend on the range, the meters
 * and the shards alone.
 */
export async function summarizeUsage(operatorId: string, request: UsageSummaryRequest): Promise<UsageSummaryResult> {
  const { period, covers, runs } = summaryPlan(request);
  const cost: ReadCost = { queries: 0, itemsRead: 0, capacityUnits: 0 };
  const cells = await readCells(operatorId, runs, cost);
  const spanSums = covers.map((spanCover) => sumCells(spanCover, cells));

  const totals = new Map<string, Amount>();
  for (const sums of spanSums) {
    for (const [meter, amount] of sums) {
      const total = totals.get(meter) ?? { usage: ZERO, events: 0 };
      totals.set(meter, { usage: addDecimals(total.usage, amount.usage), events: total.events + amount.events });
    }
  }
  // A meter whose every entry in the period was voided has nothing left to show.
  const sorted = [...totals.entries()].filter(([, total]) => total.events > 0).sort(byTotalThenName);
  const series = (meter: string) =>
    period.points.map((point: SeriesPoint, i) => {
      const amount = spanSums[i].get(meter) ?? { usage: ZERO, events: 0 };
      return { ...point.label, Usage: decimalToNumber(amount.usage), Events: amount.events };
    });
  const meters: UsageSummaryMeter[] = sorted.map(([meter, total]) => ({
    Meter: meter,
    TotalUsage: decimalToNumber(total.usage),
    EventCount: total.events,
    ...(request.granularity ? { [SERIES_FIELD[request.granularity]]: series(meter) } : {}),
  }));
  const totalUsage = sorted.reduce((sum, [, total]) => addDecimals(sum, total.usage), ZERO);

  return {
    summary: {
      Period: { From: period.from, To: period.to, FromTimestamp: period.start, ToTimestamp: period.end - 1, TimeZone: period.timeZone },
      Totals: { Usage: decimalToNumber(totalUsage), Events: sorted.reduce((sum, [, total]) => sum + total.events, 0) },
      Meters: meters,
    },
    readCost: cost,
  };
}
