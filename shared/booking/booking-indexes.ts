import { createHash } from 'node:crypto';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { tableName } from '../db/client';
import * as bookingKeys from '../db/booking-keys';
import * as dueKeys from '../db/due-keys';
import type { ItemKey } from '../db/keys';
import type { BookingItem } from './model';
import { customerEmail, emailHash, holdsPersonalData } from './personal-data';

/**
 * What finds a booking besides its own key, kept in step by the
 * transactions of its life (transactions.ts): the index entries it carries
 * (the operator's list, its day's manifest while it is live, the due index
 * while it is held or while its personal data waits out the retention
 * period, a partner's days), and the items beside it (its UUID, the
 * partner's own reference, its customer's email).
 */

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export const manifestEntry = (booking: BookingItem) =>
  bookingKeys.manifestEntry(booking.OperatorID, booking.Date, booking.ActivityID, booking.Time, booking.BookingReference);

/**
 * The booking's entry on the due index: its expiry while it is held (the
 * hold sweep), else the end of its activity while it holds personal data
 * (the retention sweep); none once neither is due.
 */
export function dueEntry(booking: BookingItem): { GSI3PK: string; GSI3SK: string } | undefined {
  if (booking.Status === 'ON_HOLD' && booking.HoldExpiresAt) {
    return dueKeys.holdExpiry(booking.HoldExpiresAt, booking.OperatorID, booking.BookingReference);
  }
  if (!holdsPersonalData(booking)) return undefined;
  const ends = new Date(booking.EndsAt ?? booking.StartsAt).toISOString();
  return dueKeys.retention(ends, booking.OperatorID, booking.BookingReference);
}

/** A partner's UUID booking (OCTo) is listed by its key and timeslot day for its whole life. */
export const partnerDayEntry = (booking: BookingItem) =>
  booking.UUID && booking.PartnerKeyID
    ? bookingKeys.partnerDay(
        booking.OperatorID,
        booking.PartnerKeyID,
        booking.Date,
        booking.ActivityID,
        booking.Time,
        booking.BookingReference,
      )
    : undefined;

const referenceHash = (reference: string) => createHash('sha256').update(reference, 'utf8').digest('hex');

export const resellerReferencePrefix = (operatorId: string, keyId: string, reference: string) =>
  bookingKeys.resellerReferencePrefix(operatorId, keyId, referenceHash(reference));

export const customerPrefix = (operatorId: string, email: string) => bookingKeys.customerPrefix(operatorId, emailHash(email));

/** An item beside a booking that names it: found by something the booking holds, and changed when that changes. */
interface BesideItem {
  key: ItemKey;
  entity: string;
}

/** The items beside a booking as it is: the partner's own reference of a UUID booking, and its customer's email. */
export function besideItems(booking: BookingItem): BesideItem[] {
  const items: BesideItem[] = [];
  const { OperatorID: operatorId, BookingReference: reference } = booking;
  if (booking.UUID && booking.PartnerKeyID && booking.ResellerReference) {
    const key = bookingKeys.resellerReferenceEntry(operatorId, booking.PartnerKeyID, referenceHash(booking.ResellerReference), reference);
    items.push({ key, entity: 'ResellerReference' });
  }
  const email = customerEmail(booking);
  if (email) items.push({ key: bookingKeys.customerEntry(operatorId, emailHash(email), reference), entity: 'CustomerBooking' });
  return items;
}

export const besidePut = (booking: BookingItem, item: BesideItem): TransactItem => ({
  Put: { TableName: tableName(), Item: { ...item.key, Entity: item.entity, BookingReference: booking.BookingReference } },
});

/** The item that finds a partner's UUID booking by its UUID: written with it, and only if no booking of the key has that UUID yet. */
export const uuidEntryPut = (booking: BookingItem): TransactItem | undefined =>
  booking.UUID && booking.PartnerKeyID
    ? {
        Put: {
          TableName: tableName(),
          Item: {
            ...bookingKeys.uuidEntry(booking.OperatorID, booking.PartnerKeyID, booking.UUID),
            Entity: 'BookingUuid',
            BookingReference: booking.BookingReference,
          },
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      }
    : undefined;
