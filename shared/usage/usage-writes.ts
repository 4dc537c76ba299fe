import { NumberValue, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { expiresAt } from '../core/idempotency';
import { tableName } from '../db/client';
import * as usageKeys from '../db/usage-keys';
import type { UsageLevel } from '../db/usage-levels';
import { LEVELS } from '../db/usage-levels';
import { bucketOf } from './buckets';
import { addDecimals, formatDecimal, negateDecimal, parseDecimal, ZERO, type Decimal } from './decimal';
import type { UsageEntry } from './schemas';
import { combinationAttributes, dimensionsAttribute, IDEMPOTENCY_TTL_SECONDS } from './model';
import type { IdempotencyKeyRef } from './repository';
import { gateUpdate, type LimitWrites } from './gates';
import { guardItem } from './limit-counters';

/**
 * The transactions of usage entries, built as plain inputs (the unit tests
 * read them): recording entries of one shard, and voiding one entry. In both
 * the entries and every aggregate they add to change together or not at all,
 * so totals never disagree with the entries. Registering new meters and
 * combinations of dimensions is meters.ts's and combinations.ts's.
 */

/** An entry ready to be written: its ID chosen, its idempotency key and its dimensions' combination number when it has them. */
export interface EntryToWrite {
  entry: UsageEntry;
  extraInfo?: string;
  idempotency?: IdempotencyKeyRef & { requestHash: string };
  combination?: number;
}

/** Where each entry's items sit in TransactItems, to read a cancellation by. */
export interface EntryPositions {
  idempotency?: number;
  entry: number;
}

/** Where the guards' and the gates' items sit in TransactItems, in the order of LimitWrites. */
export interface LimitPositions {
  guards: number[];
  gates: number[];
}

/** Appends the limits' items to a transaction's, and says where they are. */
function appendLimits(operatorId: string, shard: number, items: TransactItem[], limits: LimitWrites): LimitPositions {
  const guards = limits.guards.map((guard) => items.push(guardItem(operatorId, shard, guard)) - 1);
  const gates = limits.gates.map((gate) => items.push(gateUpdate(gate)) - 1);
  return { guards, gates };
}

export interface Amount {
  usage: Decimal;
  events: number;
}

export interface Increment extends Amount {
  level: UsageLevel;
  bucket: string;
  meter: string;
  /** The part of the amount that entries with dimensions bring, by combination number. */
  combinations: Map<number, Amount>;
}

/** What an aggregate adds up: an entry's meter, time, usage and, when it has dimensions, their combination number. */
export interface CountedEntry {
  Meter: string;
  OccurredAt: number;
  Usage: number | string;
  Combination?: number;
}

const incrementKey = (level: UsageLevel, bucket: string, meter: string) => `${level}|${bucket}|${meter}`;

/** The aggregates an entry adds to: one bucket of each level. */
export const aggregateKeysOf = (entry: Pick<UsageEntry, 'Meter' | 'OccurredAt'>): string[] =>
  LEVELS.map((level) => incrementKey(level, bucketOf(level, entry.OccurredAt), entry.Meter));

/** What entries add to each aggregate, summed exactly: entries of one meter and hour share one increment. */
export function aggregateIncrements(entries: CountedEntry[], sign: 1 | -1 = 1): Increment[] {
  const increments = new Map<string, Increment>();
  for (const entry of entries) {
    const parsed = parseDecimal(String(entry.Usage));
    const usage = sign === 1 ? parsed : negateDecimal(parsed);
    for (const level of LEVELS) {
      const bucket = bucketOf(level, entry.OccurredAt);
      const key = incrementKey(level, bucket, entry.Meter);
      const increment = increments.get(key) ?? { level, bucket, meter: entry.Meter, usage: ZERO, events: 0, combinations: new Map() };
      increment.usage = addDecimals(increment.usage, usage);
      increment.events += sign;
      if (entry.Combination !== undefined) {
        const part = increment.combinations.get(entry.Combination) ?? { usage: ZERO, events: 0 };
        increment.combinations.set(entry.Combination, { usage: addDecimals(part.usage, usage), events: part.events + sign });
      }
      increments.set(key, increment);
    }
  }
  return [...increments.values()];
}

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

const storedEntry = ({ Dimensions, ...entry }: UsageEntry) => ({
  ...entry,
  ...(Dimensions ? { Dimensions: dimensionsAttribute(Dimensions) } : {}),
});

function incrementItem(operatorId: string, shard: number, increment: Increment): TransactItem {
  const names: Record<string, string> = { '#meter': 'Meter' };
  const values: Record<string, unknown> = {
    ':entity': 'UsageAggregate',
    ':meter': increment.meter,
    ':usage': NumberValue.from(formatDecimal(increment.usage)),
    ':events': increment.events,
  };
  const adds = ['TotalUsage :usage', 'EventCount :events'];
  // Placeholders are numbered by position, so the expression's length depends on how many combinations it adds, never on their numbers.
  [...increment.combinations].forEach(([combination, amount], i) => {
    const attributes = combinationAttributes(combination);
    Object.assign(names, { [`#u${i}`]: attributes.usage, [`#e${i}`]: attributes.events });
    Object.assign(values, { [`:u${i}`]: NumberValue.from(formatDecimal(amount.usage)), [`:e${i}`]: amount.events });
    adds.push(`#u${i} :u${i}`, `#e${i} :e${i}`);
  });
  return {
    Update: {
      TableName: tableName(),
      Key: usageKeys.aggregate(operatorId, shard, increment.level, increment.bucket, increment.meter),
      UpdateExpression: `SET Entity = :entity, #meter = :meter ADD ${adds.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}

/**
 * Records entries that all live in `shard`: per entry its idempotency record
 * (when it has a key; written only if none is live) and the entry item
 * (written only if its ID is new), then one increment per aggregate the
 * entries add to, and what their meters' limits add (each meter's guard,
 * with the counters of its NONE limits, and the REFUSE gates counted in).
 * At most 100 items, DynamoDB's limit for one transaction.
 */
export function recordEntriesTransaction(
  operatorId: string,
  shard: number,
  entries: EntryToWrite[],
  now: Date,
  limits: LimitWrites = { guards: [], gates: [] },
): { input: TransactWriteCommandInput; positions: EntryPositions[]; limitPositions: LimitPositions } {
  const items: TransactItem[] = [];
  const positions: EntryPositions[] = [];
  const recordedAt = now.toISOString();
  for (const { entry, extraInfo, idempotency, combination } of entries) {
    const position: EntryPositions = { entry: -1 };
    if (idempotency) {
      position.idempotency = items.length;
      items.push({
        Put: {
          TableName: tableName(),
          Item: {
            ...usageKeys.idempotencyRecord(operatorId, idempotency.origin, idempotency.keyHash),
            Entity: 'UsageIdempotencyRecord',
            Entry: storedEntry(entry),
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
          ...storedEntry(entry),
          ...(extraInfo === undefined ? {} : { ExtraInfo: extraInfo }),
          ...(combination === undefined ? {} : { Combination: combination }),
          RecordedAt: recordedAt,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    });
    positions.push(position);
  }
  const counted = entries.map(({ entry, combination }) => ({ ...entry, Combination: combination }));
  for (const increment of aggregateIncrements(counted)) items.push(incrementItem(operatorId, shard, increment));
  const limitPositions = appendLimits(operatorId, shard, items, limits);
  return { input: { TransactItems: items }, positions, limitPositions };
}

/**
 * Voids one entry: marks it VoidedAt (only if it exists and is not voided
 * yet; this condition is item 0) and takes its usage and count back out of
 * every aggregate it was added to, and of its meter's limits' counters and gates.
 */
export function voidEntryTransaction(
  operatorId: string,
  shard: number,
  entry: UsageEntry & { Combination?: number },
  voidedAt: number,
  limits: LimitWrites = { guards: [], gates: [] },
): { input: TransactWriteCommandInput; limitPositions: LimitPositions } {
  const items: TransactItem[] = [
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
  ];
  const limitPositions = appendLimits(operatorId, shard, items, limits);
  return { input: { TransactItems: items }, limitPositions };
}
