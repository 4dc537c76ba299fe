import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { queryDueItems } from '../db/due-work';
import * as changeKeys from '../db/change-keys';
import * as dueKeys from '../db/due-keys';
import { transactionCancellation } from '../db/transaction-errors';
import type { FeedEntryItem, ProductAnnouncementItem, TimeslotAnnouncementItem } from './model';

/** One function per access pattern of what partners hear of changes; see the README's access-pattern table. */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

type SlotKeyFields = Pick<TimeslotAnnouncementItem, 'OperatorID' | 'ActivityID' | 'Date' | 'Time'>;

const announcementKey = (state: SlotKeyFields) =>
  changeKeys.timeslotAnnouncement(state.OperatorID, state.ActivityID, state.Date, state.Time);

export async function getTimeslotAnnouncement(slot: SlotKeyFields): Promise<TimeslotAnnouncementItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: announcementKey(slot), ConsistentRead: true }),
  );
  return Item as TimeslotAnnouncementItem | undefined;
}

/**
 * The Put of a timeslot's next record, only over the version it was decided
 * from (`readVersion`, 0: none yet) and only if the stream has handed over
 * no change above `seenSequence` while a flush waited (the decision would
 * not cover it).
 */
function announcementPut(next: TimeslotAnnouncementItem, readVersion: number, seenSequence: number): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...announcementKey(next),
        ...(next.FlushAt ? dueKeys.announcementFlush(next.FlushAt, next.OperatorID, next.ActivityID, next.Date, next.Time) : {}),
        Entity: 'TimeslotAnnouncement',
        ...next,
      },
      ...(readVersion
        ? {
            ConditionExpression: 'Version = :read AND (attribute_not_exists(Pending) OR Pending <= :seen)',
            ExpressionAttributeValues: { ':read': readVersion, ':seen': seenSequence },
          }
        : { ConditionExpression: 'attribute_not_exists(PK)' }),
    },
  };
}

/** Writes a timeslot's next record decided from `readVersion` and a timeslot at `seenSequence`; false when either moved since. */
export async function putTimeslotAnnouncement(next: TimeslotAnnouncementItem, readVersion: number, seenSequence: number): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand(announcementPut(next, readVersion, seenSequence).Put as ConstructorParameters<typeof PutCommand>[0]),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/**
 * Notes a change the stream handed over while the timeslot's flush waits
 * (the record at `readVersion`, still waiting): Pending rises to `sequence`,
 * the Version stays. False when the record moved (the flush was made).
 */
export async function markPending(slot: SlotKeyFields, readVersion: number, sequence: number): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: announcementKey(slot),
        UpdateExpression: 'SET Pending = :sequence',
        ConditionExpression: 'Version = :read AND attribute_exists(FlushAt) AND (attribute_not_exists(Pending) OR Pending < :sequence)',
        ExpressionAttributeValues: { ':read': readVersion, ':sequence': sequence },
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}

/** A feed shard's position: how many announcements it has had (consistent). */
export async function getFeedPosition(operatorId: string, shard: number): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: changeKeys.feedPosition(operatorId, shard), ConsistentRead: true }),
  );
  return (Item?.Position as number | undefined) ?? 0;
}

/** How an announcement's transaction ended: written, or refused because the timeslot's record or the shard's position moved. */
export type CommitOutcome = 'done' | 'record-moved' | 'position-moved';

/**
 * One announcement, all or nothing: the timeslot's next record (over the
 * version read), its feed shard's position one on (over the position read),
 * the timeslot's entry at that position and its previous entry removed. The
 * position is taken under a condition in the transaction that writes the
 * entry, so positions follow commit order: a reader that has read a shard up
 * to a position has seen every entry that will ever be below it.
 */
export async function commitAnnouncement(write: {
  next: TimeslotAnnouncementItem;
  readVersion: number;
  entry: FeedEntryItem;
  shard: number;
  readPosition: number;
  previousPosition?: number;
}): Promise<CommitOutcome> {
  const { next, readVersion, entry, shard, readPosition, previousPosition } = write;
  const operatorId = next.OperatorID;
  const items: TransactItem[] = [
    announcementPut(next, readVersion, entry.Sequence),
    {
      Put: {
        TableName: tableName(),
        Item: { ...changeKeys.feedPosition(operatorId, shard), Entity: 'ChangesPosition', Position: entry.Position },
        ConditionExpression: readPosition ? '#position = :read' : 'attribute_not_exists(PK)',
        ...(readPosition
          ? { ExpressionAttributeNames: { '#position': 'Position' }, ExpressionAttributeValues: { ':read': readPosition } }
          : {}),
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...changeKeys.feedEntry(operatorId, shard, entry.Position), Entity: 'ChangesEntry', ...entry },
      },
    },
  ];
  if (previousPosition) items.push({ Delete: { TableName: tableName(), Key: changeKeys.feedEntry(operatorId, shard, previousPosition) } });
  try {
    await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
    return 'done';
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    return cancellation.conditionFailed(0) ? 'record-moved' : 'position-moved';
  }
}

/** Up to `limit` entries of a feed shard after `position`, in position order (consistent: nothing committed below the last is missed). */
export async function queryFeed(
  operatorId: string,
  shard: number,
  position: number,
  limit: number,
): Promise<{ entries: FeedEntryItem[]; more: boolean }> {
  const { PK, SKFrom, SKTo } = changeKeys.feedAfter(operatorId, shard, position);
  const { Items, LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': PK, ':from': SKFrom, ':to': SKTo },
      ConsistentRead: true,
      Limit: limit,
    }),
  );
  return { entries: (Items ?? []) as FeedEntryItem[], more: LastEvaluatedKey !== undefined };
}

/** Timeslots whose trailing flush was due at `nowIso` or before and is still waiting, oldest first. */
export const queryDueFlushes = (nowIso: string, limit: number): Promise<TimeslotAnnouncementItem[]> =>
  queryDueItems<TimeslotAnnouncementItem>('FLUSH', nowIso, limit);

export async function getProductAnnouncement(operatorId: string, activityId: string): Promise<ProductAnnouncementItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: changeKeys.productAnnouncement(operatorId, activityId), ConsistentRead: true }),
  );
  return Item as ProductAnnouncementItem | undefined;
}

/** Writes a product's next record over the version read (0: none yet); false when it moved meanwhile. */
export async function putProductAnnouncement(
  operatorId: string,
  activityId: string,
  next: ProductAnnouncementItem,
  readVersion: number,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...changeKeys.productAnnouncement(operatorId, activityId), Entity: 'ProductAnnouncement', ...next },
        ConditionExpression: readVersion ? 'Version = :read' : 'attribute_not_exists(PK)',
        ...(readVersion ? { ExpressionAttributeValues: { ':read': readVersion } } : {}),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
