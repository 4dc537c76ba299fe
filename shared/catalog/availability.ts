import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { checkDayRange } from '../core/day-range';
import { requireActivity } from './products';
import type { AvailabilityStatus, TimeslotItem } from './model';
import type { AvailableDate, AvailableTimeslot } from './schemas';
import { getTimeslots, queryTimeslots } from './repository';
import type { ProductItem } from './model';
import { NotFoundError } from '../core/errors';
import { slotStart, timeslotStarted } from './timeslot-start';

/** The longest StartDate..EndDate span the dates endpoint accepts, both ends included. */
export const MAX_DATE_RANGE_DAYS = 92;

/** A slot is LIMITED once no more than this share of its capacity is left. */
const LIMITED_SHARE = 0.2;

/** The status of a date or timeslot that has room, as the availability lists show it. */
const roomStatus = (vacancies: number, capacity: number): AvailableDate['Status'] =>
  vacancies <= capacity * LIMITED_SHARE ? 'LIMITED' : 'AVAILABLE';

/** The places a timeslot has for sale: none while closed, never fewer than none (a capacity cut below what was booked). */
export const vacanciesOf = (slot: Pick<TimeslotItem, 'Vacancies' | 'Closed'>) => (slot.Closed ? 0 : Math.max(0, slot.Vacancies));

/**
 * The one status of a timeslot, whoever shows it (the marketplace, OCTo,
 * the operator's day, the events partners hear): CLOSED while the operator
 * has closed it, SOLD_OUT once fewer than `places` are left (a party of one
 * unless said), else by the share of its capacity left.
 */
export const timeslotStatus = (slot: Pick<TimeslotItem, 'Vacancies' | 'Capacity' | 'Closed'>, places = 1): AvailabilityStatus => {
  if (slot.Closed) return 'CLOSED';
  const vacancies = vacanciesOf(slot);
  return vacancies < Math.max(1, places) ? 'SOLD_OUT' : roomStatus(vacancies, slot.Capacity);
};

/** Timeslots that have not started yet in the operator's time zone and still have room (a closed one has none). */
function bookable(slots: TimeslotItem[], timeZone: string, now: Date): TimeslotItem[] {
  return slots.filter((slot) => !timeslotStarted(slot, timeZone, now) && vacanciesOf(slot) > 0);
}

export const checkDateRange = (startDate: string, endDate: string): number =>
  checkDayRange({ name: 'StartDate', date: startDate }, { name: 'EndDate', date: endDate }, MAX_DATE_RANGE_DAYS);

export function summariseDates(slots: TimeslotItem[], timeZone: string, now: Date): AvailableDate[] {
  const open = bookable(slots, timeZone, now);
  const byDate = new Map<string, TimeslotItem[]>();
  for (const slot of open) byDate.set(slot.Date, [...(byDate.get(slot.Date) ?? []), slot]);
  return [...byDate.entries()].map(([date, daySlots]) => {
    const vacancies = daySlots.reduce((sum, slot) => sum + vacanciesOf(slot), 0);
    const capacity = daySlots.reduce((sum, slot) => sum + slot.Capacity, 0);
    return {
      Date: date,
      Status: roomStatus(vacancies, capacity),
      Vacancies: vacancies,
      Capacity: capacity,
      AvailableTimeslots: daySlots.length,
    };
  });
}

export function summariseTimeslots(slots: TimeslotItem[], timeZone: string, now: Date): AvailableTimeslot[] {
  return bookable(slots, timeZone, now).map((slot) => ({
    Date: slot.Date,
    Time: slot.Time,
    StartsAt: slotStart(slot, timeZone),
    Status: roomStatus(vacanciesOf(slot), slot.Capacity),
    Vacancies: vacanciesOf(slot),
    Capacity: slot.Capacity,
    ...(slot.OpeningHours ? { OpeningHours: slot.OpeningHours } : {}),
  }));
}

export async function listAvailableDates(
  caller: Caller,
  activityId: string,
  startDate: string,
  endDate: string,
  now: Date = config().clock(),
): Promise<AvailableDate[]> {
  checkDateRange(startDate, endDate);
  const [, slots] = await Promise.all([
    requireActivity(caller, activityId),
    queryTimeslots(caller.operatorId, activityId, startDate, endDate),
  ]);
  return summariseDates(slots, caller.timeZone, now);
}

export async function listAvailableTimeslots(
  caller: Caller,
  activityId: string,
  date: string,
  now: Date = config().clock(),
): Promise<AvailableTimeslot[]> {
  const [, slots] = await Promise.all([requireActivity(caller, activityId), queryTimeslots(caller.operatorId, activityId, date, date)]);
  return summariseTimeslots(slots, caller.timeZone, now);
}

/** The longest span of days the OCTo availability and calendar take, both ends included. */
export const MAX_AVAILABILITY_DAYS = 366;

export interface ProductSlots {
  product: ProductItem;
  /** Open for sale (not closed), in date and time order, sold-out ones included. */
  slots: TimeslotItem[];
}

/** A visible product's timeslots from `from` to `to` that are still open for sale, full ones included. */
export async function openTimeslots(
  caller: Caller,
  activityId: string,
  range: { from: string; to: string; names: [string, string] },
  options: { check?: (product: ProductItem) => void; now?: Date } = {},
): Promise<ProductSlots> {
  const now = options.now ?? config().clock();
  checkDayRange({ name: range.names[0], date: range.from }, { name: range.names[1], date: range.to }, MAX_AVAILABILITY_DAYS);
  const [product, slots] = await Promise.all([
    requireActivity(caller, activityId),
    queryTimeslots(caller.operatorId, activityId, range.from, range.to),
  ]);
  options.check?.(product);
  return { product, slots: slots.filter((slot) => !timeslotStarted(slot, caller.timeZone, now)) };
}

/**
 * A visible product's timeslots named one by one (`id` is how the request
 * named each, echoed when one is refused): each must exist and be open for sale.
 */
export async function namedTimeslots(
  caller: Caller,
  activityId: string,
  wanted: { id: string; slot?: { Date: string; Time: string } }[],
  options: { check?: (product: ProductItem) => void; now?: Date } = {},
): Promise<ProductSlots> {
  const now = options.now ?? config().clock();
  const named = wanted.map(({ slot }) => slot).filter((slot) => slot !== undefined);
  const [product, found] = await Promise.all([
    requireActivity(caller, activityId),
    getTimeslots(
      caller.operatorId,
      named.map((slot) => ({ activityId, date: slot.Date, time: slot.Time })),
    ),
  ]);
  options.check?.(product);
  const slots = wanted.map(({ id, slot }) => {
    const item = slot && found.get(`${activityId}#${slot.Date}#${slot.Time}`);
    if (!item || timeslotStarted(item, caller.timeZone, now)) {
      throw new NotFoundError(`is not a timeslot of activity ${activityId} open for sale`, { subject: 'timeslot', value: id });
    }
    return item;
  });
  return { product, slots };
}
