import { randomUUID } from 'node:crypto';
import type { TimeslotItem } from '../catalog/model';
import { activityNotFound, requireActivity } from '../catalog/products';
import { getTimeslot } from '../catalog/repository';
import { slotEnd, slotStart } from '../catalog/timeslot-start';
import { requireOption } from '../catalog/units';
import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import { partnerListens } from '../webhooks/events';
import { cancelPartnerItem } from './cancellation';
import { customerOf, mergeContact } from './contacts';
import { ConfirmedAlreadyError } from './errors';
import { checkNotStarted, countedReplay, createBooking, noRoomOn, noSuchTimeslot, uuidReplay } from './create-booking';
import { change, confirm, extend, isLive } from './lifecycle';
import type { BookingItem } from './model';
import { getReservationItems } from './repository';
import { transitionBooking, type TransitionResult } from './transition';
import { party, repriced, type RequestedUnitItem } from './unit-items';
import { isUuid, requireReservation, resolveUuid, uuidRead } from './uuid-lookup';
import { PARTNER_CHANNEL } from './constants';

/**
 * Reservations: the bookings a partner addresses by its own UUID (the OCTo
 * face's bookings), made of unit items: reserved (held), confirmed,
 * extended, changed (another timeslot, product or party; contact, notes,
 * reference), cancelled with a reason, and read. They are ordinary `ota`
 * bookings of the partner's key: the same capacity transaction, the same one
 * transition for every change, the same hold sweep, manifest, operator
 * cancellation and webhooks.
 */

/** A booking and its timeslot as this request leaves them (the timeslot's counters for the answer). */
export interface ReservationState {
  item: BookingItem;
  slot?: TimeslotItem;
}

export interface ReservationRequest {
  /** The partner's own UUID, when it made one; else the service makes it. */
  uuid?: string;
  /** The SHA-256 of the request as sent: the same UUID with another request is refused. */
  requestHash: string;
  activityId: string;
  optionId: string;
  /** The timeslot asked for; undefined when the request named none that can exist. */
  slot?: { Date: string; Time: string };
  unitItems?: RequestedUnitItem[];
  holdMinutes?: number;
  /** The contact as sent, in the domain's field names (null clears a field). */
  contact?: Record<string, unknown>;
  notes?: string | null;
  resellerReference?: string | null;
}

/** A request that names a timeslot the activity cannot have (its ID is not one of ours). */
const notATimeslot = (activityId: string) =>
  new NotFoundError(`It names no timeslot of activity ${activityId}`, { field: 'Timeslot', subject: 'timeslot' });

/** A timeslot open for sale, with its hours and counters. */
async function requireOpenSlot(caller: Caller, activityId: string, slot: { Date: string; Time: string } | undefined, now: Date) {
  if (!slot) throw notATimeslot(activityId);
  const item = await getTimeslot(caller.operatorId, activityId, slot.Date, slot.Time);
  if (!item) throw noSuchTimeslot({ ActivityID: activityId, ...slot });
  checkNotStarted(item, caller.timeZone, now);
  return item;
}

/** Sets, keeps or clears an optional text: `null` clears it, undefined keeps it. */
const textChange = (current: string | undefined, sent: string | null | undefined) => (sent === undefined ? current : (sent ?? undefined));

/** The timeslot's counters once this request's change of `places` is made (read before the write). */
const afterTaking = (slot: TimeslotItem, places: number): TimeslotItem => ({
  ...slot,
  Booked: slot.Booked + places,
  Vacancies: slot.Vacancies - places,
});

/**
 * Reserves (holds) places for unit items. With the partner's UUID the same
 * request answers the same booking and takes its places once, even when the
 * two arrive together; another request with that UUID is refused.
 */
