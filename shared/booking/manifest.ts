import { ValidationError } from '../core/errors';
import { toBooking, type BookingItem } from './model';
import type { BookingsQuery, Manifest, ManifestTimeslot } from './schemas';
import { queryManifest } from './repository';

/**
 * The operator's manifest: who is coming on one day (the timeslots' own day,
 * in the operator's time zone), of every channel, grouped by timeslot in
 * order of start time (then activity name), and within a timeslot by the
 * customer's last and first name. Held and confirmed bookings are listed;
 * cancelled and expired ones are not, since their places are free again.
 */
const text = (value: string | undefined) => value ?? '\uffff';

/** A booking without a customer yet (a hold) comes after the named ones. */
const byCustomer = (a: BookingItem, b: BookingItem) =>
  text(a.Customer?.LastName).localeCompare(text(b.Customer?.LastName)) ||
  text(a.Customer?.FirstName).localeCompare(text(b.Customer?.FirstName)) ||
  a.BookingReference.localeCompare(b.BookingReference);

export function buildManifest(date: string, items: BookingItem[]): Manifest {
  const slots = new Map<string, BookingItem[]>();
  for (const item of items) {
    const slot = `${item.ActivityID}#${item.Time}`;
    slots.set(slot, [...(slots.get(slot) ?? []), item]);
  }
  const timeslots = [...slots.values()].map((bookings): ManifestTimeslot => {
    const [first] = bookings;
    const sum = (list: BookingItem[]) => list.reduce((total, booking) => total + booking.Participants, 0);
    return {
      ActivityID: first.ActivityID,
      ActivityName: first.ActivityName,
      Time: first.Time,
      StartsAt: first.StartsAt,
      Participants: sum(bookings),
      HeldParticipants: sum(bookings.filter((booking) => booking.Status === 'ON_HOLD')),
      Bookings: [...bookings].sort(byCustomer).map(toBooking),
    };
  });
  timeslots.sort(
    (a, b) => a.Time.localeCompare(b.Time) || a.ActivityName.localeCompare(b.ActivityName) || a.ActivityID.localeCompare(b.ActivityID),
  );
  return { Date: date, Participants: timeslots.reduce((total, slot) => total + slot.Participants, 0), Timeslots: timeslots };
}

export async function operatorManifest(operatorId: string, date: string, activityId?: string): Promise<Manifest> {
  // The index holds live bookings only; the status filter guards against an entry the index has not yet dropped.
  const items = (await queryManifest(operatorId, date, activityId)).filter(
    (item) => item.Status === 'ON_HOLD' || item.Status === 'CONFIRMED',
  );
  return buildManifest(date, items);
}

/** What GET /api/v2/bookings asks for: the manifest of a day, or the list by creation day. */
export type BookingsQueryKind =
  { manifest: { date: string }; list?: undefined } | { list: BookingsQuery & { from: string; to: string }; manifest?: undefined };

/** The list endpoint takes either a manifest day (`date`, `activity`) or a creation range (`from`, `to`, ...), never both. */
export function queryKind(query: BookingsQuery): BookingsQueryKind {
  const listParameters = (['from', 'to', 'channel', 'cursor', 'limit'] as const).filter((name) => query[name] !== undefined);
  if (query.date !== undefined) {
    if (listParameters.length) {
      throw new ValidationError(
        `(the manifest of a day) cannot be combined with ${listParameters.map((name) => `'${name}'`).join(', ')} (the list by creation day)`,
        { field: 'date' },
      );
    }
    return { manifest: { date: query.date } };
  }
  if (query.activity !== undefined) throw new ValidationError("filters the manifest only: give 'date' with it", { field: 'activity' });
  const { from, to } = query;
  if (from === undefined) throw new ValidationError("is required (or give 'date' for the manifest of a day)", { field: 'from' });
  if (to === undefined) throw new ValidationError("is required (or give 'date' for the manifest of a day)", { field: 'to' });
  return { list: { ...query, from, to } };
}
