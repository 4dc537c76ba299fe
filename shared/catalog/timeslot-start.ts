import { wallClock } from '../core/calendar';

/**
 * The one rule of when a timeslot has started: at its own minute, on the
 * operator's wall clock. Availability lists only timeslots that have not
 * started; partners can book and cancel only those.
 */
export function timeslotStarted(slot: { Date: string; Time: string }, timeZone: string, now: Date): boolean {
  const { date: today, time } = wallClock(timeZone, now);
  return slot.Date < today || (slot.Date === today && slot.Time <= time);
}