export async function reserve(caller: Caller, request: ReservationRequest, now: Date = config().clock()): Promise<ReservationState> {
  const sentUuid = request.uuid?.toLowerCase();
  if (request.uuid !== undefined && !isUuid(request.uuid)) {
    throw new ValidationError('must be a UUID (8-4-4-4-12 hexadecimal digits)', { field: 'UUID' });
  }
  // One round trip, as a marketplace booking's one product read: the product, the timeslot, and what finds the UUID's booking.
  const read = sentUuid ? uuidRead(caller.operatorId, caller.keyId, sentUuid) : undefined;
  const { product, timeslot: slot, ...uuidItems } = await getReservationItems(caller.operatorId, request.activityId, request.slot, read);
  const made = read ? await resolveUuid(read, uuidItems) : undefined;
  // A retry is answered with its booking as it is now, even when the timeslot has since filled or the booking moved on.
  if (made) {
    const replay = countedReplay(uuidReplay(made, request.requestHash), caller.operatorId);
    return { item: replay.item as BookingItem, slot: await getTimeslot(caller.operatorId, made.ActivityID, made.Date, made.Time) };
  }
  if (!product?.Visible) throw activityNotFound(request.activityId);
  requireOption(request.optionId);
  if (!request.slot || !slot)
    throw noSuchTimeslot({ ActivityID: request.activityId, Date: request.slot?.Date ?? '(none)', Time: request.slot?.Time ?? '(none)' });
  checkNotStarted(slot, caller.timeZone, now);
  const { units, participants, unitItems } = party(product, request.unitItems);
  const uuid = sentUuid ?? randomUUID();
  const contact = mergeContact(undefined, request.contact);
  const customer = customerOf(contact);
  const result = await createBooking({
    operatorId: caller.operatorId,
    timeZone: caller.timeZone,
    channel: PARTNER_CHANNEL,
    partnerKeyId: caller.keyId,
    product,
    request: {
      ActivityID: product.ActivityID,
      Date: slot.Date,
      Time: slot.Time,
      Participants: participants,
      ...(customer ? { Customer: customer } : {}),
      Hold: { ExpiresInMinutes: request.holdMinutes },
    },
    units,
    openingHours: slot.OpeningHours,
    holdCaps: caller.holdCaps,
    uuidBooking: {
      uuid,
      requestHash: request.requestHash,
      unitItems,
      contact,
      notes: request.notes ?? undefined,
      resellerReference: request.resellerReference ?? undefined,
    },
    now,
  });
  const item = result.item as BookingItem;
  return { item, slot: result.replayed ? slot : afterTaking(slot, participants) };
}

/** Reads a reservation afresh, for a change that lost a race. */
const rereadOf = (caller: Caller, item: BookingItem) => () => requireReservation(caller, item.UUID as string);

/** The places a booking holds, and where: nothing once it is cancelled or expired. */
const placesHeld = (item: BookingItem) => (isLive(item) ? `${item.ActivityID}#${item.Date}#${item.Time}#${item.Participants}` : '');

/**
 * A change's answer with its timeslot's counters as the change left them: read beside the change when it
 * moves no places (a confirmation as it was held, an extension), read after it when it does.
 */
async function withSlot(caller: Caller, change: Promise<TransitionResult>, before: BookingItem): Promise<ReservationState> {
  const [result, slot] = await Promise.all([change, getTimeslot(caller.operatorId, before.ActivityID, before.Date, before.Time)]);
  const { item } = result;
  if (placesHeld(item) === placesHeld(before)) return { item, slot };
  return { item, slot: await getTimeslot(caller.operatorId, item.ActivityID, item.Date, item.Time) };
}

export interface ConfirmationChanges {
  contact?: Record<string, unknown>;
  resellerReference?: string | null;
  unitItems?: RequestedUnitItem[];
}

/** Confirms a reservation, optionally with its contact, the partner's reference and another party of unit items. */
export async function confirmReservation(
  caller: Caller,
  uuid: string,
  changes: ConfirmationChanges,
  now: Date = config().clock(),
): Promise<ReservationState> {
  const [item, listens] = await Promise.all([requireReservation(caller, uuid), partnerListens(caller, 'booking.confirmed')]);
  return withSlot(
    caller,
    transitionBooking(item, {
      what: 'The confirmation',
      outcome: 'confirmed',
      event: 'booking.confirmed',
      listens,
      now,
      reread: rereadOf(caller, item),
      noRoom: noRoomOn,
      step: async (current) => {
        const contact = mergeContact(current.Contact, changes.contact);
        const next: BookingItem = {
          ...current,
          Contact: contact,
          Customer: customerOf(contact) ?? current.Customer,
          ResellerReference: textChange(current.ResellerReference, changes.resellerReference),
          ...(changes.unitItems ? repriced(await requireActivity(caller, current.ActivityID), current, changes.unitItems) : {}),
        };
        const decision = confirm(current, now);
        if ('stay' in decision) {
          if (sameBooking(current, next)) return { answer: current };
          throw ConfirmedAlreadyError.of(current);
        }
        return { next: { ...next, Status: decision.to, ConfirmedAt: now.toISOString() }, change: decision.change };
      },
    }),
    item,
  );
}

