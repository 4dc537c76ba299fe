import { batchGetAttributes } from '../db/batch';
import * as usageKeys from '../db/usage-keys';
import type { UsageLevel } from '../db/usage-levels';
import { AGGREGATE_PROJECTION, aggregateRow, aggregateRowWithCombinations, type AggregateRow, type ReadCost } from './repository';

/** One aggregate by what names it. */
export interface AggregateRef {
  shard: number;
  level: UsageLevel;
  bucket: string;
  meter: string;
}

/** BatchGetItem calls in flight at once, as a summary's Queries are (summary.ts). */
const MAX_PARALLEL_BATCHES = 32;

/**
 * Aggregates by their keys, for a summary of named meters: by the one batch
 * read, 32 batches at once (eventually consistent, as a summary's Queries
 * are, unless `consistent`: a limit's status and its gates), as attribute
 * values so that totals stay decimal text. Keys without an item (an hour
 * without entries of that meter) are left out. With `combinations` each is
 * read whole. `cost` adds up what the reads cost.
 */
export async function getAggregates(
  operatorId: string,
  refs: AggregateRef[],
  combinations: boolean,
  cost: ReadCost,
  consistent = false,
): Promise<AggregateRow[]> {
  const rows: AggregateRow[] = [];
  const keys = refs.map((ref) => usageKeys.aggregate(operatorId, ref.shard, ref.level, ref.bucket, ref.meter));
  const levelOf = new Map(keys.map(({ SK }, i) => [SK, refs[i].level] as const));
  await batchGetAttributes(
    'Reading usage aggregates',
    keys,
    { projection: combinations ? undefined : AGGREGATE_PROJECTION, consistent, parallel: MAX_PARALLEL_BATCHES, cost },
    (item) => {
      const level = levelOf.get(item.SK.S as string) as UsageLevel;
      rows.push(combinations ? aggregateRowWithCombinations(level, item) : aggregateRow(level, item));
    },
  );
  return rows;
}
