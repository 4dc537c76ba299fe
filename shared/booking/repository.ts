import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { batchGet } from '../db/batch';
import { documentClient, tableName } from '../db/client';
import { queryDueItems } from '../db/due-work';
import * as bookingKeys from '../db/booking-keys';
import * as keys from '../db/keys';
import type { ItemKey } from '../db/keys';
import { queryAll, queryItemPages } from '../db/query-pages';
import type { ProductItem, TimeslotItem } from '../catalog/model';
import { GSI1, GSI2, GSI4 } from '../db/table-design';
import { rawNumber, transactionCancellation, type TransactionCancellation } from '../db/transaction-errors';
import type { HeldPlacesChange } from './held-places';
import { resellerReferencePrefix } from './booking-indexes';
import type { Channel } from './constants';
import type { BookingItem, IdempotencyRecord } from './model';
import {
  TRANSITION_BOOKING_ITEM,
  bookingTransaction,
  type BookingWrite,
  type ChangeTransaction,
  type HeldPlacesCheck,
} from './transactions';

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

/** Keeps what a key's request answered, unless a live record of the key is there already (a simultaneous retry wrote it). */
export async function putIdempotencyRecord(
  operatorId: string,
  key: { keyId: string; keyHash: string },
  record: IdempotencyRecord,
  now: Date,
): Promise<void> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...bookingKeys.idempotencyRecord(operatorId, key.keyId, key.keyHash), Entity: 'IdempotencyRecord', ...record },
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
        ExpressionAttributeValues: { ':now': unixSeconds(now) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
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
  return queryAll<BookingItem>({
    TableName: tableName(),
    IndexName: GSI2,
    KeyConditionExpression: SKPrefix ? 'GSI2PK = :pk AND begins_with(GSI2SK, :prefix)' : 'GSI2PK = :pk',
    ExpressionAttributeValues: { ':pk': GSI2PK, ...(SKPrefix ? { ':prefix': SKPrefix } : {}) },
  });
}

/** One page of the live bookings of one timeslot, by the manifest's index (eventually consistent), after `startKey`. */
export async function queryTimeslotBookings(
  slot: { operatorId: string; activityId: string; date: string; time: string },
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<{ items: BookingItem[]; nextKey?: Record<string, unknown> }> {
  const { GSI2PK, SKPrefix } = bookingKeys.manifestRange(slot.operatorId, slot.date, slot.activityId, slot.time);
  const { Items, LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI2,
      KeyConditionExpression: 'GSI2PK = :pk AND begins_with(GSI2SK, :prefix)',
      ExpressionAttributeValues: { ':pk': GSI2PK, ':prefix': SKPrefix },
      Limit: limit,
      ExclusiveStartKey: startKey,
    }),
  );
  return { items: (Items ?? []) as BookingItem[], nextKey: LastEvaluatedKey };
}

/** A cancellation of one timeslot with its bookings, by the instant it started. */
export interface TimeslotCancellationKey {
  operatorId: string;
  activityId: string;
  date: string;
  time: string;
  startedAt: string;
}

const cancellationRecordKey = (at: TimeslotCancellationKey) =>
  keys.timeslotCancellation(at.operatorId, at.activityId, at.date, at.time, at.startedAt);

/** Notes the bookings a timeslot's cancellation is about to cancel, before it does: its answer finds them after any stop. */
export async function noteCancelling(cancellation: TimeslotCancellationKey, references: string[]): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: cancellationRecordKey(cancellation),
      UpdateExpression: 'SET Entity = :entity ADD #references :references',
      ExpressionAttributeNames: { '#references': 'References' },
      ExpressionAttributeValues: { ':entity': 'TimeslotCancellation', ':references': new Set(references) },
    }),
  );
}

/** The bookings a timeslot's cancellation noted (consistent). */
export async function cancellingNoted(cancellation: TimeslotCancellationKey): Promise<string[]> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: cancellationRecordKey(cancellation), ConsistentRead: true }),
  );
  return [...((Item?.References as Set<string> | undefined) ?? [])];
}

