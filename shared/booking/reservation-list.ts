import { getTimeslots } from '../catalog/repository';
import type { Caller } from '../core/caller';
import { InvalidRequestError, ValidationError } from '../core/errors';
import type { BookingItem } from './model';
import { normaliseReference } from './reference';
import { PARTNER_CHANNEL } from './constants';
import { getBooking, getBookings, queryPartnerDays, queryResellerReference } from './repository';
import type { ReservationState } from './reservations';

/**
 * A partner's reservations found by its filters: a reference, its own
 * reference, or days of timeslots, optionally of one activity.
 */

/** Bookings listed per request at most: a narrower filter lists the rest. */
export const MAX_LISTED_BOOKINGS = 1000;

export interface ReservationFilter {
  /** The booking's reference (OCTo's supplierReference). */
  reference?: string;
  resellerReference?: string;
  /** Timeslot days, both included. */
  days?: { from: string; to: string };
  activityId?: string;
}

/**
 * A partner's reservations that match every filter given, by timeslot then
 * reference: found by the most selective one (a reference is one read, the
 * partner's reference a consistent query, days an index query), the others
 * applied to what it found.
 */
export async function listReservations(caller: Caller, filter: ReservationFilter): Promise<ReservationState[]> {
  const own = (item: BookingItem | undefined): item is BookingItem =>
    item !== undefined && item.UUID !== undefined && item.PartnerKeyID === caller.keyId && item.Channel === PARTNER_CHANNEL;
  let items: BookingItem[];
  if (filter.reference !== undefined) {
    items = [await getBooking(caller.operatorId, normaliseReference(filter.reference))].filter(own);
  } else if (filter.resellerReference !== undefined) {
    items = (
      await getBookings(caller.operatorId, await queryResellerReference(caller.operatorId, caller.keyId, filter.resellerReference))
    ).filter(own);
  } else if (filter.days) {
    items = await queryPartnerDays(
      caller.operatorId,
      caller.keyId,
      { firstDate: filter.days.from, lastDate: filter.days.to, activityId: filter.activityId },
      MAX_LISTED_BOOKINGS,
    );
  } else {
    throw new InvalidRequestError('Give at least one of the filters: a reference, the partner reference, or a day or range of days');
  }
  const matching = items.filter(
    (item) =>
      (filter.resellerReference === undefined || item.ResellerReference === filter.resellerReference) &&
      (filter.days === undefined || (item.Date >= filter.days.from && item.Date <= filter.days.to)) &&
      (filter.activityId === undefined || item.ActivityID === filter.activityId),
  );
  if (matching.length > MAX_LISTED_BOOKINGS) {
    throw new ValidationError(`matches more than ${MAX_LISTED_BOOKINGS} bookings; narrow the range of days`, { field: 'Days' });
  }
  matching.sort((a, b) => a.StartsAt.localeCompare(b.StartsAt) || a.BookingReference.localeCompare(b.BookingReference));
  const slots = await getTimeslots(
    caller.operatorId,
    matching.map((item) => ({ activityId: item.ActivityID, date: item.Date, time: item.Time })),
  );
  return matching.map((item) => ({ item, slot: slots.get(`${item.ActivityID}#${item.Date}#${item.Time}`) }));
}
