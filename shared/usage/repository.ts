import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, NumberValue, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchWrite } from '../db/batch';
import { documentClient, tableName } from '../db/client';
import { queryPages } from '../db/query-pages';
import type { QueryCost } from '../db/reads';
import * as usageKeys from '../db/usage-keys';
import type { IdempotencyOrigin } from '../db/usage-keys';
import type { ItemKey } from '../db/keys';
import type { UsageLevel } from '../db/usage-levels';
import { combinationAttributes, combinationOfAttribute } from './model';
import type { Dimensions, UsageEntry } from './schemas';

/**
 * Every DynamoDB call of usage metering, one function per access pattern
 * (see the README's access-pattern table). Totals are read with the
 * low-level client, so that DynamoDB's decimal text never passes through a
 * JavaScript float, and written as NumberValue for the same reason.
 */

export interface IdempotencyRecordItem {
  Entry: UsageEntry;
  RequestHash: string;
  ExpiresAt: number;
}

export interface IdempotencyKeyRef {
  origin: IdempotencyOrigin;
  keyHash: string;
}

/** Writes one transaction (recording or voiding); cancellations reach the caller untouched. */
export async function writeTransaction(input: TransactWriteCommandInput): Promise<void> {
  await documentClient().send(new TransactWriteCommand(input));
}

/** The idempotency records of many keys at once (consistent reads), by key hash; keys without a record are absent. */
export async function getIdempotencyRecords(operatorId: string, refs: IdempotencyKeyRef[]): Promise<Map<string, IdempotencyRecordItem>> {
  const found = new Map<string, IdempotencyRecordItem>();
  await batchGet(
    'Reading usage idempotency records',
    refs.map(({ origin, keyHash }) => usageKeys.idempotencyRecord(operatorId, origin, keyHash)),
    { projection: { expression: 'PK, Entry, RequestHash, ExpiresAt' } },
    // The key hash is the last segment of the partition key.
    (item) => found.set(String(item.PK).split('#').pop() as string, item as unknown as IdempotencyRecordItem),
  );
  return found;
}

/** Which of `meters` the operator has registered (consistent reads). */
export async function getRegisteredMeters(operatorId: string, meters: string[]): Promise<string[]> {
  const found: string[] = [];
  await batchGet(
    'Reading registered meters',
    meters.map((meter) => usageKeys.meter(operatorId, meter)),
    { projection: { expression: '#meter', names: { '#meter': 'Meter' } } },
    (item) => found.push(item.Meter as string),
  );
  return found;
}

/** How many custom meters the operator has registered (a consistent read). */
export async function getMeterCount(operatorId: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: usageKeys.meterCount(operatorId),
      ConsistentRead: true,
      ProjectionExpression: '#count',
      ExpressionAttributeNames: { '#count': 'Count' },
    }),
  );
  return Number(Item?.Count ?? 0);
}

/** A combination of dimensions of one meter, as registered: its number and its dimensions. */
export interface CombinationItem {
  Meter: string;
  Combination: number;
  Dimensions: Dimensions;
}

const COMBINATION_PROJECTION = {
  expression: '#meter, Combination, #dimensions',
  names: { '#meter': 'Meter', '#dimensions': 'Dimensions' },
};

/** Registered combinations by the SHA-256 of their canonical dimensions (consistent reads). */
export async function getCombinationsByDimensions(
  operatorId: string,
  refs: { meter: string; dimensionsHash: string }[],
): Promise<CombinationItem[]> {
  const found: CombinationItem[] = [];
  await batchGet(
    'Reading dimension combinations',
    refs.map(({ meter, dimensionsHash }) => usageKeys.combinationByDimensions(operatorId, meter, dimensionsHash)),
    { projection: COMBINATION_PROJECTION },
    (item) => found.push(item as unknown as CombinationItem),
  );
  return found;
}

/** Registered combinations by their numbers (consistent reads). */
export async function getCombinationsByNumber(
  operatorId: string,
  refs: { meter: string; combination: number }[],
): Promise<CombinationItem[]> {
  const found: CombinationItem[] = [];
  await batchGet(
    'Reading dimension combinations',
    refs.map(({ meter, combination }) => usageKeys.combinationByNumber(operatorId, meter, combination)),
    { projection: COMBINATION_PROJECTION },
    (item) => found.push(item as unknown as CombinationItem),
  );
  return found;
}

/** How many combinations each meter has registered (consistent reads); meters with none are absent. */
export async function getCombinationCounts(operatorId: string, meters: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await batchGet(
    'Reading dimension combination counts',
    meters.map((meter) => usageKeys.combinationCount(operatorId, meter)),
    { projection: { expression: '#meter, #count', names: { '#meter': 'Meter', '#count': 'Count' } } },
    (item) => counts.set(item.Meter as string, Number(item.Count)),
  );
  return counts;
}

/** Usage is a DynamoDB reserved word. */
const ENTRY_PROJECTION = 'ID, #meter, #usage, OccurredAt, VoidedAt, #dimensions, Combination';
const ENTRY_NAMES = { '#meter': 'Meter', '#usage': 'Usage', '#dimensions': 'Dimensions' };

/** An entry as stored. */
export interface StoredEntry extends UsageEntry {
  VoidedAt?: number;
  /** The number of its dimensions' combination, when it has dimensions. */
  Combination?: number;
}

export async function getEntry(operatorId: string, shard: number, id: number): Promise<StoredEntry | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: usageKeys.entry(operatorId, shard, id),
      ConsistentRead: true,
      ProjectionExpression: ENTRY_PROJECTION,
      ExpressionAttributeNames: ENTRY_NAMES,
    }),
  );
  return Item as StoredEntry | undefined;
}

