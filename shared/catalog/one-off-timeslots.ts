import { ValidationError } from '../core/errors';
import { DAY_TICKET_TIME } from './constants';
import type { OpeningHours } from './schemas';

/**
 * A one-off timeslot (the catalogue file's and the operator's additions) and
 * the row of the table it becomes. Its own rules import no schema and no
 * validator, so the operator's timeslot routes check an addition without
 * loading the catalogue file's.
 */

/** A one-off timeslot as the catalogue file and the operator's additions give it. */
export interface OneOffTimeslot {
  Date: string;
  Time?: string;
  OpeningHours?: OpeningHours;
  Capacity: number;
}

export interface SlotRow {
  Date: string;
  Time: string;
  Capacity: number;
  /** Day tickets: the hours of that day. */
  OpeningHours?: OpeningHours;
}

/** A day ticket's opening ranges (`field` names them): each before its To, and in order without overlapping. */
export function checkOpeningHours(field: string, hours: OpeningHours): void {
  hours.forEach((range, position) => {
    if (range.From >= range.To) throw new ValidationError('must be before To', { field: `${field}[${position}].From` });
    if (position > 0 && range.From < hours[position - 1].To) {
      throw new ValidationError('must not be before the To of the range before it', { field: `${field}[${position}].From` });
    }
  });
}

/** A one-off timeslot (`field` names it) fits its product: a Time for start-time products, OpeningHours for day tickets, never both. */
export function checkOneOffTimeslot(dayTicket: boolean, slot: OneOffTimeslot, field: string): void {
  const [wanted, unwanted] = dayTicket ? (['OpeningHours', 'Time'] as const) : (['Time', 'OpeningHours'] as const);
  if (slot[wanted] === undefined) throw new ValidationError('is required', { field: `${field}.${wanted}` });
  if (slot[unwanted] !== undefined) {
    throw new ValidationError(`is not allowed: ${dayTicket ? 'a day ticket opens for hours' : 'give Time'}`, {
      field: `${field}.${unwanted}`,
    });
  }
  if (slot.OpeningHours) checkOpeningHours(`${field}.OpeningHours`, slot.OpeningHours);
}

/** The row of a one-off timeslot: at its Time, or a day ticket's day at DAY_TICKET_TIME with its hours. */
export const oneOffRow = (slot: OneOffTimeslot): SlotRow =>
  slot.OpeningHours
    ? { Date: slot.Date, Time: DAY_TICKET_TIME, Capacity: slot.Capacity, OpeningHours: slot.OpeningHours }
    : { Date: slot.Date, Time: slot.Time as string, Capacity: slot.Capacity };
