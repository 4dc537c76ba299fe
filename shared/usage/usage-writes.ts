import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../db/client';
import { usageKeys, type IdempotencyOrigin } from '../db/keys';
import { expiresAt, hashIdempotencyKey, requestHash } from '../core/idempotency';
import { newUsageId, shardOf } from './ids';
import { hourBucket, hourStart } from './period';
import { AGGREGATE_SHARDS, IDEMPOTENCY_TTL_SECONDS, type UsageEntry, type UsageInput } from './model';

/** One usage entry, ready to be written. */
export interface PreparedUsageRecord {
  operatorId: string;
  entry: UsageEntry;
  extraInfo?: string;
  shard: number;
  recordedAt: Date;
  idempotency?: { origin: IdempotencyOrigin; keyHash: string; requestHash: string; expiresAt: number };
}

/** Gives a validated input its ID, shard and timestamp; a retry after an ID collision prepares it again. */
export function prepareUsageRecord(
  operatorId: string,
  input: UsageInput,
  options: { now?: Date; idempotencyKey?: string; origin?: IdempotencyOrigin } = {},
): PreparedUsageRecord {
  const now = options.now ?? new Date();
  const id = newUsageId(now.getTime());
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return {
    operatorId,
    entry: { ID: id, Meter: input.Meter, Usage: input.Usage, OccurredAt: input.OccurredAt ?? nowSeconds },
    extraInfo: input.ExtraInfo,
    shard: shardOf(id, AGGREGATE_SHARDS),
    recordedAt: now,
    idempotency: options.idempotencyKey
      ? {
          origin: options.origin ?? 'client',
          keyHash: hashIdempotencyKey(options.idempotencyKey),
          requestHash: requestHash(input),
          expiresAt: expiresAt(now, IDEMPOTENCY_TTL_SECONDS),
        }
      : undefined,
  };
}

/**
 * The one transaction that records a usage entry: the idempotency record
 * (when a key was given), the entry item, and the increment of its hourly
 * aggregate. All or nothing, so totals never disagree with the entries and a
 * replayed key never counts twice.
 */
export function usageRecordTransaction(record: PreparedUsageRecord): TransactWriteCommandInput {
  const { operatorId, entry, shard } = record;
  const hour = hourBucket(entry.OccurredAt);
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
  if (record.idempotency) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...usageKeys.idempotencyRecord(operatorId, record.idempotency.origin, record.idempotency.keyHash),
          Entity: 'UsageIdempotencyRecord',
          Entry: entry,
          RequestHash: record.idempotency.requestHash,
          ExpiresAt: record.idempotency.expiresAt,
        },
        // TTL deletion lags; a record past its time is treated as gone.
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
        ExpressionAttributeValues: { ':now': Math.floor(record.recordedAt.getTime() / 1000) },
      },
    });
  }
  items.push(
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...usageKeys.entry(operatorId, shard, entry.ID),
          Entity: 'UsageEntry',
          ...entry,
          ...(record.extraInfo === undefined ? {} : { ExtraInfo: record.extraInfo }),
          Hour: hour,
          RecordedAt: record.recordedAt.toISOString(),
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
    {
      Update: {
        TableName: tableName(),
        Key: usageKeys.aggregate(operatorId, shard, hour, entry.Meter),
        UpdateExpression: 'SET Entity = :entity, #meter = :meter, BucketStart = :start ADD TotalUsage :usage, EventCount :one',
        ExpressionAttributeNames: { '#meter': 'Meter' },
        ExpressionAttributeValues: {
          ':entity': 'UsageAggregate',
          ':meter': entry.Meter,
          ':start': hourStart(entry.OccurredAt),
          ':usage': entry.Usage,
          ':one': 1,
        },
      },
    },
  );
  return { TransactItems: items };
}
