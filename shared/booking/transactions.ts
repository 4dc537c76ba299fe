import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unixSeconds } from '../core/clock';
import { tableName } from '../db/client';
import { bookingKeys, dueKeys, keys } from '../db/keys';
import type { DeliveryItem } from '../webhooks/model';
import { deliveryPut } from '../webhooks/repository';
import type { CancelledBy } from './schemas';
import type { BookingItem, IdempotencyRecord } from './model';

/**
 * The transactions of a booking's life. Places are taken with a conditional
 * update of the timeslot in the same transaction that writes the booking,
 * and given back in the same transaction that moves the booking out of
 * ON_HOLD or CONFIRMED: the status condition makes each happen once, however
 * many requests and sweeps race. Nothing is read first. An event for the
 * partner (a webhook delivery) is written in the transaction of its change.
 */

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

/** Positions of the items in a booking transaction, to read a cancellation by. */
export const BOOKING_TRANSACTION_ITEMS = { timeslot: 0, booking: 1, idempotency: 2 } as const;
/** The booking's update comes first in every transition. */
export const TRANSITION_BOOKING_ITEM = 0;

export interface BookingWrite {
  booking: BookingItem;
  idempotency?: { keyId: string; keyHash: string; record: IdempotencyRecord; now: Date };
}

/** A live booking is on its day's manifest; a hold is also due for expiry. */
function liveIndexEntries(booking: BookingItem) {
  return {
    ...bookingKeys.manifestEntry(booking.OperatorID, booking.Date, booking.ActivityID, booking.Time, booking.BookingReference),
    ...(booking.Status === 'ON_HOLD' && booking.HoldExpiresAt
      ? dueKeys.holdExpiry(booking.HoldExpiresAt, booking.OperatorID, booking.BookingReference)
      : {}),
  };
}

const timeslotKey = (booking: BookingItem) => keys.timeslot(booking.OperatorID, booking.ActivityID, booking.Date, booking.Time);

/** The TransactWriteItems input of one new booking, held or confirmed (exported so the benchmark can run the same shape bare). */
export function bookingTransaction({ booking, idempotency }: BookingWrite): TransactWriteCommandInput {
  const operatorId = booking.OperatorID;
  const items: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: timeslotKey(booking),
        UpdateExpression: 'SET Booked = Booked + :participants, Vacancies = Vacancies - :participants',
        ConditionExpression: 'attribute_exists(PK) AND Vacancies >= :participants',
        ExpressionAttributeValues: { ':participants': booking.Participants },
        // Tells a missing timeslot from a full one, and says how full, without another read.
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: {
          ...bookingKeys.booking(operatorId, booking.BookingReference),
          ...bookingKeys.bookingListEntry(operatorId, booking.CreatedAt, booking.BookingReference),
          ...liveIndexEntries(booking),
          Entity: 'Booking',
          ...booking,
        },
        ConditionExpression: 'attribute_not_exists(PK)',
      },
    },
  ];
  if (idempotency) {
    items.push({
      Put: {
        TableName: tableName(),
        Item: {
          ...bookingKeys.idempotencyRecord(operatorId, idempotency.keyId, idempotency.keyHash),
          Entity: 'IdempotencyRecord',
          ...idempotency.record,
        },
        // A record that has expired but not yet been swept by TTL no longer holds its key.
        ConditionExpression: 'attribute_not_exists(PK) OR ExpiresAt <= :now',
        ExpressionAttributeValues: { ':now': unixSeconds(idempotency.now) },
      },
    });
  }
  return { TransactItems: items };
}

const withDelivery = (items: TransactItems, delivery?: DeliveryItem): TransactWriteCommandInput => ({
  TransactItems: delivery ? [...items, deliveryPut(delivery)] : items,
});

/** What a confirmation sets: the hold's details, completed by the confirmation. */
export type Confirmation = Pick<BookingItem, 'WaiverStatus' | 'Customer' | 'Answers' | 'PaymentReference'> & { ConfirmedAt: string };

/** ON_HOLD → CONFIRMED, only while the hold has not expired at `now`. */
export function confirmationTransaction(
  booking: BookingItem,
  confirmation: Confirmation,
  now: Date,
  delivery?: DeliveryItem,
): TransactWriteCommandInput {
  const set: Record<string, unknown> = {
    ':confirmed': 'CONFIRMED',
    ':confirmedAt': confirmation.ConfirmedAt,
    ':waiver': confirmation.WaiverStatus,
    ':customer': confirmation.Customer,
    ...(confirmation.Answers ? { ':answers': confirmation.Answers } : {}),
    ...(confirmation.PaymentReference ? { ':payment': confirmation.PaymentReference } : {}),
  };
  const assignments = [
    '#status = :confirmed',
    'ConfirmedAt = :confirmedAt',
    'WaiverStatus = :waiver',
    'Customer = :customer',
    ...(confirmation.Answers ? ['Answers = :answers'] : []),
    ...(confirmation.PaymentReference ? ['PaymentReference = :payment'] : []),
  ];
  return withDelivery(
    [
      {
        Update: {
          TableName: tableName(),
          Key: bookingKeys.booking(booking.OperatorID, booking.BookingReference),
          UpdateExpression: `SET ${assignments.join(', ')} REMOVE GSI3PK, GSI3SK`,
          ConditionExpression: '#status = :held AND HoldExpiresAt > :now',
          ExpressionAttributeNames: { '#status': 'Status' },
          ExpressionAttributeValues: { ...set, ':held': 'ON_HOLD', ':now': now.toISOString() },
        },
      },
    ],
    delivery,
  );
}

export type Release = { to: 'CANCELLED'; at: string; by: CancelledBy; reason?: string } | { to: 'EXPIRED'; at: string };

/**
 * Gives a booking's places back as it leaves the live statuses: cancelled
 * (held or confirmed) or expired (held, at or after its HoldExpiresAt).
 */
export function releaseTransaction(booking: BookingItem, release: Release, delivery?: DeliveryItem): TransactWriteCommandInput {
  const cancelled = release.to === 'CANCELLED';
  const values: Record<string, unknown> = cancelled
    ? {
        ':to': 'CANCELLED',
        ':at': release.at,
        ':by': release.by,
        ':held': 'ON_HOLD',
        ':confirmed': 'CONFIRMED',
        ...(release.reason ? { ':reason': release.reason } : {}),
      }
    : { ':to': 'EXPIRED', ':at': release.at, ':held': 'ON_HOLD' };
  const set = cancelled
    ? `#status = :to, CancelledAt = :at, CancelledBy = :by${release.reason ? ', CancellationReason = :reason' : ''}`
    : '#status = :to, ExpiredAt = :at';
  return withDelivery(
    [
      {
        Update: {
          TableName: tableName(),
          Key: bookingKeys.booking(booking.OperatorID, booking.BookingReference),
          UpdateExpression: `SET ${set} REMOVE GSI2PK, GSI2SK, GSI3PK, GSI3SK`,
          ConditionExpression: cancelled ? '#status IN (:held, :confirmed)' : '#status = :held AND HoldExpiresAt <= :at',
          ExpressionAttributeNames: { '#status': 'Status' },
          ExpressionAttributeValues: values,
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: timeslotKey(booking),
          UpdateExpression: 'SET Booked = Booked - :participants, Vacancies = Vacancies + :participants',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':participants': booking.Participants },
        },
      },
    ],
    delivery,
  );
}
