import { ValidationError } from '../core/errors';
import { cover } from './buckets';
import { dimensionsOfCombinations, dimensionValue } from './combinations';
import { parseMicros } from './decimal';
import { getAggregates } from './aggregates-by-key';
import type { LimitItem } from './limit-model';
import { countable, type LimitPeriodSpan } from './limit-periods';
import { AGGREGATE_SHARDS } from './model';
import type { Interval } from './period';
import type { ReadCost } from './repository';

/**
 * The usage of one meter over a span, from its aggregates (never its
 * entries), in millionths: what a summary of the same meter, filter and
 * span answers, read by key in the shards asked for, with strong
 * consistency. The span is covered as a summary covers it (months, days and
 * hours, added or taken away), so the items read depend on the span and the
 * shards alone. With a filter, only the combinations of dimensions that
 * have every one of its values count, as a summary's filter counts them.
 */
export interface PeriodUsageQuery {
  meter: string;
  filter?: Record<string, string>;
  interval: Interval;
  shards: readonly number[];
}

export async function periodUsage(operatorId: string, query: PeriodUsageQuery, cost: ReadCost): Promise<bigint> {
  const cells = cover(query.interval);
  const signs = new Map(cells.map((cell) => [`${cell.level}|${cell.bucket}`, BigInt(cell.sign)]));
  const refs = cells.flatMap(({ level, bucket }) => query.shards.map((shard) => ({ shard, level, bucket, meter: query.meter })));
  const rows = await getAggregates(operatorId, refs, query.filter !== undefined, cost, true);
  const sign = (row: (typeof rows)[number]) => signs.get(`${row.level}|${row.bucket}`) as bigint;
  const filter = Object.entries(query.filter ?? {});
  if (!filter.length) return rows.reduce((sum, row) => sum + sign(row) * parseMicros(row.usage), 0n);

  const numbers = [...new Set(rows.flatMap((row) => row.combinations!.map(({ combination }) => combination)))];
  const read = { items: 0 };
  const dimensionsOf = await dimensionsOfCombinations(
    operatorId,
    numbers.map((combination) => ({ meter: query.meter, combination })),
    read,
  );
  cost.combinationsRead += read.items;
  const matching = new Set(
    numbers.filter((combination) => filter.every(([key, value]) => dimensionValue(dimensionsOf(query.meter, combination), key) === value)),
  );
  let sum = 0n;
  for (const row of rows) {
    for (const { combination, usage } of row.combinations!) if (matching.has(combination)) sum += sign(row) * parseMicros(usage);
  }
  return sum;
}

export const ALL_SHARDS: readonly number[] = Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => shard);

/** What a limit's period has used: its meter's aggregates over the period, every shard (or those asked for), its filter applied. */
export function usedInPeriod(
  operatorId: string,
  limit: Pick<LimitItem, 'Meter' | 'Filter'>,
  period: LimitPeriodSpan,
  cost: ReadCost,
  shards: readonly number[] = ALL_SHARDS,
): Promise<bigint> {
  if (!countable(period)) {
    throw new ValidationError(
      `The period ${period.key} does not start and end on whole UTC hours in the limit's zone, so it cannot be counted`,
    );
  }
  return periodUsage(operatorId, { meter: limit.Meter, filter: limit.Filter, interval: period, shards }, cost);
}