/** One aggregate as read: its bucket, meter and numbers, the usage as DynamoDB's decimal text. */
export interface AggregateRow {
  level: UsageLevel;
  bucket: string;
  meter: string;
  usage: string;
  events: number;
  /** Read only when asked for: the totals of each combination of dimensions, by number. */
  combinations?: CombinationRow[];
}

export interface CombinationRow {
  combination: number;
  usage: string;
  events: number;
}

export interface ReadCost extends QueryCost {
  /** Registry items read to name combinations of dimensions (grouped or filtered summaries, by a process that had not seen them). */
  combinationsRead: number;
}

const numberText = (value: AttributeValue | undefined): string => {
  if (value?.N === undefined) throw new Error('Usage item without a number attribute');
  return value.N;
};

export const AGGREGATE_PROJECTION = { expression: 'SK, TotalUsage, EventCount' };

/** The sort key `<LEVEL>#<bucket>#<meter>` read back; meter names cannot contain '#'. */
export function aggregateRow(level: UsageLevel, item: Record<string, AttributeValue>): AggregateRow {
  const [, bucket, meter] = (item.SK.S as string).split('#');
  return { level, bucket, meter, usage: numberText(item.TotalUsage), events: Number(numberText(item.EventCount)) };
}

/** An aggregate read whole: its totals and those of every combination of dimensions it holds. */
export function aggregateRowWithCombinations(level: UsageLevel, item: Record<string, AttributeValue>): AggregateRow {
  const byNumber = new Map<number, CombinationRow>();
  for (const name in item) {
    const combination = combinationOfAttribute(name);
    if (combination === undefined) continue;
    let row = byNumber.get(combination);
    if (!row) byNumber.set(combination, (row = { combination, usage: '0', events: 0 }));
    if (name[0] === 'U') row.usage = numberText(item[name]);
    else row.events = Number(numberText(item[name]));
  }
  return { ...aggregateRow(level, item), combinations: [...byNumber.values()] };
}

/**
 * The aggregates of one level and one shard from the first bucket to the
 * last, every meter: at most (buckets × meters) items, however many entries
 * they sum up. With `combinations`, each is read whole, with the totals of
 * every combination of dimensions it holds: the same items, larger. `cost`
 * adds up what the reads cost; once its `maxItems` are passed (by this read
 * or another sharing it), reading stops there, and the rows are incomplete.
 */
export async function queryAggregates(
  operatorId: string,
  shard: number,
  level: UsageLevel,
  range: { firstBucket: string; lastBucket: string; combinations: boolean },
  cost: ReadCost,
): Promise<AggregateRow[]> {
  const rows: AggregateRow[] = [];
  await queryPages(
    usageKeys.aggregateRange(operatorId, shard, level, range.firstBucket, range.lastBucket),
    range.combinations ? undefined : AGGREGATE_PROJECTION,
    (item) => rows.push(range.combinations ? aggregateRowWithCombinations(level, item) : aggregateRow(level, item)),
    cost,
  );
  return rows;
}

/** Every aggregate of one level in one shard (for the rebuild). */
export async function listAggregates(operatorId: string, shard: number, level: UsageLevel): Promise<AggregateRow[]> {
  const rows: AggregateRow[] = [];
  await queryPages(usageKeys.aggregatePrefix(operatorId, shard, level), AGGREGATE_PROJECTION, (item) =>
    rows.push(aggregateRow(level, item)),
  );
  return rows;
}

/** An entry as the rebuild reads it: the usage as decimal text. */
export interface EntryRow {
  id: number;
  meter: string;
  usage: string;
  occurredAt: number;
  voided: boolean;
  combination?: number;
}

/** Every entry of one shard, in recording order, voided ones included. */
export async function listEntries(operatorId: string, shard: number, each: (entry: EntryRow) => void): Promise<void> {
  await queryPages(usageKeys.entryPrefix(operatorId, shard), { expression: ENTRY_PROJECTION, names: ENTRY_NAMES }, (item) =>
    each({
      id: Number(numberText(item.ID)),
      meter: item.Meter.S as string,
      usage: numberText(item.Usage),
      occurredAt: Number(numberText(item.OccurredAt)),
      voided: item.VoidedAt !== undefined,
      ...(item.Combination ? { combination: Number(numberText(item.Combination)) } : {}),
    }),
  );
}

/** Sets aggregates to the given totals (the rebuild's puts). */
export async function putAggregates(operatorId: string, shard: number, rows: AggregateRow[]): Promise<void> {
  await batchWrite(
    'Writing usage aggregates',
    rows.map((row) => ({
      PutRequest: {
        Item: {
          ...usageKeys.aggregate(operatorId, shard, row.level, row.bucket, row.meter),
          Entity: 'UsageAggregate',
          Meter: row.meter,
          TotalUsage: NumberValue.from(row.usage),
          EventCount: row.events,
          ...Object.fromEntries(
            (row.combinations ?? []).flatMap(({ combination, usage, events }) => {
              const attributes = combinationAttributes(combination);
              return [
                [attributes.usage, NumberValue.from(usage)],
                [attributes.events, events],
              ];
            }),
          ),
        },
      },
    })),
  );
}

export async function deleteAggregates(operatorId: string, shard: number, rows: AggregateRow[]): Promise<void> {
  await batchWrite(
    'Writing usage aggregates',
    rows.map((row) => ({
      DeleteRequest: { Key: usageKeys.aggregate(operatorId, shard, row.level, row.bucket, row.meter) satisfies ItemKey },
    })),
  );
}
