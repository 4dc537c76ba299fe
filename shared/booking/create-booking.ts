import type { ProductItem } from '../catalog/model';
import { getTimeslot } from '../catalog/repository';
import type { OpeningHours } from '../catalog/schemas';
import { priceUnits, totalOf, type BookedUnit } from '../catalog/units';
import { wallClock, zonedIsoAt } from '../core/calendar';
import { CapacityError, IdempotencyKeyReusedError, UnprocessableError, ValidationError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { expiresAt, replayable } from '../core/idempotency';
import { RETRY, retrying } from '../core/retry';
import { closesAt, slotEnd, slotStart, timeslotStarted } from '../catalog/timeslot-start';
import { checkAnswers } from './answers';
import type { Booking, BookingRequest, Contact } from './schemas';
import { IDEMPOTENCY_TTL_SECONDS, type Channel } from './constants';
import { holdExpiry, madeStatus } from './lifecycle';
import { toBooking, type BookingItem, type IdempotencyRecord, type UnitItem } from './model';
import { newBookingReference } from './reference';
import { getIdempotencyRecord, writeBooking, type SlotRefusal } from './repository';
import { lookUpUuid } from './uuid-lookup';
import { capReached } from './held-places';
import type { HoldCaps } from '../accounts/hold-caps';

export interface BookingResult {
  booking: Booking;
  /** True when an Idempotency-Key matched an earlier booking and its original response is returned. */
  replayed: boolean;
  /** The booking item as written (or, for a UUID booking made before, as it is now); absent for an Idempotency-Key replay. */
  item?: BookingItem;
}

/**
 * A booking the partner addresses by its own UUID (OCTo): what it is beyond
 * a booking request. Its reference is random, as any booking's; the UUID's
 * index item, written in the booking's transaction, finds it, and a second
 * request with the same UUID meets the first in that item's condition (uuid-lookup.ts).
 */
export interface UuidBooking {
  uuid: string;
  requestHash: string;
  unitItems: UnitItem[];
  contact?: Contact;
  notes?: string;
  resellerReference?: string;
}

export interface IdempotencyContext {
  keyId: string;
  keyHash: string;
  requestHash: string;
}

/** Everything a booking is made of once the request has been checked. */
export interface NewBooking {
  operatorId: string;
  timeZone: string;
  channel: Channel;
  partnerKeyId?: string;
  product: ProductItem;
  request: BookingRequest;
  /** The party by unit, priced, when the request named units. */
  units?: BookedUnit[];
  /** Day tickets: the timeslot's opening hours, as read before booking. */
  openingHours?: OpeningHours;
  uuidBooking?: UuidBooking;
  idempotency?: IdempotencyContext;
  /** The partner key's caps on held places, for a hold (the defaults when absent). */
  holdCaps?: HoldCaps;
  now: Date;
}

/**
 * A day ticket's opening hours on the requested day, read from its timeslot
 * (a day is sold until it closes); nothing for start-time products, whose
 * timeslot is checked by the booking's own transaction.
 */
export async function slotHours(
  operatorId: string,
  product: ProductItem,
  request: Pick<BookingRequest, 'ActivityID' | 'Date' | 'Time'>,
): Promise<OpeningHours | undefined> {
  if (product.AvailabilityType !== 'OPENING_HOURS') return undefined;
  const slot = await getTimeslot(operatorId, product.ActivityID, request.Date, request.Time);
  if (!slot?.OpeningHours) throw noSuchTimeslot(request);
  return slot.OpeningHours;
}

/** A request that names Units books those (its Participants must be their places); one without books Participants adults. */
export function partyOf(product: ProductItem, request: Pick<BookingRequest, 'Units' | 'Participants'>): BookedUnit[] | undefined {
  if (!request.Units) {
    checkParticipants(product, request.Participants);
    return undefined;
  }
  const { units, participants } = priceUnits(product, request.Units, (index) => (index < 0 ? 'Units' : `Units[${index}].UnitID`));
  if (participants !== request.Participants) {
    throw new ValidationError(`is ${request.Participants}, but the Units take ${participants} place(s)`, { field: 'Participants' });
  }
  return units;
}

export function checkParticipants(product: ProductItem, participants: number): void {
  if (participants > product.MaxParticipantsPerBooking) {
    throw new UnprocessableError(
      `is ${participants}; activity ${product.ActivityID} takes at most ${product.MaxParticipantsPerBooking} per booking`,
      {
        field: 'Participants',
      },
    );
  }
}

/** Dates and times are the operator's wall clock; a timeslot can be booked until the minute it starts. */
export function checkNotStarted(
  request: Pick<BookingRequest, 'Date' | 'Time'> & { OpeningHours?: OpeningHours },
  timeZone: string,
  now: Date,
): void {
  if (!timeslotStarted(request, timeZone, now)) return;
  const today = wallClock(timeZone, now).date;
  if (request.Date < today) {
    throw new ValidationError(`${request.Date} is in the past (today is ${today} in ${timeZone})`, { field: 'Date', subject: 'timeslot' });
  }
  const what = request.OpeningHours ? `The day ${request.Date} has closed` : `${request.Time} has already started`;
  // With the offsets: on the night the clocks go back, 01:30 has started when the clocks show 01:15 the second time.
  throw new ValidationError(
    `${what} at ${zonedIsoAt(closesAt(request, timeZone).getTime(), timeZone)} (it is ${zonedIsoAt(now.getTime(), timeZone)} in ${timeZone})`,
    {
      field: 'Time',
      subject: 'timeslot',
    },
  );
}

export const noSuchTimeslot = (request: Pick<BookingRequest, 'ActivityID' | 'Date' | 'Time'>) =>
  new ValidationError(`${request.Time} is not a timeslot of activity ${request.ActivityID} on ${request.Date}`, {
    field: 'Time',
    subject: 'timeslot',
  });

export const insufficientCapacity = (request: Pick<BookingRequest, 'Date' | 'Time' | 'Participants'>, vacancies: number) =>
  new CapacityError(
    `The timeslot ${request.Date} ${request.Time} has ${Math.max(0, vacancies)} place(s) left; ${request.Participants} were requested`,
  );

/** A timeslot the operator closed sells nothing: the refusal of a booking that found no capacity. */
export const closedTimeslot = (request: Pick<BookingRequest, 'Date' | 'Time'>) =>
  new CapacityError(`The timeslot ${request.Date} ${request.Time} is closed for sale`);

/** The refusal of a booking or move whose timeslot gave no places. */
export function noRoomOn(request: Pick<BookingRequest, 'ActivityID' | 'Date' | 'Time' | 'Participants'>, refusal: SlotRefusal) {
  if ('missing' in refusal) return noSuchTimeslot(request);
  if ('closed' in refusal) return closedTimeslot(request);
  return insufficientCapacity(request, refusal.vacancies);
}

export function bookingItem(newBooking: NewBooking, reference: string, waiverStatus: Booking['WaiverStatus']): BookingItem {
  const { request, product, timeZone, now, units, openingHours, uuidBooking } = newBooking;
  const currency = product.PricePerParticipant.Currency;
  return {
    OperatorID: newBooking.operatorId,
    BookingReference: reference,
    Status: madeStatus(request.Hold !== undefined),
    Channel: newBooking.channel,
    ...(newBooking.partnerKeyId ? { PartnerKeyID: newBooking.partnerKeyId } : {}),
    ...(request.PaymentReference ? { PaymentReference: request.PaymentReference } : {}),
    ActivityID: product.ActivityID,
    ProductID: product.ProductID,
    ActivityName: product.Name,
    Date: request.Date,
    Time: request.Time,
    StartsAt: slotStart(request, timeZone),
    Participants: request.Participants,
    ...(units ? { Units: units } : {}),
    TotalPrice: units
      ? totalOf(units, currency)
      : { Amount: product.PricePerParticipant.Amount * request.Participants, Currency: currency },
    ...(request.Customer ? { Customer: request.Customer } : {}),
    WaiverStatus: waiverStatus,
    ...(request.Answers ? { Answers: request.Answers } : {}),
    CreatedAt: now.toISOString(),
    ...(request.Hold ? { HoldExpiresAt: holdExpiry(now, request.Hold.ExpiresInMinutes) } : {}),
    ...(request.Hold && newBooking.partnerKeyId ? { HoldCounted: true } : {}),
    ...(openingHours ? { OpeningHours: openingHours } : {}),
    EndsAt: slotEnd({ ...request, OpeningHours: openingHours }, product.DurationMinutes, timeZone),
    ...(uuidBooking
      ? {
          UUID: uuidBooking.uuid,
          RequestHash: uuidBooking.requestHash,
          UnitItems: uuidBooking.unitItems,
          ...(uuidBooking.contact ? { Contact: uuidBooking.contact } : {}),
          ...(uuidBooking.notes ? { Notes: uuidBooking.notes } : {}),
          ...(uuidBooking.resellerReference ? { ResellerReference: uuidBooking.resellerReference } : {}),
        }
      : {}),
    ...(newBooking.idempotency ? { IdempotencyKeyHash: newBooking.idempotency.keyHash } : {}),
    UpdatedAt: now.toISOString(),
    Version: 1,
  };
}

/** What a key remembers of the booking it made: the request's hash and the original response. */
export const idempotencyRecord = (booking: BookingItem, requestHash: string, now: Date): IdempotencyRecord => ({
  RequestHash: requestHash,
  BookingReference: booking.BookingReference,
  Response: JSON.stringify(toBooking(booking)),
  CreatedAt: booking.CreatedAt,
  ExpiresAt: expiresAt(now, IDEMPOTENCY_TTL_SECONDS),
});

/** What an idempotency key was used for, to name it when the key comes back with another request. */
export const usedFor = (earlier: IdempotencyRecord): string => earlier.Of ?? `booking ${earlier.BookingReference}`;

/** The original response for a live record of this key; refused when the key came with another body. */
export async function replay(operatorId: string, idempotency: IdempotencyContext, now: Date): Promise<BookingResult | undefined> {
  const record = replayable(await getIdempotencyRecord(operatorId, idempotency.keyId, idempotency.keyHash), idempotency, now, usedFor);
  return record && { booking: JSON.parse(record.Response) as Booking, replayed: true };
}

/** An Idempotency-Key answered again, counted as such. */
export function countedReplay(result: BookingResult, operatorId: string): BookingResult {
  countBusinessEvent('Bookings', 'replayed', operatorId);
  return result;
}

/** The same UUID sent again: the same request answers its booking as it is now; another request is refused. */
export function uuidReplay(item: BookingItem, requestHash: string): BookingResult {
  if (item.RequestHash !== requestHash) {
    throw new IdempotencyKeyReusedError(
      `was already used for booking ${item.BookingReference} with a different request; send a new UUID for a new booking`,
      { field: 'UUID', subject: 'booking', value: item.UUID },
    );
  }
  return { booking: toBooking(item), replayed: true, item };
}

/**
 * The one path by which every channel books: the booking, its places and its
 * idempotency record are written in one transaction; only what a retry can
 * fix (contention, a reference that collided) is retried.
 */
export async function createBooking(newBooking: NewBooking): Promise<BookingResult> {
  let reference = newBookingReference();
  const { request, idempotency, operatorId, now, uuidBooking, partnerKeyId } = newBooking;
  const waiverStatus = checkAnswers(newBooking.product.Questions, request.Answers);
  return retrying('The booking transaction', async () => {
    const booking = bookingItem(newBooking, reference, waiverStatus);
    const record = idempotency && idempotencyRecord(booking, idempotency.requestHash, now);
    const result = await writeBooking({
      booking,
      holdCaps: newBooking.holdCaps,
      ...(idempotency && record ? { idempotency: { keyId: idempotency.keyId, keyHash: idempotency.keyHash, record, now } } : {}),
    });
    switch (result.outcome) {
      case 'written':
        countBusinessEvent('Bookings', booking.Status === 'ON_HOLD' ? 'held' : 'created', operatorId);
        return { booking: toBooking(booking), replayed: false, item: booking };
      case 'idempotency-key-taken': {
        // A simultaneous request with the same key won the race: answer as it did.
        const earlier = idempotency && (await replay(operatorId, idempotency, now));
        return earlier ? countedReplay(earlier, operatorId) : RETRY;
      }
      case 'no-room':
        if (!('missing' in result.refusal)) countBusinessEvent('Bookings', 'refused-capacity', operatorId);
        throw noRoomOn(request, result.refusal);
      case 'reference-taken':
        reference = newBookingReference();
        return RETRY;
      case 'uuid-taken': {
        // A simultaneous request with the same UUID made its booking: answer as for a retry of it.
        const made = uuidBooking && partnerKeyId && (await lookUpUuid(operatorId, partnerKeyId, uuidBooking.uuid));
        return made ? countedReplay(uuidReplay(made, uuidBooking.requestHash), operatorId) : RETRY;
      }
      case 'hold-cap':
        countBusinessEvent('Bookings', 'refused-hold-cap', operatorId);
        throw capReached(result.change, result.held);
      case 'contended':
        return RETRY;
    }
  });
}