/** Up to `limit` holds whose HoldExpiresAt is `nowIso` or earlier, oldest first. */
export const queryExpiredHolds = (nowIso: string, limit: number): Promise<BookingItem[]> =>
  queryDueItems<BookingItem>('HOLD', nowIso, limit);

/** Why a timeslot gave no places, read from its image when the condition failed: missing, closed, or too few left. */
export type SlotRefusal = { missing: true } | { closed: true } | { vacancies: number };

const slotRefusal = (old: ReturnType<TransactionCancellation['oldItem']>): SlotRefusal => {
  if (!old) return { missing: true };
  if (old.Closed?.BOOL) return { closed: true };
  return { vacancies: rawNumber(old, 'Vacancies') };
};

export type BookingWriteOutcome =
  | { outcome: 'written' }
  | { outcome: 'no-room'; refusal: SlotRefusal }
  | { outcome: 'reference-taken' }
  | { outcome: 'uuid-taken' }
  | { outcome: 'idempotency-key-taken' }
  | { outcome: 'hold-cap'; change: HeldPlacesChange; held: number }
  | { outcome: 'contended' };

/** The first counter of a key's held places whose condition refused the transaction, with the places it counted then. */
function heldPlacesRefusal(cancellation: TransactionCancellation, checks: HeldPlacesCheck[]) {
  const refused = checks.find((check) => cancellation.conditionFailed(check.position));
  return (
    refused && { outcome: 'hold-cap' as const, change: refused.change, held: rawNumber(cancellation.oldItem(refused.position), 'Places') }
  );
}

/** Runs the booking transaction and says which condition, if any, stopped it. */
export async function writeBooking(write: BookingWrite): Promise<BookingWriteOutcome> {
  const { input, at } = bookingTransaction(write);
  try {
    await documentClient().send(new TransactWriteCommand(input));
    return { outcome: 'written' };
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    const failed = (position: number | undefined) => position !== undefined && cancellation.conditionFailed(position);
    if (failed(at.idempotency)) return { outcome: 'idempotency-key-taken' };
    // Before the timeslot: a UUID taken by a simultaneous request with it is a replay, whether or not the timeslot has room now.
    if (failed(at.uuid)) return { outcome: 'uuid-taken' };
    if (failed(at.booking)) return { outcome: 'reference-taken' };
    if (failed(at.timeslot)) {
      return { outcome: 'no-room', refusal: slotRefusal(cancellation.oldItem(at.timeslot)) };
    }
    const capped = heldPlacesRefusal(cancellation, at.heldPlaces);
    if (capped) return capped;
    if (cancellation.retryable) return { outcome: 'contended' };
    throw error;
  }
}

/**
 * Runs a change of a booking (confirmation, cancellation, expiry, a move, ...): 'refused' when the booking is no
 * longer as it was read (its version or status condition failed), 'no-room' when the timeslot it takes places on
 * gave none (too few left, closed, or missing).
 */
export type TransitionOutcome =
  | { outcome: 'done' }
  | { outcome: 'refused' }
  | { outcome: 'contended' }
  | { outcome: 'no-room'; refusal: SlotRefusal }
  | { outcome: 'hold-cap'; change: HeldPlacesChange; held: number };

export async function writeTransition({ input, takesAt, heldPlaces }: ChangeTransaction): Promise<TransitionOutcome> {
  try {
    await documentClient().send(new TransactWriteCommand(input));
    return { outcome: 'done' };
  } catch (error) {
    const cancellation = transactionCancellation(error);
    if (!cancellation) throw error;
    if (cancellation.conditionFailed(TRANSITION_BOOKING_ITEM)) return { outcome: 'refused' };
    if (takesAt !== undefined && cancellation.conditionFailed(takesAt)) {
      return { outcome: 'no-room', refusal: slotRefusal(cancellation.oldItem(takesAt)) };
    }
    const capped = heldPlacesRefusal(cancellation, heldPlaces);
    if (capped) return capped;
    if (cancellation.retryable) return { outcome: 'contended' };
    throw error;
  }
}

