import { timeslotStatus } from '../catalog/availability';
import { checkOneOffTimeslot, oneOffRow } from '../catalog/one-off-timeslots';
import type { ProductItem, TimeslotItem } from '../catalog/model';
import { activityNotFound } from '../catalog/products';
import { getProduct, queryTimeslots } from '../catalog/repository';
import { addTimeslots, CancellationInProgressError, changeTimeslot } from '../catalog/timeslot-changes';
import { checkTimeslotTime, slotStart } from '../catalog/timeslot-start';
import type { ChangeMark, OperatorChange } from '../catalog/timeslot-writes';
import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import { RETRY, retrying } from '../core/retry';
import { queryManifest } from './repository';
import type { AddTimeslots, DateChange, OperatorTimeslot, TimeslotChange } from './timeslot-schemas';

/**
 * The operator's timeslots: its view of one activity's day (capacity,
 * places booked and held, status, and who closed or changed what and when)
 * and its changes to them, for its own activities only (another operator's
 * are unknown to it). Each change of a timeslot is one conditional write
 * (catalog/timeslot-changes.ts); cancelling a timeslot with its bookings is
 * in timeslot-cancellation.ts.
 */

/** Who changes an operator's timeslots: the operator, its time zone, and the API key's ID (or `admin` for the admin CLI). */
export interface TimeslotEditor {
  operatorId: string;
  timeZone: string;
  by: string;
}

export const editorOf = (caller: Caller): TimeslotEditor => ({
  operatorId: caller.operatorId,
  timeZone: caller.timeZone,
  by: caller.keyId,
});

const markOf = (editor: TimeslotEditor, now: Date): ChangeMark => ({ by: editor.by, at: now.toISOString() });

/** Any of the operator's own products, hidden ones included. */
async function requireOwnActivity(operatorId: string, activityId: string): Promise<ProductItem> {
  const product = await getProduct(operatorId, activityId);
  if (!product) throw activityNotFound(activityId);
  return product;
}

/** The places held (not yet confirmed) on each timeslot of one activity's day, by time, as the manifest lists them. */
export async function heldPlaces(operatorId: string, activityId: string, date: string): Promise<Map<string, number>> {
  const held = new Map<string, number>();
  for (const booking of await queryManifest(operatorId, date, activityId)) {
    if (booking.Status === 'ON_HOLD') held.set(booking.Time, (held.get(booking.Time) ?? 0) + booking.Participants);
  }
  return held;
}

/** A timeslot as its operator sees it; `held` is the places of its holds (part of what the timeslot counts as taken). */
export function toOperatorTimeslot(activityId: string, slot: TimeslotItem, held: number, timeZone: string): OperatorTimeslot {
  const taken = Math.max(0, slot.Booked);
  const holds = Math.min(held, taken);
  const cancellation = slot.Cancellation;
  return {
    ActivityID: activityId,
    Date: slot.Date,
    Time: slot.Time,
    StartsAt: slotStart(slot, timeZone),
    ...(slot.OpeningHours ? { OpeningHours: slot.OpeningHours } : {}),
    Capacity: slot.Capacity,
    Booked: taken - holds,
    Held: holds,
    Vacancies: Math.max(0, slot.Vacancies),
    Status: timeslotStatus(slot),
    Closed: slot.Closed === true,
    ...(slot.Closed && slot.ClosedReason ? { ClosedReason: slot.ClosedReason } : {}),
    ...(slot.Closed && slot.ClosedBy ? { ClosedBy: slot.ClosedBy, ClosedAt: slot.ClosedAt } : {}),
    ...(slot.ReopenedBy ? { ReopenedBy: slot.ReopenedBy, ReopenedAt: slot.ReopenedAt } : {}),
    ...(slot.CapacityChangedBy ? { CapacityChangedBy: slot.CapacityChangedBy, CapacityChangedAt: slot.CapacityChangedAt } : {}),
    ...(slot.AddedBy ? { AddedBy: slot.AddedBy, AddedAt: slot.AddedAt } : {}),
    ...(cancellation
      ? {
          Cancellation: {
            Reason: cancellation.Reason,
            By: cancellation.By,
            StartedAt: cancellation.StartedAt,
            Complete: cancellation.FinishedAt !== undefined,
            ...(cancellation.FinishedAt ? { FinishedAt: cancellation.FinishedAt } : {}),
          },
        }
      : {}),
  };
}

/** GET /api/v2/timeslots/{ActivityID}?date=: every timeslot of the day, in time order. */
export async function operatorDay(editor: Pick<TimeslotEditor, 'operatorId' | 'timeZone'>, activityId: string, date: string) {
  const [, slots, held] = await Promise.all([
    requireOwnActivity(editor.operatorId, activityId),
    queryTimeslots(editor.operatorId, activityId, date, date, { whole: true }),
    heldPlaces(editor.operatorId, activityId, date),
  ]);
  return slots.map((slot) => toOperatorTimeslot(activityId, slot, held.get(slot.Time) ?? 0, editor.timeZone));
}