const sameBooking = (a: BookingItem, b: BookingItem) =>
  (['Contact', 'ResellerReference', 'UnitItems'] as const).every((field) => JSON.stringify(a[field]) === JSON.stringify(b[field]));

/** Extends a reservation: it now expires `minutes` (at most the longest hold) from now, within its life (lifecycle.ts). */
export async function extendReservation(caller: Caller, uuid: string, minutes: number | undefined, now: Date = config().clock()) {
  const item = await requireReservation(caller, uuid);
  return withSlot(
    caller,
    transitionBooking(item, {
      what: 'The extension',
      outcome: 'extended',
      now,
      reread: rereadOf(caller, item),
      step: (current) => {
        const decision = extend(current, now, minutes);
        return { next: { ...current, Status: decision.to, HoldExpiresAt: decision.holdExpiresAt }, change: decision.change };
      },
    }),
    item,
  );
}

export interface BookingChanges extends ConfirmationChanges {
  activityId?: string;
  optionId?: string;
  /** Present when the request names a timeslot: the one it names, or undefined when it names none that can exist. */
  slot?: { value?: { Date: string; Time: string } };
  notes?: string | null;
  holdMinutes?: number;
}

/**
 * Changes a held or confirmed booking until its timeslot closes: another
 * timeslot, product or party (the places move in the change's one
 * transaction), contact, notes, the partner's reference, a hold's expiry.
 * Its status stays.
 */
export async function changeReservation(
  caller: Caller,
  uuid: string,
  changes: BookingChanges,
  now: Date = config().clock(),
): Promise<ReservationState> {
  const item = await requireReservation(caller, uuid);
  const result = await transitionBooking(item, {
    what: 'The change',
    outcome: 'changed',
    holdCaps: caller.holdCaps,
    now,
    reread: rereadOf(caller, item),
    noRoom: noRoomOn,
    step: async (current) => {
      const decision = change(current, now, caller.timeZone, changes.holdMinutes);
      const activityId = changes.activityId ?? current.ActivityID;
      const product = await requireActivity(caller, activityId);
      if (activityId !== current.ActivityID && (!changes.slot || !changes.unitItems)) {
        throw new ValidationError('needs a timeslot and unit items of the new product with it', { field: 'ActivityID' });
      }
      if (changes.optionId !== undefined) requireOption(changes.optionId);
      const slot = changes.slot ? await requireOpenSlot(caller, activityId, changes.slot.value, now) : undefined;
      const target = slot ?? current;
      const contact = mergeContact(current.Contact, changes.contact);
      const next: BookingItem = {
        ...current,
        ...(changes.unitItems ? repriced(product, current, changes.unitItems) : {}),
        ActivityID: product.ActivityID,
        ProductID: product.ProductID,
        ActivityName: product.Name,
        Date: target.Date,
        Time: target.Time,
        StartsAt: slotStart(target, caller.timeZone),
        OpeningHours: slot ? slot.OpeningHours : current.OpeningHours,
        Contact: contact,
        Customer: customerOf(contact) ?? current.Customer,
        Notes: textChange(current.Notes, changes.notes),
        ResellerReference: textChange(current.ResellerReference, changes.resellerReference),
        ...(decision.holdExpiresAt ? { HoldExpiresAt: decision.holdExpiresAt } : {}),
      };
      next.EndsAt = slotEnd(next, product.DurationMinutes, caller.timeZone);
      return { next: { ...next, Status: decision.to }, change: decision.change };
    },
  });
  const moved = result.item;
  const read = await getTimeslot(caller.operatorId, moved.ActivityID, moved.Date, moved.Time);
  return { item: moved, slot: read };
}

/** Cancels a held or confirmed booking until its timeslot closes, with the partner's reason. */
export async function cancelReservation(caller: Caller, uuid: string, reason: string | undefined, now: Date = config().clock()) {
  const item = await requireReservation(caller, uuid);
  return withSlot(caller, cancelPartnerItem(caller, item, { now, reason, read: rereadOf(caller, item) }), item);
}

/** Reads a reservation with its timeslot's counters. */
export async function readReservation(caller: Caller, uuid: string): Promise<ReservationState> {
  const item = await requireReservation(caller, uuid);
  return { item, slot: await getTimeslot(caller.operatorId, item.ActivityID, item.Date, item.Time) };
}
