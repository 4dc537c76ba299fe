import { NumberValue, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { expiresAt } from '../core/idempotency';
import { tableName } from '../db/client';
import { usageKeys, type UsageLevel } from '../db/keys';
import { bucketOf, LEVELS } from './buckets';
import { addDecimals, formatDecimal, negateDecimal, parseDecimal, ZERO, type Decimal } from './decimal';
import type { UsageEntry } from './schemas';
import { IDEMPOTENCY_TTL_SECONDS } from './model';
import type { IdempotencyKeyRef } from './repository';

/**
 * The transactions of usage metering, built as plain inputs (the unit tests
 * read them): recording entries of one shard, and voiding one entry. In both
 * the entries and every aggregate they add to change together or not at all,
 * so totals never disagree with the entries.
 */

/** An entry ready to be written: its ID chosen, and its idempotency key when it has one. */
export interface EntryToWrite {
  entry: UsageEntry;
  extraInfo?: string;
  idempotency?: IdempotencyKeyRef & { requestHash: string };
}

/** Where each entry's items sit in TransactItems, to read a cancellation by. */
export interface EntryPositions {
  idempotency?: number;
  entry: number;
}

export interface Increment {
  level: UsageLevel;
  bucket: string;
  meter: string;
  usage: Decimal;
  events: number;
}

const incrementKey = (level: UsageLevel, bucket: string, meter: string) => `${level}|${bucket}|${meter}`;

/** The aggregates an entry adds to: one bucket of each level. */
export const aggregateKeysOf = (entry: Pick<UsageEntry, 'Meter' | 'OccurredAt'>): string[] =>
  LEVELS.map((level) => incrementKey(level, bucketOf(level, entry.OccurredAt), entry.Meter));

/** What entries add to each aggregate, summed exactly: entries of one meter and hour share one increment. */
export function aggregateIncrements(
  entries: { Meter: string; OccurredAt: number; Usage: number | string }[],
  sign: 1 | -1 = 1,
): Increment[] {
  const increments = new Map<string, Increment>();
  for (const entry of entries) {
    const usage = parseDecimal(String(entry.Usage));
    for (const level of LEVELS) {
      const bucket = bucketOf(level, entry.OccurredAt);
      const key = incrementKey(level, bucket, entry.Meter);
      const increment = increments.get(key) ?? { level, bucket, meter: entry.Meter, usage: ZERO, events: 0 };
      increment.usage = addDecimals(increment.usage, sign === 1 ? usage : negateDecimal(usage));
      increment.events += sign;
      increments.set(key, increment);
    }
  }
  return [...increments.values()];
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

function incrementItem(operatorId: string, shard: number, increment: Increment): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: usageKeys.aggregate(operatorId, shard, increment.level, increment.bucket, increment.meter),
      UpdateExpression: 'SET Entity = :entity, #meter = :meter ADD TotalUsage :usage, EventCount :events',
      ExpressionAttributeNames: { '#meter': 'Meter' },
      ExpressionAttributeValues: {
        ':entity': 'UsageAggregate',
        ':meter': increment.meter,
        ':usage': NumberValue.from(formatDecimal(increment.usage)),
        ':events': increment.events,
      },
    },
  };
}

/**
 * Records entries that all live in `shard`: per entry its idempotency record
 * (when it has a key; written only if none is live) and the entry item
 * (written only if its ID is new), then one increment per aggregate the
 * entries add to. At most 100 items, DynamoDB's limit for one transaction.
 */
export function recordEntriesTransaction(
  operatorId: string,
  shard: number,
  entries: EntryToWrite[],
  now: Date,
): { input: TransactWriteCommandInput; positions: EntryPositions[] } {
  const items: TransactItem[] = [];
  const positions: EntryPositions[] = [];
  const recordedAt = now.toISOString();
  for (const { entry, extraInfo, idempotency } of entries) {
    const position: EntryPositions = { entry: -1 };
    if (idempotency) {
      position.idempotency = items.length;
      items.push({
        Put: {
          TableName: tableName(),
          Item: {
            ...usageKeys.idempotencyRecord(operatorId, idempotency.origin, idempotency.keyHash),
            Entity: 'UsageIdempotencyRecord',
            Entry: entry,
            RequestHash: idempotency.requestHash,
            ExpiresAt: expiresAt(now, IDEMPOTENCY_TTL_SECONDS),
          },
          // Live strictly before ExpiresAt; TTL deletion lags, so a record at or past its time is treated as gone.
          ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
          ExpressionAttributeValues: { ':now': unixSeconds(now) },
        },
      });
    }
    position.entry = items.length;
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...usageKeys.entry(operatorId, shard, entry.ID),
          Entity: 'UsageEntry',
          ...entry,
          ...(extraInfo === undefined ? {} : { ExtraInfo: extraInfo }),
          RecordedAt: recordedAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    positions.push(position);
  }
  for (const increment of aggregateIncrements(entries.map(({ entry }) => entry))) items.push(incrementItem(operatorId, shard, increment));
  return { input: { TransactItems: items }, positions };
}

/**
 * Voids one entry: marks it VoidedAt (only if it exists and is not voided
 * yet; this condition is item 0) and takes its usage and count back out of
 * every aggregate it was added to.
 */
export function voidEntryTransaction(operatorId: string, shard: number, entry: UsageEntry, voidedAt: number): TransactWriteCommandInput {
  return {
    TransactItems: [
      {
        Update: {
          TableName: tableName(),
          Key: usageKeys.entry(operatorId, shard, entry.ID),
          UpdateExpression: 'SET VoidedAt = :voidedAt',
          ConditionExpression: 'attribute_exists(PK) AND attribute_not_exists(VoidedAt)',
          ExpressionAttributeValues: { ':voidedAt': voidedAt },
        },
      },
      ...aggregateIncrements([entry], -1).map((increment) => incrementItem(operatorId, shard, increment)),
    ],
  };
}
