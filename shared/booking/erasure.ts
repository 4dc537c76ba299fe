import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../core/config';
import { retentionDays as retentionPeriod } from './retention';
import { ConflictError, InvalidRequestError, NotFoundError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { tableName } from '../db/client';
import { queryDueItems } from '../db/due-work';
import * as bookingKeys from '../db/booking-keys';
import type { WebhookEvent } from '../webhooks/model';
import { getDeliveries, payloadUpdate } from '../webhooks/repository';
import type { Change } from './lifecycle';
import { toBooking, type BookingItem } from './model';
import { customerEmail, holdsPersonalData, scrubbedRecord, withoutPersonalData, type ErasedBy } from './personal-data';
import { normaliseReference } from './reference';
import { deleteCustomerEntry, queryCustomerBookings, writeGuarded } from './personal-data-repository';
import { getBooking, getIdempotencyRecord } from './repository';
import type { Booking } from './schemas';
import { changeTransaction, changed } from './transactions';

/**
 * Erasing a booking's personal data (personal-data.ts): one transaction
 * changes the booking, conditioned on the version it was read at like every
 * change of a booking, and rewrites every copy of its record kept beside it
 * (the stored answer of its Idempotency-Key, its webhook deliveries'
 * payloads) and removes the item that finds it by its customer's email.
 * Its index entries follow the booking (all attributes are projected).
 * A booking that holds no personal data is left as it is, so erasing twice
 * changes nothing.
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** How many of a customer's bookings one erasure by email erases at most (`limit`), and by default. */
export const ERASURE_PAGE = { default: 25, max: 100 } as const;

export interface ErasureResult {
  /** The bookings erased (or found holding nothing personal), as they are now. */
  bookings: Booking[];
  /** More of the customer's bookings are left: the same request goes on with them. */
  more: boolean;
}

/** An erasure moves no booking in its life: whatever its status, as long as it is as read (its version). */
const whateverItsStatus = (at: string): Change => ({ condition: 'attribute_exists(#status)', values: {}, at });

const holdsPersonalRecord = (record: Booking) => record.Customer !== undefined || record.Answers !== undefined;

/** The updates of the copies of a booking's record that still hold its personal data: its stored answer and its deliveries' payloads. */
async function copiesScrubbed(item: BookingItem, at: string): Promise<TransactItem[]> {
  const [record, deliveries] = await Promise.all([
    item.IdempotencyKeyHash && item.PartnerKeyID
      ? getIdempotencyRecord(item.OperatorID, item.PartnerKeyID, item.IdempotencyKeyHash)
      : undefined,
    item.DeliveryIDs?.length ? getDeliveries(item.OperatorID, item.DeliveryIDs) : [],
  ]);
  const updates: TransactItem[] = [];
  const answer = record && (JSON.parse(record.Response) as Booking);
  if (answer && holdsPersonalRecord(answer)) {
    updates.push({
      Update: {
        TableName: tableName(),
        Key: bookingKeys.idempotencyRecord(item.OperatorID, item.PartnerKeyID as string, item.IdempotencyKeyHash as string),
        UpdateExpression: 'SET #response = :response',
        ConditionExpression: 'attribute_exists(PK)',
        ExpressionAttributeNames: { '#response': 'Response' },
        ExpressionAttributeValues: { ':response': JSON.stringify(scrubbedRecord(answer, at)) },
      },
    });
  }
  for (const delivery of deliveries) {
    const event = JSON.parse(delivery.Payload) as WebhookEvent & { data: Booking };
    if (holdsPersonalRecord(event.data))
      updates.push(payloadUpdate(delivery, JSON.stringify({ ...event, data: scrubbedRecord(event.data, at) })));
  }
  return updates;
}

export interface EraseOptions {
  now: Date;
  by: ErasedBy;
  /** Reads the booking afresh, after a lost race. */
  reread: () => Promise<BookingItem>;
}

/** Erases one booking's personal data and every copy of it; `erased` is false when it held none. */
export async function eraseBooking(item: BookingItem, options: EraseOptions): Promise<{ item: BookingItem; erased: boolean }> {
  let current = item;
  const at = options.now.toISOString();
  return retrying('The erasure', async () => {
    if (!holdsPersonalData(current) && current.RequestHash === undefined) return { item: current, erased: false };
    const next = changed(current, withoutPersonalData(current, at, options.by), at);
    const { input } = changeTransaction(current, next, whateverItsStatus(at));
    input.TransactItems?.push(...(await copiesScrubbed(current, at)));
    if ((await writeGuarded(input)) === 'done') {
      countBusinessEvent('Bookings', 'erased', current.OperatorID);
      return { item: next, erased: true };
    }
    current = await options.reread();
    return RETRY;
  });
}

const bookingOf = (operatorId: string, reference: string) => async () => {
  const item = await getBooking(operatorId, normaliseReference(reference));
  if (!item) throw new NotFoundError(`No booking has reference '${reference}'`);
  return item;
};

/** What an erasure request names: one booking by its reference, or every booking of one customer by email. */
export interface ErasureRequest {
  BookingReference?: string;
  Email?: string;
}

/**
 * The operator erases a customer's personal data: of one booking, or of
 * every booking of the customer an email names, `limit` at a time (the
 * request sent again goes on with the rest, since the erased ones are no
 * longer found by the email).
 */
export async function erasePersonalData(
  operatorId: string,
  request: ErasureRequest,
  limit: number = ERASURE_PAGE.default,
  now: Date = config().clock(),
): Promise<ErasureResult> {
  if ((request.BookingReference === undefined) === (request.Email === undefined)) {
    throw new InvalidRequestError('Give exactly one of BookingReference and Email');
  }
  if (request.BookingReference !== undefined) {
    const read = bookingOf(operatorId, request.BookingReference);
    const { item } = await eraseBooking(await read(), { now, by: 'operator', reread: read });
    return { bookings: [toBooking(item)], more: false };
  }
  const email = request.Email as string;
  const references = await queryCustomerBookings(operatorId, email, limit + 1);
  const erased = await Promise.all(references.slice(0, limit).map((reference) => eraseCustomerBooking(operatorId, reference, email, now)));
  return { bookings: erased.filter((booking) => booking !== undefined), more: references.length > limit };
}

const sameEmail = (a: string | undefined, b: string) => a?.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * One booking an email found: erased only while it holds that email (read
 * consistently, and held to it by the erasure's version condition), so that
 * an entry left behind never erases another customer's booking; an entry
 * that no longer matches its booking is removed, or the next request would find it again.
 */
async function eraseCustomerBooking(operatorId: string, reference: string, email: string, now: Date): Promise<Booking | undefined> {
  const read = bookingOf(operatorId, reference);
  const item = await read();
  if (!sameEmail(customerEmail(item), email)) {
    await deleteCustomerEntry(operatorId, email, reference);
    return undefined;
  }
  const reread = async () => {
    const again = await read();
    if (!sameEmail(customerEmail(again), email))
      throw new ConflictError(`Booking '${reference}' changed its customer while it was being erased; send the request again`);
    return again;
  };
  return toBooking((await eraseBooking(item, { now, by: 'operator', reread })).item);
}

/**
 * The retention sweep: anonymises the personal data of every booking whose
 * activity ended `retentionDays` or more ago, up to `pageSize` × `maxPages`
 * bookings a run (the rest are due at the next run). Returns how many it erased.
 */
export async function anonymiseDueBookings(
  now: Date = config().clock(),
  { retentionDays = retentionPeriod(), pageSize = 100, maxPages = 10 } = {},
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  let count = 0;
  for (let page = 0; page < maxPages; page += 1) {
    const due = await queryDueItems<BookingItem>('RETENTION', cutoff, pageSize);
    const results = await Promise.all(
      due.map((item) => eraseBooking(item, { now, by: 'retention', reread: bookingOf(item.OperatorID, item.BookingReference) })),
    );
    const erased = results.filter((result) => result.erased).length;
    count += erased;
    // A short page is the end; a page of nothing erasable is the index catching up with erasures already made.
    if (due.length < pageSize || erased === 0) break;
  }
  return count;
}
