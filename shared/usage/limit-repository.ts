import { GetItemCommand, TransactGetItemsCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, NumberValue, QueryCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { attributeClient, documentClient, tableName } from '../db/client';
import { countMove } from '../db/counts';
import * as limitKeys from '../db/limit-keys';
import type { ItemKey } from '../db/keys';
import { transactionCancellation } from '../db/transaction-errors';
import { isCounterName, type AlertStateItem, type GuardItem, type LimitItem, type LimitRule } from './limit-model';
import { AGGREGATE_SHARDS } from './model';

/**
 * Every DynamoDB call of usage limits, one function per access pattern (the
 * README's access-pattern table). A gate's Used and a counter are read with
 * the low-level client, as usage totals are, so that their decimal text
 * never passes through a JavaScript float.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A limit as stored, with its Revision: every change to it is conditioned on the one read. */
export type StoredLimit = LimitItem & { Revision: number };

/** A limit as the document client reads it: Amount, an exact decimal of at most 15 digits, is a number, written back as text. */
const storedLimit = (item: Record<string, unknown>): StoredLimit => ({ ...(item as unknown as StoredLimit), Amount: String(item.Amount) });

export async function getLimitItem(operatorId: string, limitId: string): Promise<StoredLimit | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: limitKeys.limit(operatorId, limitId), ConsistentRead: true }),
  );
  return Item && storedLimit(Item);
}

/** Every limit of the operator (consistent): at most MAX_LIMITS items of well under 1 KB, one page. */
export async function listLimitItems(operatorId: string): Promise<StoredLimit[]> {
  const { PK, SKPrefix } = limitKeys.limitPrefix(operatorId);
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
      ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map(storedLimit);
}

/** How many limits the operator has (a consistent read). */
export async function getLimitCount(operatorId: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: limitKeys.count(operatorId),
      ConsistentRead: true,
      ProjectionExpression: '#count',
      ExpressionAttributeNames: { '#count': 'Count' },
    }),
  );
  return Number(Item?.Count ?? 0);
}

/** A meter's guard in one shard (a consistent read); every shard's copy is the same. */
export async function getGuard(operatorId: string, shard: number, meter: string): Promise<GuardItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: limitKeys.guard(operatorId, shard, meter),
      ConsistentRead: true,
      ProjectionExpression: '#meter, Version, Limits',
      ExpressionAttributeNames: { '#meter': 'Meter' },
    }),
  );
  return Item as GuardItem | undefined;
}

/** A meter's guards as a change leaves them: every shard's copy, moved on from `version` (0: none yet) only if no other change came first. */
export function guardUpdates(operatorId: string, meter: string, version: number, limits: LimitRule[]): TransactItem[] {
  return Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => ({
    Update: {
      TableName: tableName(),
      Key: limitKeys.guard(operatorId, shard, meter),
      // Counted names what a recording added to: a change of the limits counts nothing.
      UpdateExpression: 'SET Entity = :entity, #meter = :meter, Version = :next, Limits = :limits REMOVE Counted',
      ConditionExpression: version === 0 ? 'attribute_not_exists(PK)' : 'Version = :version',
      ExpressionAttributeNames: { '#meter': 'Meter' },
      ExpressionAttributeValues: {
        ':entity': 'UsageLimitGuard',
        ':meter': meter,
        ':next': version + 1,
        ':limits': limits,
        ...(version === 0 ? {} : { ':version': version }),
      },
    },
  }));
}

/** The operator's count of limits moving from `count` to `next`, only if no other change came first. */
export const countUpdate = (operatorId: string, count: number, next: number): TransactItem =>
  countMove(limitKeys.count(operatorId), 'UsageLimitCount', count, next);

/** A limit written as it now is, over the revision read (none: a new one). */
export const limitPut = (operatorId: string, limit: StoredLimit, readRevision?: number): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...limitKeys.limit(operatorId, limit.LimitID),
      Entity: 'UsageLimit',
      OperatorID: operatorId,
      ...limit,
      Amount: NumberValue.from(limit.Amount),
    },
    ConditionExpression: readRevision === undefined ? 'attribute_not_exists(PK)' : 'Revision = :revision',
    ...(readRevision === undefined ? {} : { ExpressionAttributeValues: { ':revision': readRevision } }),
  },
});

