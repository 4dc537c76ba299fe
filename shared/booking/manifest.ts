import { timeslotStatus } from '../catalog/availability';
import type { TimeslotItem } from '../catalog/model';
import { queryProductNames, queryTimeslots } from '../catalog/repository';
import { slotStart } from '../catalog/timeslot-start';
import type { Caller } from '../core/caller';
import { ValidationError } from '../core/errors';
import { isLive } from './lifecycle';
import { toBooking, type BookingItem } from './model';
import type { BookingsQuery, Manifest, ManifestTimeslot } from './schemas';
import { queryManifest } from './repository';

/**
 * The operator's manifest: who is coming on one day (the timeslots' own day,
 * in the operator's time zone), of every channel, by timeslot in order of
 * start time (then activity name), and within a timeslot by the customer's
 * last and first name. Every timeslot of the day is listed, with its
 * capacity, what is left and whether (why, by whom, since when) it is
 * closed, those nobody booked too. Held and confirmed bookings are listed;
 * cancelled and expired ones are not, since their places are free again.
 */
const text = (value: string | undefined) => value ?? '\uffff';

/** A booking without a customer yet (a hold) comes after the named ones. */
const byCustomer = (a: BookingItem, b: BookingItem) =>
  text(a.Customer?.LastName).localeCompare(text(b.Customer?.LastName)) ||
  text(a.Customer?.FirstName).localeCompare(text(b.Customer?.FirstName)) ||
  a.BookingReference.localeCompare(b.BookingReference);

/** One timeslot of the day, and the activity it belongs to. */
export interface DaySlot {
  activityId: string;
  activityName: string;
  slot: TimeslotItem;
}

/** The closing of a timeslot as the manifest shows it: closed or not, and while closed why, by whom and since when. */
const closingOf = (slot: TimeslotItem) => ({
  Closed: slot.Closed === true,
  ...(slot.Closed && slot.ClosedReason ? { ClosedReason: slot.ClosedReason } : {}),
  ...(slot.Closed && slot.ClosedBy ? { ClosedBy: slot.ClosedBy, ClosedAt: slot.ClosedAt } : {}),
});

export function buildManifest(date: string, items: BookingItem[], daySlots: DaySlot[], timeZone: string): Manifest {
  const bookings = new Map<string, BookingItem[]>();
  for (const item of items) {
    const slot = `${item.ActivityID}#${item.Time}`;
    bookings.set(slot, [...(bookings.get(slot) ?? []), item]);
  }
  const slots = new Map(daySlots.map((day) => [`${day.activityId}#${day.slot.Time}`, day]));
  // A live booking always holds places on a timeslot that exists (its transaction's condition); one read after a
  // booking that the index already lists is kept as it is read.
  for (const [key, [first]] of bookings) {
    if (slots.has(key)) continue;
    const taken = (bookings.get(key) ?? []).reduce((total, booking) => total + booking.Participants, 0);
    slots.set(key, {
      activityId: first.ActivityID,
      activityName: first.ActivityName,
      slot: { Date: date, Time: first.Time, Capacity: taken, Booked: taken, Vacancies: 0 },
    });
  }
  const timeslots = [...slots.entries()].map(([key, { activityId, activityName, slot }]): ManifestTimeslot => {
    const listed = bookings.get(key) ?? [];
    const sum = (list: BookingItem[]) => list.reduce((total, booking) => total + booking.Participants, 0);
    return {
      ActivityID: activityId,
      ActivityName: activityName,
      Time: slot.Time,
      StartsAt: slotStart(slot, timeZone),
      Capacity: slot.Capacity,
      Vacancies: Math.max(0, slot.Vacancies),
      Status: timeslotStatus(slot),
      ...closingOf(slot),
      Participants: sum(listed),
      HeldParticipants: sum(listed.filter((booking) => booking.Status === 'ON_HOLD')),
      Bookings: [...listed].sort(byCustomer).map(toBooking),
    };
  });
  timeslots.sort(
    (a, b) => a.Time.localeCompare(b.Time) || a.ActivityName.localeCompare(b.ActivityName) || a.ActivityID.localeCompare(b.ActivityID),
  );
  return { Date: date, Participants: timeslots.reduce((total, slot) => total + slot.Participants, 0), Timeslots: timeslots };
}

/** Every timeslot of the day, of every activity of the operator (hidden ones too) or of one. */
async function timeslotsOfDay(operatorId: string, date: string, activityId?: string): Promise<DaySlot[]> {
  const products = (await queryProductNames(operatorId)).filter((product) => !activityId || product.ActivityID === activityId);
  const perProduct = await Promise.all(
    products.map(async (product) =>
      (await queryTimeslots(operatorId, product.ActivityID, date, date, { whole: true })).map((slot) => ({
        activityId: product.ActivityID,
        activityName: product.Name,
        slot,
      })),
    ),
  );
  return perProduct.flat();
}

export async function operatorManifest(
  caller: Pick<Caller, 'operatorId' | 'timeZone'>,
  date: string,
  activityId?: string,
): Promise<Manifest> {
  const [items, daySlots] = await Promise.all([
    queryManifest(caller.operatorId, date, activityId),
    timeslotsOfDay(caller.operatorId, date, activityId),
  ]);
  // The index holds live bookings only; the status filter guards against an entry the index has not yet dropped.
  const live = items.filter(isLive);
  return buildManifest(date, live, daySlots, caller.timeZone);
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
