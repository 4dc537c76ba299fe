import { GetCommand, QueryCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { queryDueItems } from '../db/due-work';
import { bookingKeys } from '../db/keys';
import { GSI1, GSI2 } from '../db/table-design';
import { rawNumber, transactionCancellation } from '../db/transaction-errors';
import type { BookingItem, Channel, IdempotencyRecord } from './model';
import { BOOKING_TRANSACTION_ITEMS, TRANSITION_BOOKING_ITEM, bookingTransaction, type BookingWrite } from './transactions';

/** One function per booking access pattern; see the README's access-pattern table. */

export async function getBooking(operatorId: string, reference: string): Promise<BookingItem | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(operatorId, reference), ConsistentRead: true }),
  );
  return Item as BookingItem | undefined;
}

export async function getIdempotencyRecord(operatorId: string, keyId: string, keyHash: string): Promise<IdempotencyRecord | undefined> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: bookingKeys.idempotencyRecord(operatorId, keyId, keyHash), ConsistentRead: true }),
  );
  return Item as IdempotencyRecord | undefined;
}

export interface BookingPage {
  items: BookingItem[];
  /** GSI1SK of the last item read, when the range may hold more. */
  lastSortKey?: string;
}

/**
 * One page of an operator's bookings created within [fromIso, toIso], newest
 * first, optionally of one channel. `limit` counts items read before the
 * channel filter, so a filtered page may be short.
 */
export async function queryBookingsCreatedBetween(
  operatorId: string,
  range: { fromIso: string; toIso: string },
  options: { limit: number; channel?: Channel; afterSortKey?: string },
): Promise<BookingPage> {
  const { GSI1PK, SKFrom, SKTo } = bookingKeys.bookingListRange(operatorId, range.fromIso, range.toIso);
  const startAfter = options.afterSortKey;
  const { Items, LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: 'GSI1PK = :pk AND GSI1SK BETWEEN :from AND :to',
      ...(options.channel ? { FilterExpression: 'Channel = :channel' } : {}),
      ExpressionAttributeValues: {
        ':pk': GSI1PK,
        ':from': SKFrom,
        ':to': SKTo,
        ...(options.channel ? { ':channel': options.channel } : {}),
      },
      ScanIndexForward: false,
      Limit: options.limit,
      ...(startAfter ? { ExclusiveStartKey: bookingKeys.bookingListStartKey(operatorId, startAfter) } : {}),
    }),
  );
  return { items: (Items ?? []) as BookingItem[], lastSortKey: LastEvaluatedKey?.GSI1SK as string | undefined };
}

/** Every live (held or confirmed) booking of one timeslot day, of every activity or of one, in index order. */
export async function queryManifest(operatorId: string, date: string, activityId?: string): Promise<BookingItem[]> {
  const { GSI2PK, SKPrefix } = bookingKeys.manifestRange(operatorId, date, activityId);
  const items: BookingItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const { Items, LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: GSI2,
        KeyConditionExpression: SKPrefix ? 'GSI2PK = :pk AND begins_with(GSI2SK, :prefix)' : 'GSI2PK = :pk',
        ExpressionAttributeValues: { ':pk': GSI2PK, ...(SKPrefix ? { ':prefix': SKPrefix } : {}) },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...((Items ?? []) as BookingItem[]));
    startKey = LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Up to `limit` holds whose HoldExpiresAt is `nowIso` or earlier, oldest first. */
export const queryExpiredHolds = (nowIso: string, limit: number): Promise<BookingItem[]> =>
  queryDueItems<BookingItem>('HOLD', nowIso, limit);

export type BookingWriteOutcome =
  | { outcome: 'written' }
  | { outcome: 'timeslot-missing' }
  | { outcome: 'timeslot-full'; vacancies: number }
  | { outcome: 'reference-taken' }
  | { outcome: 'idempotency-key-taken' }
  | { outcome: 'contended' };

/** Runs the booking transaction and says which condition, if any, stopped it. */
export async function writeBooking(write: BookingWrite): Promise<BookingWriteOutcome> {
  try {
    await documentClient().send(new TransactWriteCommand(bookingTransaction(write)));
    return { outcome: 'written' };
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    if (cancellation.conditionFailed(BOOKING_TRANSACTION_ITEMS.idempotency)) return { outcome: 'idempotency-key-taken' };
    if (cancellation.conditionFailed(BOOKING_TRANSACTION_ITEMS.timeslot)) {
      const old = cancellation.oldItem(BOOKING_TRANSACTION_ITEMS.timeslot);
      if (!old) return { outcome: 'timeslot-missing' };
      return { outcome: 'timeslot-full', vacancies: rawNumber(old, 'Vacancies') };
    }
    if (cancellation.conditionFailed(BOOKING_TRANSACTION_ITEMS.booking)) return { outcome: 'reference-taken' };
    if (cancellation.retryable) return { outcome: 'contended' };
    throw error;
  }
}

/** Runs a transition (confirmation, cancellation, expiry); 'refused' when the booking's status condition failed. */
export type TransitionOutcome = 'done' | 'refused' | 'contended';

export async function writeTransition(transaction: TransactWriteCommandInput): Promise<TransitionOutcome> {
  try {
    await documentClient().send(new TransactWriteCommand(transaction));
    return 'done';
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    if (cancellation.conditionFailed(TRANSITION_BOOKING_ITEM)) return 'refused';
    if (cancellation.retryable) return 'contended';
    throw error;
  }
}
