import { randomUUID } from 'node:crypto';
import type { ProductItem, TimeslotItem } from '../catalog/model';
import { activityNotFound } from '../catalog/products';
import { getProduct, getTimeslot, getTimeslots } from '../catalog/repository';
import { slotEnd, slotStart, timeslotStarted } from '../catalog/timeslot-start';
import { countUnits, priceUnits, requireOption, totalOf } from '../catalog/units';
import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { InvalidRequestError, NotFoundError, UnprocessableError, ValidationError } from '../core/errors';
import { partnerListens } from '../webhooks/events';
import { BookingCancelledError, HoldExpiredError, NotOnHoldError, TimeslotStartedError } from './errors';
import { confirmable } from './holds';
import { HOLD_MINUTES, type BookingItem, type UnitItem } from './model';
import { cancelPartnerItem } from './partner-bookings';
import { normaliseReference } from './reference';
import { getBooking, getBookings, getReservationItems, queryResellerDays, queryResellerReference } from './repository';
import {
  checkNotStarted,
  countedReplay,
  insufficientCapacity,
  lookUpUuid,
  noSuchTimeslot,
  createBooking,
  referenceForUuid,
  uuidReplay,
  uuidUnusable,
  type UuidLookup,
} from './create-booking';
import { customerSchema, type Customer } from './customer-schema';
import type { Contact } from './schemas';
import { changeBooking, type TransitionResult } from './transition';

/**
 * Bookings a partner addresses by its own UUID (the OCTo face's bookings):
 * reserved (held) with unit items, confirmed, extended, changed (another
 * timeslot, product or party; contact, notes, reference), cancelled with a
 * reason, read and listed. They are ordinary `ota` bookings of the partner's
 * key: the same capacity transaction, the same one transition for every
 * change, the same hold sweep, manifest, operator cancellation and webhooks.
 */

/** OCTo requires lower-case UUIDs; a partner's is accepted in any case and kept lower-cased. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A booking and its timeslot as this request leaves them (the timeslot's counters for the answer). */
export interface UuidBookingState {
  item: BookingItem;
  slot?: TimeslotItem;
}