/** The references of a partner key's UUID bookings that carry its own reference `resellerReference` (consistent). */
export async function queryResellerReference(operatorId: string, keyId: string, resellerReference: string): Promise<string[]> {
  const { PK, SKPrefix } = resellerReferencePrefix(operatorId, keyId, resellerReference);
  const items = await queryAll<{ BookingReference: string }>({
    TableName: tableName(),
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
    ExpressionAttributeValues: { ':pk': PK, ':prefix': SKPrefix },
    ProjectionExpression: 'BookingReference',
    ConsistentRead: true,
  });
  return items.map((item) => item.BookingReference);
}

/** A partner key's UUID bookings whose timeslot day is from `firstDate` to `lastDate`, optionally of one activity, up to `limit`. */
export async function queryPartnerDays(
  operatorId: string,
  keyId: string,
  range: { firstDate: string; lastDate: string; activityId?: string },
  limit: number,
): Promise<BookingItem[]> {
  const { GSI4PK, SKFrom, SKTo } = bookingKeys.partnerDayRange(operatorId, keyId, range.firstDate, range.lastDate);
  const items: BookingItem[] = [];
  await queryItemPages<BookingItem>(
    {
      TableName: tableName(),
      IndexName: GSI4,
      KeyConditionExpression: 'GSI4PK = :pk AND GSI4SK BETWEEN :from AND :to',
      ...(range.activityId ? { FilterExpression: 'ActivityID = :activity' } : {}),
      ExpressionAttributeValues: {
        ':pk': GSI4PK,
        ':from': SKFrom,
        ':to': SKTo,
        ...(range.activityId ? { ':activity': range.activityId } : {}),
      },
    },
    (page) => {
      items.push(...page);
      // Once past `limit`, no further page is read.
      return items.length <= limit;
    },
  );
  return items;
}

/** A first read of a partner's UUID: its index item, and the booking at the first reference it would have had while references were derived. */
export interface UuidRead {
  operatorId: string;
  keyId: string;
  uuid: string;
  derived: string;
}

export interface UuidItems {
  index?: { BookingReference: string };
  derived?: BookingItem;
}

const uuidKeys = (read: UuidRead) => ({
  index: bookingKeys.uuidEntry(read.operatorId, read.keyId, read.uuid),
  derived: bookingKeys.booking(read.operatorId, read.derived),
});

/** Items by key in one BatchGetItem (consistent), each under the name it was asked by; missing ones are left out. */
async function getNamed<T extends Record<string, unknown>>(what: string, wanted: Record<string, ItemKey>): Promise<Partial<T>> {
  const byKey = new Map(Object.entries(wanted).map(([name, key]) => [`${key.PK}|${key.SK}`, name]));
  const found: Record<string, unknown> = {};
  await batchGet(what, Object.values(wanted), {}, (item) => {
    found[byKey.get(`${item.PK}|${item.SK}`) as string] = item;
  });
  return found as Partial<T>;
}

/** What finds a booking by a partner's UUID, in one round trip. */
export const getUuidItems = (read: UuidRead): Promise<UuidItems> =>
  getNamed<Required<UuidItems>>("Reading a UUID's booking", uuidKeys(read));

/**
 * What a reservation reads before its transaction, in one BatchGetItem (consistent): the product, the
 * timeslot and, for a partner's UUID, what finds the booking it may already name.
 */
export const getReservationItems = (
  operatorId: string,
  activityId: string,
  slot: { Date: string; Time: string } | undefined,
  uuid: UuidRead | undefined,
): Promise<{ product?: ProductItem; timeslot?: TimeslotItem } & UuidItems> =>
  getNamed("Reading a reservation's product, timeslot and booking", {
    product: keys.product(operatorId, activityId),
    ...(slot ? { timeslot: keys.timeslot(operatorId, activityId, slot.Date, slot.Time) } : {}),
    ...(uuid ? uuidKeys(uuid) : {}),
  });

/** Bookings by reference, strongly consistent, in no particular order; missing ones are left out. */
export async function getBookings(operatorId: string, references: string[]): Promise<BookingItem[]> {
  const items: BookingItem[] = [];
  await batchGet(
    'Reading bookings',
    references.map((reference) => bookingKeys.booking(operatorId, reference)),
    {},
    (item) => items.push(item as unknown as BookingItem),
  );
  return items;
}
