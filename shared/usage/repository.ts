import { QueryCommand, type AttributeValue, type QueryCommandOutput } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, attributeClient, tableName } from '../db/client';
import { usageKeys, type IdempotencyOrigin } from '../db/keys';
import type { UsageEntry } from './model';

/** One function per usage access pattern; see the README's access-pattern table. */

export interface IdempotencyRecordItem {
  Entry: UsageEntry;
  RequestHash: string;
  ExpiresAt: number;
}

export async function getIdempotencyRecord(
  operatorId: string,
  origin: IdempotencyOrigin,
  keyHash: string,
): Promise<IdempotencyRecordItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: usageKeys.idempotencyRecord(operatorId, origin, keyHash), ConsistentRead: true }),
  );
  return Item as IdempotencyRecordItem | undefined;
}

/** An hourly aggregate with its numbers as DynamoDB's decimal text, never a float. */
export interface AggregateRow {
  Meter: string;
  BucketStart: number;
  TotalUsage: string;
  EventCount: number;
}

export interface AggregateRead {
  rows: AggregateRow[];
  /** Items DynamoDB read for the summary, and the read capacity they cost. */
  itemsRead: number;
  capacityUnits: number;
}

const numberText = (value: AttributeValue | undefined): string => {
  if (value?.N === undefined) throw new Error('Usage aggregate without a number attribute');
  return value.N;
};

/**
 * Every shard's aggregates of every meter from the first hour bucket to the
 * last: a bounded number of items (hours × meters × shards at most) however
 * many entries they sum up. Sent as the low-level command so that the
 * document client's float conversion never touches the totals.
 */
export async function queryAggregates(operatorId: string, shards: number, firstHour: string, lastHour: string): Promise<AggregateRead> {
  const read: AggregateRead = { rows: [], itemsRead: 0, capacityUnits: 0 };
  await Promise.all(
    Array.from({ length: shards }, async (_, shard) => {
      const { PK, SKFrom, SKTo } = usageKeys.aggregateRange(operatorId, shard, firstHour, lastHour);
      let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
      do {
        const page: QueryCommandOutput = await attributeClient().send(
          new QueryCommand({
            TableName: tableName(),
            KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
            ProjectionExpression: '#meter, BucketStart, TotalUsage, EventCount',
            ExpressionAttributeNames: { '#meter': 'Meter' },
            ExpressionAttributeValues: { ':pk': { S: PK }, ':from': { S: SKFrom }, ':to': { S: SKTo } },
            ReturnConsumedCapacity: 'TOTAL',
            ExclusiveStartKey,
          }),
        );
        for (const item of page.Items ?? []) {
          read.rows.push({
            Meter: item.Meter.S as string,
            BucketStart: Number(numberText(item.BucketStart)),
            TotalUsage: numberText(item.TotalUsage),
            EventCount: Number(numberText(item.EventCount)),
          });
        }
        read.itemsRead += page.ScannedCount ?? 0;
        read.capacityUnits += page.ConsumedCapacity?.CapacityUnits ?? 0;
        ExclusiveStartKey = page.LastEvaluatedKey;
      } while (ExclusiveStartKey);
    }),
  );
  return read;
}