/** What a PATCH of one timeslot asks for, once its fields agree with each other. */
function changeOf(body: TimeslotChange): OperatorChange {
  if (body.Reason !== undefined && body.Closed !== true) {
    throw new ValidationError('is given only with Closed: true (why the timeslot is closed)', { field: 'Reason' });
  }
  if (body.Capacity === undefined && body.Closed === undefined) {
    throw new ValidationError('is required, or Capacity: the request body changes nothing', { field: 'Closed' });
  }
  return {
    ...(body.Capacity === undefined ? {} : { capacity: body.Capacity }),
    ...(body.Closed === undefined ? {} : { closed: body.Closed ? { reason: body.Reason } : false }),
  };
}

/** PATCH /api/v2/timeslots/{ActivityID}/{Date}/{Time}: a capacity, a close or a reopening, or a capacity and either. */
export async function changeOperatorTimeslot(
  editor: TimeslotEditor,
  slot: { activityId: string; date: string; time: string },
  body: TimeslotChange,
  now: Date = config().clock(),
): Promise<OperatorTimeslot> {
  const change = changeOf(body);
  const changed = await changeTimeslot({ operatorId: editor.operatorId, ...slot }, change, markOf(editor, now));
  const held = await heldPlaces(editor.operatorId, slot.activityId, slot.date);
  return toOperatorTimeslot(slot.activityId, changed, held.get(slot.time) ?? 0, editor.timeZone);
}

/**
 * PATCH /api/v2/timeslots/{ActivityID}/{Date}: every timeslot of the date
 * closed or reopened, each by its own conditional write (a retry finishes
 * what a failure left). A reopening is refused before anything is written
 * while one of them is being cancelled.
 */
export async function changeOperatorDate(
  editor: TimeslotEditor,
  day: { activityId: string; date: string },
  body: DateChange,
  now: Date = config().clock(),
): Promise<OperatorTimeslot[]> {
  const change = changeOf(body);
  const [slots, held] = await Promise.all([
    queryTimeslots(editor.operatorId, day.activityId, day.date, day.date, { whole: true }),
    heldPlaces(editor.operatorId, day.activityId, day.date),
  ]);
  if (!slots.length) throw new NotFoundError(`Activity ${day.activityId} has no timeslot on ${day.date}`, { subject: 'timeslot' });
  const cancelling = slots.find((slot) => slot.Cancellation && !slot.Cancellation.FinishedAt);
  if (change.closed === false && cancelling) throw CancellationInProgressError.of(cancelling);
  const mark = markOf(editor, now);
  const changed = await Promise.all(
    slots.map((slot) => changeTimeslot({ operatorId: editor.operatorId, ...day, time: slot.Time }, change, mark)),
  );
  return changed.map((slot) => toOperatorTimeslot(day.activityId, slot, held.get(slot.Time) ?? 0, editor.timeZone));
}

/** The rows of one-off timeslots asked for, each checked against the product and the operator's clock, none twice. */
function rowsOf(product: ProductItem, body: AddTimeslots, timeZone: string) {
  const dayTicket = product.AvailabilityType === 'OPENING_HOURS';
  const seen = new Map<string, string>();
  return body.Timeslots.map((slot, index) => {
    const field = `Timeslots[${index}]`;
    checkOneOffTimeslot(dayTicket, slot, field);
    if (slot.Time) checkTimeslotTime({ Date: slot.Date, Time: slot.Time }, timeZone, `${field}.Time`);
    const row = oneOffRow(slot);
    const earlier = seen.get(`${row.Date} ${row.Time}`);
    if (earlier) throw new ValidationError(`is the timeslot ${row.Date} ${row.Time} again (as ${earlier})`, { field });
    seen.set(`${row.Date} ${row.Time}`, field);
    return { row, field };
  });
}

/** POST /api/v2/timeslots/{ActivityID}: one-off timeslots, all or none; one the activity already has is refused. */
export async function addOperatorTimeslots(
  editor: TimeslotEditor,
  activityId: string,
  body: AddTimeslots,
  now: Date = config().clock(),
): Promise<OperatorTimeslot[]> {
  const mark = markOf(editor, now);
  let product = await requireOwnActivity(editor.operatorId, activityId);
  const rows = rowsOf(product, body, editor.timeZone);
  await retrying('The addition of timeslots', async () => {
    if ((await addTimeslots(editor.operatorId, product, rows, mark)) === 'added') return true;
    product = await requireOwnActivity(editor.operatorId, activityId);
    return RETRY;
  });
  const added = rows.map(({ row }): TimeslotItem => ({ ...row, Booked: 0, Vacancies: row.Capacity, AddedBy: mark.by, AddedAt: mark.at }));
  return added.map((slot) => toOperatorTimeslot(activityId, slot, 0, editor.timeZone));
}