export interface RequestedUnitItem {
  UnitID: string;
  UUID?: string;
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

const unknownBooking = (uuid: string) =>
  new NotFoundError(`No booking has UUID '${uuid}'`, { field: 'uuid', subject: 'booking', value: uuid });

/** A partner's UUID booking: another key's, another operator's and a malformed UUID are all unknown. */
export async function requireUuidBooking(caller: Caller, uuid: string): Promise<BookingItem> {
  if (!UUID_PATTERN.test(uuid)) throw unknownBooking(uuid);
  const lookup = await lookUpUuid(caller.operatorId, caller.keyId, uuid.toLowerCase());
  if (!('found' in lookup)) throw unknownBooking(uuid);
  return lookup.found;
}

/** The product of a UUID booking: visible, as in the shopfront. */
async function requireProduct(caller: Caller, activityId: string): Promise<ProductItem> {
  const product = await getProduct(caller.operatorId, activityId);
  if (!product?.Visible) throw activityNotFound(activityId);
  return product;
}

/** A request that names a timeslot the activity cannot have (its ID is not one of ours). */
const notATimeslot = (activityId: string) =>
  new NotFoundError(`It names no timeslot of activity ${activityId}`, { field: 'availabilityId', subject: 'timeslot' });

/** A timeslot open for sale, with its hours and counters. */
async function requireOpenSlot(caller: Caller, activityId: string, slot: { Date: string; Time: string } | undefined, now: Date) {
  if (!slot) throw notATimeslot(activityId);
  const item = await getTimeslot(caller.operatorId, activityId, slot.Date, slot.Time);
  if (!item) throw noSuchTimeslot({ ActivityID: activityId, ...slot });
  checkNotStarted(item, caller.timeZone, now);
  return item;
}

const hold = (minutes: number | undefined) => Math.min(HOLD_MINUTES.max, minutes ?? HOLD_MINUTES.default);

/** Prices a party of unit items and gives each item a UUID (its own when the partner sent one, lower-cased). */
function party(product: ProductItem, items: RequestedUnitItem[] | undefined, keep: readonly UnitItem[] = []) {
  if (!items?.length) throw new UnprocessableError('must hold at least one unit item', { field: 'unitItems' });
  const counted = countUnits(items.map((item) => item.UnitID));
  const { units, participants } = priceUnits(product, counted, (index) =>
    index < 0 ? 'unitItems' : `unitItems[${items.findIndex((item) => item.UnitID === counted[index].UnitID)}].unitId`,
  );
  // An item sent without a UUID keeps the UUID of an item of the same unit it replaces, one not named by another item.
  const named = new Set(items.flatMap((item) => (item.UUID ? [item.UUID.toLowerCase()] : [])));
  const reusable = keep.filter((old) => !named.has(old.UUID));
  const unitItems = items.map((item): UnitItem => {
    if (item.UUID) return { UUID: item.UUID.toLowerCase(), UnitID: item.UnitID };
    const at = reusable.findIndex((old) => old.UnitID === item.UnitID);
    const kept = at < 0 ? undefined : reusable.splice(at, 1)[0];
    return { UUID: kept?.UUID ?? randomUUID(), UnitID: item.UnitID };
  });
  const repeated = unitItems.findIndex((item, index) => unitItems.findIndex((other) => other.UUID === item.UUID) !== index);
  if (repeated >= 0) throw new ValidationError('repeats the UUID of another unit item', { field: `unitItems[${repeated}].uuid` });
  return { units, participants, unitItems };
}

const isCustomer = (value: unknown): value is Customer => {
  const customer = value as Customer;
  return (
    typeof customer.FirstName === 'string' &&
    customer.FirstName.trim() !== '' &&
    customer.FirstName.length <= customerSchema.properties.FirstName.maxLength &&
    typeof customer.LastName === 'string' &&
    customer.LastName.trim() !== '' &&
    customer.LastName.length <= customerSchema.properties.LastName.maxLength &&
    typeof customer.Email === 'string' &&
    /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(customer.Email) &&
    customer.Email.length <= customerSchema.properties.Email.maxLength
  );
};

/** The operator's lists show a customer: the contact's name and email, when it gives all three. */
function customerOf(contact: Contact | undefined): Customer | undefined {
  const candidate = { FirstName: contact?.FirstName?.trim(), LastName: contact?.LastName?.trim(), Email: contact?.EmailAddress?.trim() };
  if (!isCustomer(candidate)) return undefined;
  const phone = contact?.PhoneNumber?.replace(/[\s()-]/g, '');
  return { ...candidate, ...(phone && new RegExp(customerSchema.properties.Phone.pattern).test(phone) ? { Phone: phone } : {}) };
}

/** A contact sent over one already held: each field sent replaces it, `null` clears it, a field not sent stays. */
function mergeContact(current: Contact | undefined, sent: Record<string, unknown> | undefined): Contact | undefined {
  if (!sent) return current;
  const merged: Record<string, unknown> = { ...current };
  for (const [name, value] of Object.entries(sent)) {
    if (value === null) delete merged[name];
    else if (value !== undefined) merged[name] = value;
  }
  if (merged.FullName === undefined && typeof merged.FirstName === 'string' && typeof merged.LastName === 'string') {
    merged.FullName = `${merged.FirstName} ${merged.LastName}`;
  }
  return Object.keys(merged).length ? (merged as Contact) : undefined;
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
export async function reserve(caller: Caller, request: ReservationRequest, now: Date = config().clock()): Promise<UuidBookingState> {
  const sentUuid = request.uuid?.toLowerCase();
  if (request.uuid !== undefined && !UUID_PATTERN.test(request.uuid)) {
    throw new ValidationError('must be a UUID (8-4-4-4-12 hexadecimal digits)', { field: 'uuid' });
  }
  // One round trip, as a marketplace booking's one product read: the product, the timeslot, and the UUID's booking.
  const firstReference = sentUuid && referenceForUuid(caller.operatorId, caller.keyId, sentUuid, 0);
  const {
    product,
    timeslot: slot,
    booking: atReference,
  } = await getReservationItems(caller.operatorId, request.activityId, request.slot, firstReference);
  let lookup: UuidLookup | undefined;
  if (sentUuid && firstReference) {
    if (!atReference) lookup = { free: firstReference };
    else if (atReference.UUID === sentUuid && atReference.PartnerKeyID === caller.keyId) lookup = { found: atReference };
    else lookup = await lookUpUuid(caller.operatorId, caller.keyId, sentUuid, 1);
  }
  // A retry is answered with its booking as it is now, even when the timeslot has since filled or the booking moved on.
  if (lookup && 'found' in lookup) {
    const replay = countedReplay(uuidReplay(lookup.found, request.requestHash), caller.operatorId);
    return {
      item: replay.item as BookingItem,
      slot: await getTimeslot(caller.operatorId, lookup.found.ActivityID, lookup.found.Date, lookup.found.Time),
    };
  }
  if (lookup && 'exhausted' in lookup) throw uuidUnusable(sentUuid as string);
  if (!product?.Visible) throw activityNotFound(request.activityId);
  requireOption(request.optionId);
  if (!request.slot || !slot)
    throw noSuchTimeslot({ ActivityID: request.activityId, Date: request.slot?.Date ?? '(none)', Time: request.slot?.Time ?? '(none)' });
  checkNotStarted(slot, caller.timeZone, now);
  const { units, participants, unitItems } = party(product, request.unitItems);
  const uuid = sentUuid ?? randomUUID();
  const contact = mergeContact(undefined, request.contact);
  const customer = customerOf(contact);
  const result = await createBooking(
    {
      operatorId: caller.operatorId,
      timeZone: caller.timeZone,
      channel: 'ota',
      partnerKeyId: caller.keyId,
      product,
      request: {
        ActivityID: product.ActivityID,
        Date: slot.Date,
        Time: slot.Time,
        Participants: participants,
        ...(customer ? { Customer: customer } : {}),
        Hold: { ExpiresInMinutes: hold(request.holdMinutes) },
      },
      units,
      openingHours: slot.OpeningHours,
      uuidBooking: {
        uuid,
        requestHash: request.requestHash,
        unitItems,
        contact,
        notes: request.notes ?? undefined,
        resellerReference: request.resellerReference ?? undefined,
      },
      now,
    },
    lookup && 'free' in lookup ? lookup.free : referenceForUuid(caller.operatorId, caller.keyId, uuid, 0),
  );
  const item = result.item as BookingItem;
  return { item, slot: result.replayed ? slot : afterTaking(slot, participants) };
}

/** Reads a UUID booking afresh, for a change that lost a race. */
const rereadOf = (caller: Caller, item: BookingItem) => () => requireUuidBooking(caller, item.UUID as string);

/** The places a booking holds, and where: nothing once it is cancelled or expired. */
const placesHeld = (item: BookingItem) =>
  item.Status === 'ON_HOLD' || item.Status === 'CONFIRMED' ? `${item.ActivityID}#${item.Date}#${item.Time}#${item.Participants}` : '';

/**
 * A change's answer with its timeslot's counters as the change left them: read beside the change when it
 * moves no places (a confirmation as it was held, an extension), read after it when it does.
 */
async function withSlot(caller: Caller, change: Promise<TransitionResult>, before: BookingItem): Promise<UuidBookingState> {
  const [result, slot] = await Promise.all([change, getTimeslot(caller.operatorId, before.ActivityID, before.Date, before.Time)]);
  const { item } = result;
  if (placesHeld(item) === placesHeld(before)) return { item, slot };
  return { item, slot: await getTimeslot(caller.operatorId, item.ActivityID, item.Date, item.Time) };
}

/** The refusal of a change that found too few places on the timeslot it takes them on. */
const noRoom = (next: BookingItem, vacancies: number | undefined) =>
  vacancies === undefined ? noSuchTimeslot(next) : insufficientCapacity(next, vacancies);

/** Refuses a change of a booking that is no longer held or confirmed, or whose hold has expired. */
function checkChangeable(current: BookingItem, now: Date): void {
  if (current.Status === 'CANCELLED') throw BookingCancelledError.of(current);
  if (current.Status === 'EXPIRED' || (current.Status === 'ON_HOLD' && new Date(current.HoldExpiresAt as string) <= now)) {
    throw HoldExpiredError.of(current);
  }
}

export interface ConfirmationChanges {
  contact?: Record<string, unknown>;
  resellerReference?: string | null;
  unitItems?: RequestedUnitItem[];
}

/** A new party of unit items, priced at the product's prices now (the items kept keep their UUIDs). */
function repriced(product: ProductItem, current: BookingItem, items: RequestedUnitItem[]): Partial<BookingItem> {
  const { units, participants, unitItems } = party(product, items, current.UnitItems);
  return {
    Units: units,
    Participants: participants,
    UnitItems: unitItems,
    TotalPrice: totalOf(units, product.PricePerParticipant.Currency),
  };
}

/** Confirms a reservation, optionally with its contact, the partner's reference and another party of unit items. */
export async function confirmReservation(
  caller: Caller,
  uuid: string,
  changes: ConfirmationChanges,
  now: Date = config().clock(),
): Promise<UuidBookingState> {
  const [item, listens] = await Promise.all([requireUuidBooking(caller, uuid), partnerListens(caller)]);
  const at = now.toISOString();
  return withSlot(
    caller,
    changeBooking(item, {
      what: 'The confirmation',
      outcome: 'confirmed',
      event: 'booking.confirmed',
      listens,
      now,
      reread: rereadOf(caller, item),
      noRoom,
      step: async (current) => {
        const contact = mergeContact(current.Contact, changes.contact);
        const next: BookingItem = {
          ...current,
          Contact: contact,
          Customer: customerOf(contact) ?? current.Customer,
          ResellerReference: textChange(current.ResellerReference, changes.resellerReference),
          ...(changes.unitItems ? repriced(await requireProduct(caller, current.ActivityID), current, changes.unitItems) : {}),
        };
        if (current.Status === 'CONFIRMED') {
          if (sameBooking(current, next)) return { answer: current };
          throw new UnprocessableError('The booking is confirmed already; change it with PATCH');
        }
        checkChangeable(current, now);
        return { next: { ...next, Status: 'CONFIRMED', ConfirmedAt: at }, change: confirmable(at) };
      },
    }),
    item,
  );
}

const sameBooking = (a: BookingItem, b: BookingItem) =>
  (['Contact', 'ResellerReference', 'UnitItems'] as const).every((field) => JSON.stringify(a[field]) === JSON.stringify(b[field]));

/** Extends a reservation: it now expires `minutes` (at most the longest hold) from now. */
export async function extendReservation(caller: Caller, uuid: string, minutes: number | undefined, now: Date = config().clock()) {
  const item = await requireUuidBooking(caller, uuid);
  const at = now.toISOString();
  return withSlot(
    caller,
    changeBooking(item, {
      what: 'The extension',
      outcome: 'extended',
      now,
      reread: rereadOf(caller, item),
      step: (current) => {
        checkChangeable(current, now);
        if (current.Status !== 'ON_HOLD') throw NotOnHoldError.of(current);
        return {
          next: { ...current, HoldExpiresAt: new Date(now.getTime() + hold(minutes) * 60_000).toISOString() },
          change: confirmable(at),
        };
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
export async function changeUuidBooking(
  caller: Caller,
  uuid: string,
  changes: BookingChanges,
  now: Date = config().clock(),
): Promise<UuidBookingState> {
  const item = await requireUuidBooking(caller, uuid);
  const at = now.toISOString();
  const result = await changeBooking(item, {
    what: 'The change',
    outcome: 'changed',
    now,
    reread: rereadOf(caller, item),
    noRoom,
    step: async (current) => {
      checkChangeable(current, now);
      if (timeslotStarted(current, caller.timeZone, now)) throw TimeslotStartedError.of(current);
      const activityId = changes.activityId ?? current.ActivityID;
      const product = await requireProduct(caller, activityId);
      if (activityId !== current.ActivityID && (!changes.slot || !changes.unitItems)) {
        throw new ValidationError('needs availabilityId and unitItems of the new product with it', { field: 'productId' });
      }
      if (changes.optionId !== undefined) requireOption(changes.optionId);
      if (changes.holdMinutes !== undefined && current.Status !== 'ON_HOLD') {
        throw new ValidationError('applies to a reservation only: the booking is confirmed', { field: 'expirationMinutes' });
      }
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
        ...(changes.holdMinutes === undefined
          ? {}
          : { HoldExpiresAt: new Date(now.getTime() + hold(changes.holdMinutes) * 60_000).toISOString() }),
      };
      next.EndsAt = slotEnd(next, product.DurationMinutes, caller.timeZone);
      return {
        next,
        change: {
          condition: '#status = :confirmed OR (#status = :held AND HoldExpiresAt > :now)',
          values: { ':confirmed': 'CONFIRMED', ':held': 'ON_HOLD', ':now': at },
          at,
        },
      };
    },
  });
  const moved = result.item;
  const read = await getTimeslot(caller.operatorId, moved.ActivityID, moved.Date, moved.Time);
  return { item: moved, slot: read };
}

/** Cancels a held or confirmed booking until its timeslot closes, with the partner's reason. */
export async function cancelUuidBooking(caller: Caller, uuid: string, reason: string | undefined, now: Date = config().clock()) {
  const item = await requireUuidBooking(caller, uuid);
  return withSlot(caller, cancelPartnerItem(caller, item, { now, reason, read: rereadOf(caller, item) }), item);
}

/** Reads a UUID booking with its timeslot's counters. */
export async function readUuidBooking(caller: Caller, uuid: string): Promise<UuidBookingState> {
  const item = await requireUuidBooking(caller, uuid);
  return { item, slot: await getTimeslot(caller.operatorId, item.ActivityID, item.Date, item.Time) };
}

/** Bookings listed per request at most: a narrower filter lists the rest. */
export const MAX_LISTED_BOOKINGS = 1000;

export interface UuidBookingFilter {
  /** The booking's reference (OCTo's supplierReference). */
  reference?: string;
  resellerReference?: string;
  /** Timeslot days, both included. */
  days?: { from: string; to: string };
  activityId?: string;
}

/**
 * A partner's UUID bookings that match every filter given, by timeslot then
 * reference: found by the most selective one (a reference is one read, the
 * partner's reference a consistent query, days an index query), the others
 * applied to what it found.
 */
export async function listUuidBookings(caller: Caller, filter: UuidBookingFilter): Promise<UuidBookingState[]> {
  const own = (item: BookingItem | undefined): item is BookingItem =>
    item !== undefined && item.UUID !== undefined && item.PartnerKeyID === caller.keyId && item.Channel === 'ota';
  let items: BookingItem[];
  if (filter.reference !== undefined) {
    items = [await getBooking(caller.operatorId, normaliseReference(filter.reference))].filter(own);
  } else if (filter.resellerReference !== undefined) {
    items = (
      await getBookings(caller.operatorId, await queryResellerReference(caller.operatorId, caller.keyId, filter.resellerReference))
    ).filter(own);
  } else if (filter.days) {
    items = await queryResellerDays(
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
    throw new ValidationError(`matches more than ${MAX_LISTED_BOOKINGS} bookings; narrow the range of days`, { field: 'localDateEnd' });
  }
  matching.sort((a, b) => a.StartsAt.localeCompare(b.StartsAt) || a.BookingReference.localeCompare(b.BookingReference));
  const slots = await getTimeslots(
    caller.operatorId,
    matching.map((item) => ({ activityId: item.ActivityID, date: item.Date, time: item.Time })),
  );
  return matching.map((item) => ({ item, slot: slots.get(`${item.ActivityID}#${item.Date}#${item.Time}`) }));
}
