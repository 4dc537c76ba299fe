import { BatchGetItemCommand, type AttributeValue, type KeysAndAttributes } from '@aws-sdk/client-dynamodb';
import { RETRY, retrying } from '../core/retry';
import { attributeClient, tableName } from '../db/client';
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

const BATCH_GET_LIMIT = 100;
/** BatchGetItem calls in flight at once, as a summary's Queries are (summary.ts). */
const MAX_PARALLEL_BATCHES = 32;

/**
 * Aggregates by their keys, for a summary of named meters: one BatchGetItem
 * per 100 keys, 32 at once (eventually consistent, as a summary's Queries
 * are, unless `consistent`: a limit's status and its gates), with the
 * low-level client so that totals stay decimal text. Keys without an item (an
 * hour without entries of that meter) are left out. With `combinations` each
 * is read whole. `cost` adds up what the reads cost.
 */
export async function getAggregates(
  operatorId: string,
  refs: AggregateRef[],
  combinations: boolean,
  cost: ReadCost,
  consistent = false,
): Promise<AggregateRow[]> {
  const rows: AggregateRow[] = [];
  const levelOf = new Map(
    refs.map((ref) => {
      const { SK } = usageKeys.aggregate(operatorId, ref.shard, ref.level, ref.bucket, ref.meter);
      return [SK, ref.level] as const;
    }),
  );
  const batches = Array.from({ length: Math.ceil(refs.length / BATCH_GET_LIMIT) }, (_, i) =>
    refs.slice(i * BATCH_GET_LIMIT, (i + 1) * BATCH_GET_LIMIT),
  );
  const readBatch = async (batch: AggregateRef[]) => {
    let keys: KeysAndAttributes['Keys'] = batch.map((ref) => {
      const { PK, SK } = usageKeys.aggregate(operatorId, ref.shard, ref.level, ref.bucket, ref.meter);
      return { PK: { S: PK }, SK: { S: SK } };
    });
    await retrying('Reading usage aggregates', async () => {
      const output = await attributeClient().send(
        new BatchGetItemCommand({
          RequestItems: {
            [tableName()]: {
              Keys: keys,
              ConsistentRead: consistent,
              ...(combinations ? {} : { ProjectionExpression: AGGREGATE_PROJECTION.expression }),
            },
          },
          ReturnConsumedCapacity: 'TOTAL',
        }),
      );
      const items: Record<string, AttributeValue>[] = output.Responses?.[tableName()] ?? [];
      for (const item of items) {
        const level = levelOf.get(item.SK.S as string) as UsageLevel;
        rows.push(combinations ? aggregateRowWithCombinations(level, item) : aggregateRow(level, item));
      }
      cost.queries += 1;
      cost.itemsRead += items.length;
      cost.capacityUnits += (output.ConsumedCapacity ?? []).reduce((sum, consumed) => sum + (consumed.CapacityUnits ?? 0), 0);
      keys = output.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      return keys.length ? RETRY : true;
    });
  };
  let next = 0;
  const worker = async () => {
    while (next < batches.length) await readBatch(batches[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(MAX_PARALLEL_BATCHES, batches.length) }, worker));
  return rows;
}
