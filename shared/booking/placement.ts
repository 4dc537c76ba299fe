import type { ProductItem } from '../catalog/model';
import { wallClock, zonedIso } from '../core/calendar';
import { CapacityError, ValidationError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { expiresAt, replayable } from '../core/idempotency';
import { RETRY, retrying } from '../core/retry';
import { timeslotStarted } from '../catalog/timeslot-start';
import { checkAnswers } from './answers';
import type { Booking, BookingRequest } from './schemas';
import { HOLD_MINUTES, IDEMPOTENCY_TTL_SECONDS, toBooking, type BookingItem, type Channel, type IdempotencyRecord } from './model';
import { newBookingReference } from './reference';
import { getIdempotencyRecord, writeBooking } from './repository';

/**
 * Placing a booking: the one path by which every channel takes places.
 * The booking, its places and its idempotency record are written in one
 * transaction; only what a retry can fix (contention, a reference that
 * collided) is retried.
 */

export interface BookingResult {
  booking: Booking;
  /** True when an Idempotency-Key matched an earlier booking and its original response is returned. */
  replayed: boolean;
}

export interface IdempotencyContext {
  keyId: string;
  keyHash: string;
  requestHash: string;
}

/** Everything a booking is made of once the request has been checked. */
export interface Placement {
  operatorId: string;
  timeZone: string;
  channel: Channel;
  partnerKeyId?: string;
  product: ProductItem;
  request: BookingRequest;
  idempotency?: IdempotencyContext;
  now: Date;
}

export function checkParticipants(product: ProductItem, participants: number): void {
  if (participants > product.MaxParticipantsPerBooking) {
    throw new ValidationError(
      `is ${participants}; activity ${product.ActivityID} takes at most ${product.MaxParticipantsPerBooking} per booking`,
      {
        field: 'Participants',
      },
    );
  }
}

/** Dates and times are the operator's wall clock; a timeslot can be booked until the minute it starts. */
export function checkNotStarted(request: BookingRequest, timeZone: string, now: Date): void {
  if (!timeslotStarted(request, timeZone, now)) return;
  const { date: today, time } = wallClock(timeZone, now);
  if (request.Date < today)
    throw new ValidationError(`${request.Date} is in the past (today is ${today} in ${timeZone})`, { field: 'Date' });
  throw new ValidationError(`${request.Time} has already started (it is ${time} in ${timeZone})`, { field: 'Time' });
}

const noSuchTimeslot = (request: BookingRequest) =>
  new ValidationError(`${request.Time} is not a timeslot of activity ${request.ActivityID} on ${request.Date}`, { field: 'Time' });

export const insufficientCapacity = (request: Pick<BookingRequest, 'Date' | 'Time' | 'Participants'>, vacancies: number) =>
  new CapacityError(
    `The timeslot ${request.Date} ${request.Time} has ${Math.max(0, vacancies)} place(s) left; ${request.Participants} were requested`,
  );

export function bookingItem(placement: Placement, reference: string, waiverStatus: Booking['WaiverStatus']): BookingItem {
  const { request, product, timeZone, now } = placement;
  const holdMinutes = request.Hold ? (request.Hold.ExpiresInMinutes ?? HOLD_MINUTES.default) : undefined;
  return {
    OperatorID: placement.operatorId,
    BookingReference: reference,
    Status: holdMinutes === undefined ? 'CONFIRMED' : 'ON_HOLD',
    Channel: placement.channel,
    ...(placement.partnerKeyId ? { PartnerKeyID: placement.partnerKeyId } : {}),
    ...(request.PaymentReference ? { PaymentReference: request.PaymentReference } : {}),
    ActivityID: product.ActivityID,
    ProductID: product.ProductID,
    ActivityName: product.Name,
    Date: request.Date,
    Time: request.Time,
    StartsAt: zonedIso(request.Date, request.Time, timeZone),
    Participants: request.Participants,
    TotalPrice: { Amount: product.PricePerParticipant.Amount * request.Participants, Currency: product.PricePerParticipant.Currency },
    ...(request.Customer ? { Customer: request.Customer } : {}),
    WaiverStatus: waiverStatus,
    ...(request.Answers ? { Answers: request.Answers } : {}),
    CreatedAt: now.toISOString(),
    ...(holdMinutes === undefined ? {} : { HoldExpiresAt: new Date(now.getTime() + holdMinutes * 60_000).toISOString() }),
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

/** The original response for a live record of this key; refused when the key came with another body. */
export async function replay(operatorId: string, idempotency: IdempotencyContext, now: Date): Promise<BookingResult | undefined> {
  const record = replayable(
    await getIdempotencyRecord(operatorId, idempotency.keyId, idempotency.keyHash),
    idempotency,
    now,
    (earlier) => `booking ${earlier.BookingReference}`,
  );
  return record && { booking: JSON.parse(record.Response) as Booking, replayed: true };
}

/** An Idempotency-Key answered again, counted as such. */
export function countedReplay(result: BookingResult, operatorId: string): BookingResult {
  countBusinessEvent('Bookings', 'replayed', operatorId);
  return result;
}

/** Writes the booking, its places and its idempotency record in one transaction. */
export async function place(placement: Placement): Promise<BookingResult> {
  const { request, idempotency, operatorId, now } = placement;
  const waiverStatus = checkAnswers(placement.product.Questions, request.Answers);
  let reference = newBookingReference();
  return retrying('The booking transaction', async () => {
    const booking = bookingItem(placement, reference, waiverStatus);
    const record = idempotency && idempotencyRecord(booking, idempotency.requestHash, now);
    const result = await writeBooking({
      booking,
      ...(idempotency && record ? { idempotency: { keyId: idempotency.keyId, keyHash: idempotency.keyHash, record, now } } : {}),
    });
    switch (result.outcome) {
      case 'written':
        countBusinessEvent('Bookings', booking.Status === 'ON_HOLD' ? 'held' : 'created', operatorId);
        return { booking: toBooking(booking), replayed: false };
      case 'idempotency-key-taken': {
        // A simultaneous request with the same key won the race: answer as it did.
        const earlier = idempotency && (await replay(operatorId, idempotency, now));
        return earlier ? countedReplay(earlier, operatorId) : RETRY;
      }
      case 'timeslot-missing':
        throw noSuchTimeslot(request);
      case 'timeslot-full':
        countBusinessEvent('Bookings', 'refused-capacity', operatorId);
        throw insufficientCapacity(request, result.vacancies);
      case 'reference-taken':
        reference = newBookingReference();
        return RETRY;
      case 'contended':
        return RETRY;
    }
  });
}
