import { addDays, wallClock, zonedInstant, zonedIso, zonedIsoAt } from '../core/calendar';
import type { OpeningHours } from './schemas';

/**
 * The one rule of when a timeslot closes for sale: at its own minute, on the
 * operator's wall clock, or, for a day ticket, at the end of its last opening
 * range. Availability lists only timeslots that have not closed; partners can
 * book, move and cancel only those.
 */
export function timeslotStarted(slot: { Date: string; Time: string; OpeningHours?: OpeningHours }, timeZone: string, now: Date): boolean {
  const { date: today, time } = wallClock(timeZone, now);
  return slot.Date < today || (slot.Date === today && closingTime(slot) <= time);
}

/** The local time at which a timeslot closes for sale: its start, or a day ticket's last closing. */
export const closingTime = (slot: { Time: string; OpeningHours?: OpeningHours }): string =>
  slot.OpeningHours?.length ? slot.OpeningHours[slot.OpeningHours.length - 1].To : slot.Time;

/**
 * When a timeslot's activity ends, ISO 8601 with the offset of that moment:
 * its start plus the activity's duration, or, for a day ticket, the next midnight.
 */
export function slotEnd(
  slot: { Date: string; Time: string; OpeningHours?: OpeningHours },
  durationMinutes: number,
  timeZone: string,
): string {
  if (slot.OpeningHours?.length) return zonedIso(addDays(slot.Date, 1), '00:00', timeZone);
  return zonedIsoAt(zonedInstant(slot.Date, slot.Time, timeZone) + durationMinutes * 60_000, timeZone);
}

/** The instant (UTC) at which a timeslot closes for sale. */
export const closesAt = (slot: { Date: string; Time: string; OpeningHours?: OpeningHours }, timeZone: string): Date =>
  new Date(zonedInstant(slot.Date, closingTime(slot), timeZone));
