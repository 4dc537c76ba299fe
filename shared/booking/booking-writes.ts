import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../db/client';
import { bookingKeys, keys } from '../db/keys';
import type { IdempotencyRecord } from './idempotency';
import type { BookingItem } from './model';

/**
 * The transactions behind bookings. A booking takes its places with a
 * conditional update of the timeslot in the same transaction that writes the
 * booking (and the idempotency record): all of it happens, or none of it.
 * Nothing is read first: the timeslot's Vacancies counter is the guard.
 */

/** Positions of the items in a booking transaction, to read CancellationReasons by. */
export const BOOKING_TRANSACTION_ITEMS = { timeslot: 0, booking: 1, idempotency: 2 } as const;

export interface BookingWrite {
  booking: BookingItem;
  idempotency?: { keyId: string; keyHash: string; record: IdempotencyRecord; now: Date };
}

/** The TransactWriteItems input of one booking (exported so the benchmark can run the same shape bare). */
export function bookingTransaction({ booking, idempotency }: BookingWrite): TransactWriteCommandInput {
  const operatorId = booking.OperatorID;
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [
    {
      Update: {
        TableName: tableName(),
        Key: keys.timeslot(operatorId, booking.ActivityID, booking.Date, booking.Time),
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
        ExpressionAttributeValues: { ':now': Math.floor(idempotency.now.getTime() / 1000) },
      },
    });
  }
  return { TransactItems: items };
}

/** Cancels a confirmed booking and gives its places back; the status condition makes the give-back happen once. */
export function cancellationTransaction(booking: BookingItem, cancelledAt: string): TransactWriteCommandInput {
  const operatorId = booking.OperatorID;
  return {
    TransactItems: [
      {
        Update: {
          TableName: tableName(),
          Key: bookingKeys.booking(operatorId, booking.BookingReference),
          UpdateExpression: 'SET #status = :cancelled, CancelledAt = :cancelledAt',
          ConditionExpression: '#status = :confirmed',
          ExpressionAttributeNames: { '#status': 'Status' },
          ExpressionAttributeValues: { ':cancelled': 'CANCELLED', ':confirmed': 'CONFIRMED', ':cancelledAt': cancelledAt },
        },
      },
      {
        Update: {
          TableName: tableName(),
          Key: keys.timeslot(operatorId, booking.ActivityID, booking.Date, booking.Time),
          UpdateExpression: 'SET Booked = Booked - :participants, Vacancies = Vacancies + :participants',
          ConditionExpression: 'attribute_exists(PK)',
          ExpressionAttributeValues: { ':participants': booking.Participants },
        },
      },
    ],
  };
}
