import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../db/client';
import { bookingKeys } from '../db/keys';
import { GSI1 } from '../db/table-design';
import type { IdempotencyRecord } from './idempotency';
import type { BookingItem, Channel } from './model';
import { BOOKING_TRANSACTION_ITEMS, bookingTransaction, cancellationTransaction, type BookingWrite } from './booking-writes';

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
      ExpressionAttributeValues: { ':pk': GSI1PK, ':from': SKFrom, ':to': SKTo, ...(options.channel ? { ':channel': options.channel } : {}) },
      ScanIndexForward: false,
      Limit: options.limit,
      ...(startAfter ? { ExclusiveStartKey: bookingKeys.bookingListStartKey(operatorId, startAfter) } : {}),
    }),
  );
  return { items: (Items ?? []) as BookingItem[], lastSortKey: LastEvaluatedKey?.GSI1SK as string | undefined };
}

export type BookingWriteOutcome =
  | { outcome: 'written' }
  | { outcome: 'timeslot-missing' }
  | { outcome: 'timeslot-full'; vacancies: number }
  | { outcome: 'reference-taken' }
  | { outcome: 'idempotency-key-taken' }
  | { outcome: 'contended' };

type CancellationReason = NonNullable<TransactionCanceledException['CancellationReasons']>[number];

const failed = (reasons: CancellationReason[], index: number) => reasons[index]?.Code === 'ConditionalCheckFailed';

/** The raw (wire-format) number of an ALL_OLD item, which the document client does not convert inside errors. */
const rawNumber = (item: CancellationReason['Item'], name: string) => Number(item?.[name]?.N);

/** Runs the booking transaction and says which condition, if any, stopped it. */
export async function writeBooking(write: BookingWrite): Promise<BookingWriteOutcome> {
  try {
    await documentClient().send(new TransactWriteCommand(bookingTransaction(write)));
    return { outcome: 'written' };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    if (failed(reasons, BOOKING_TRANSACTION_ITEMS.idempotency)) return { outcome: 'idempotency-key-taken' };
    if (failed(reasons, BOOKING_TRANSACTION_ITEMS.timeslot)) {
      const old = reasons[BOOKING_TRANSACTION_ITEMS.timeslot].Item;
      if (!old) return { outcome: 'timeslot-missing' };
      return { outcome: 'timeslot-full', vacancies: rawNumber(old, 'Vacancies') };
    }
    if (failed(reasons, BOOKING_TRANSACTION_ITEMS.booking)) return { outcome: 'reference-taken' };
    if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return { outcome: 'contended' };
    throw error;
  }
}

/** 'cancelled' when this call cancelled the booking; 'not-confirmed' when it was no longer confirmed. */
export async function writeCancellation(booking: BookingItem, cancelledAt: string): Promise<'cancelled' | 'not-confirmed' | 'contended'> {
  try {
    await documentClient().send(new TransactWriteCommand(cancellationTransaction(booking, cancelledAt)));
    return 'cancelled';
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const reasons = error.CancellationReasons ?? [];
    if (failed(reasons, 0)) return 'not-confirmed';
    if (reasons.some((reason) => reason.Code === 'TransactionConflict')) return 'contended';
    throw error;
  }
}
