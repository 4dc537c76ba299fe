import { addDays, clockReaches, skippedBy, zonedInstant, zonedIso, zonedIsoAt } from '../core/calendar';
import { ValidationError } from '../core/errors';
import type { OpeningHours } from './schemas';

/**
 * A timeslot's local date and time is one instant (calendar.ts's rule: a
 * time that happens twice is its first occurrence); its start as shown to
 * partners (through either API), its end, the moment it closes for sale and every
 * "has it started" check derive from that instant. A day ticket's `00:00`
 * is the day's first instant, where the clock resumes on a day whose
 * midnight the clocks skip.
 */
type Slot = { Date: string; Time: string; OpeningHours?: OpeningHours };

/**
 * The instant (epoch ms) at which a timeslot closes for sale: its start, or
 * where the wall clock reaches the end of a day ticket's last opening range
 * (opening hours are ranges of the wall clock: an end the clocks skip is
 * where they resume, clockReaches).
 */
const closingInstant = (slot: Slot, timeZone: string): number =>
  slot.OpeningHours?.length
    ? clockReaches(slot.Date, slot.OpeningHours[slot.OpeningHours.length - 1].To, timeZone)
    : zonedInstant(slot.Date, slot.Time, timeZone);

/** The instant (UTC) at which a timeslot closes for sale. */
export const closesAt = (slot: Slot, timeZone: string): Date => new Date(closingInstant(slot, timeZone));

/**
 * The one rule of when a timeslot closes for sale: at its start, or, for a
 * day ticket, at the end of its last opening range. Availability lists only
 * timeslots that have not closed; partners can book, move and cancel only those.
 */
export const timeslotStarted = (slot: Slot, timeZone: string, now: Date): boolean => closingInstant(slot, timeZone) <= now.getTime();

/** When a timeslot starts, ISO 8601 on the operator's wall clock with the offset of that instant. */
export const slotStart = (slot: { Date: string; Time: string }, timeZone: string): string => zonedIso(slot.Date, slot.Time, timeZone);

/**
 * When a timeslot's activity ends, ISO 8601 with the offset of that moment:
 * its start plus the activity's duration in elapsed time (a 60-minute
 * activity lasts 60 minutes across a change of the clocks), or, for a day
 * ticket, the next day's first instant.
 */
export function slotEnd(slot: Slot, durationMinutes: number, timeZone: string): string {
  if (slot.OpeningHours?.length) return zonedIso(addDays(slot.Date, 1), '00:00', timeZone);
  return zonedIsoAt(zonedInstant(slot.Date, slot.Time, timeZone) + durationMinutes * 60_000, timeZone);
}

/**
 * Refuses a timeslot that would start at a time the clocks skip on its date
 * (02:30 on the night they go from 02:00 to 03:00): it names no instant. A
 * time that happens twice is accepted (its first occurrence). `field` names
 * the input at fault: `Time` for a request, the entry for a catalogue file.
 */
export function checkTimeslotTime(slot: { Date: string; Time: string }, timeZone: string, field = 'Time'): void {
  const skip = skippedBy(slot.Date, slot.Time, timeZone);
  if (!skip) return;
  throw new ValidationError(
    `is ${slot.Time}, a time that does not exist on ${slot.Date} in ${timeZone}: the clocks go from ${skip.from} to ${skip.to}`,
    { field, subject: 'timeslot' },
  );
}