export const limitDelete = (operatorId: string, limit: StoredLimit): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: limitKeys.limit(operatorId, limit.LimitID),
    ConditionExpression: 'Revision = :revision',
    ExpressionAttributeValues: { ':revision': limit.Revision },
  },
});

/** A count as read: Used as decimal text, and what orders it; undefined when it does not exist. */
export interface CountReading {
  used: string;
  version: number;
}

/** Where a count is read: an item, the attribute of its Used and the attribute that orders it (a gate's Used and Version, a guard's counter and Writes). */
export interface CountRef {
  key: ItemKey;
  used: string;
  version: string;
}

const countReading = (item: Record<string, AttributeValue> | undefined, ref: CountRef): CountReading | undefined => {
  const used = item?.[ref.used]?.N;
  return used === undefined ? undefined : { used, version: Number(item?.[ref.version]?.N ?? 0) };
};

interface Projection {
  ProjectionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
}

const countProjection = (ref: CountRef): Projection => ({
  ProjectionExpression: '#used, #version',
  ExpressionAttributeNames: { '#used': ref.used, '#version': ref.version },
});

export async function getCount(ref: CountRef): Promise<CountReading | undefined> {
  const { Item } = await attributeClient().send(
    new GetItemCommand({
      TableName: tableName(),
      Key: { PK: { S: ref.key.PK }, SK: { S: ref.key.SK } },
      ConsistentRead: true,
      ...countProjection(ref),
    }),
  );
  return countReading(Item, ref);
}

/**
 * A limit's revision and a period's counts read at one instant
 * (TransactGetItems: no write lands between two of them), so that readings
 * are ordered as the writes were: by the limit's Revision, then by the sum
 * of the counts' versions. Undefined when a write in flight on one of the
 * items cancelled the read.
 */
export async function readTogether(
  limitKey: ItemKey,
  counts: CountRef[],
): Promise<{ revision: number | undefined; counts: (CountReading | undefined)[] } | undefined> {
  const get = (key: ItemKey, projection: Projection) => ({
    Get: { TableName: tableName(), Key: { PK: { S: key.PK }, SK: { S: key.SK } }, ...projection },
  });
  const revision: Projection = { ProjectionExpression: '#revision', ExpressionAttributeNames: { '#revision': 'Revision' } };
  try {
    const { Responses = [] } = await attributeClient().send(
      new TransactGetItemsCommand({
        TransactItems: [get(limitKey, revision), ...counts.map((ref) => get(ref.key, countProjection(ref)))],
      }),
    );
    const [limit, ...items] = Responses;
    const read = limit?.Item?.Revision?.N;
    return {
      revision: read === undefined ? undefined : Number(read),
      counts: items.map((response, i) => countReading(response.Item, counts[i])),
    };
  } catch (error) {
    if (transactionCancellation(error)) return undefined;
    throw error;
  }
}

/** A meter's guard in one shard as a maker of counters reads it: its Version, limits, the counters it has and how often counters were removed. */
export interface GuardCounters {
  version: number;
  limits: LimitRule[];
  counters: string[];
  pruned?: number;
}

export async function getGuardCounters(operatorId: string, shard: number, meter: string): Promise<GuardCounters | undefined> {
  const { PK, SK } = limitKeys.guard(operatorId, shard, meter);
  const { Item } = await attributeClient().send(
    new GetItemCommand({ TableName: tableName(), Key: { PK: { S: PK }, SK: { S: SK } }, ConsistentRead: true }),
  );
  if (!Item) return undefined;
  // The counters are exact decimals read as names only; the limits hold no number past JavaScript's precision.
  const { Limits } = unmarshall({ Limits: Item.Limits ?? { L: [] } }) as { Limits: LimitRule[] };
  return {
    version: Number(Item.Version?.N ?? 0),
    limits: Limits,
    counters: Object.keys(Item).filter(isCounterName),
    ...(Item.Pruned?.N === undefined ? {} : { pruned: Number(Item.Pruned.N) }),
  };
}

export async function getAlertState(key: ItemKey): Promise<AlertStateItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({
      TableName: tableName(),
      Key: key,
      ConsistentRead: true,
      ProjectionExpression: 'Crossed, Revision, #order',
      ExpressionAttributeNames: { '#order': 'Order' },
    }),
  );
  return Item as AlertStateItem | undefined;
}
