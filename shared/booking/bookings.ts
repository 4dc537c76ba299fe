import { activityNotFound, requireActivity } from '../catalog/products';
import { ACTIVITY_ID_PATTERN, type ProductItem } from '../catalog/model';
import { ACTIVITY_ID_RULE } from '../catalog/schemas';
import { getProduct } from '../catalog/repository';
import type { Caller } from '../core/caller';
import { CapacityError, InvalidRequestError, ConflictError, NotFoundError, ValidationError } from '../core/errors';
import { compileValidator } from '../core/validation';
import { countBusinessEvent } from '../core/metrics';
import { requireOperator } from '../accounts/operators';
import { wallClock, zonedIso } from '../core/calendar';
import { checkAnswers } from './answers';
import { checkIdempotencyKey, hashIdempotencyKey, idempotencyKeyReused, isLive, requestHash } from '../core/idempotency';
import { IDEMPOTENCY_TTL_SECONDS, type IdempotencyRecord } from './idempotency';
import { CHANNELS, toBooking, type Booking, type BookingItem, type BookingRequest, type Channel, type OperatorChannel } from './model';
import { newBookingReference, normaliseReference } from './reference';
import { getBooking, getIdempotencyRecord, writeBooking, writeCancellation } from './repository';
import { bookingRequestProperties, bookingRequestRequired } from './request-schema';

/**
 * Bookings of every channel. Partners book through the OTA API (`ota`); the
 * operator records its own `online` and `pos` bookings. All of them take
 * places from the same timeslots by the same transaction.
 */

/** Attempts at the booking transaction before giving up with a 500 (each retry has a fresh cause: contention, a reference collision). */
const MAX_WRITE_ATTEMPTS = 8;
const BACKOFF_CAP_MS = 500;

const activityIdPattern = new RegExp(ACTIVITY_ID_PATTERN);

export interface BookingResult {
  booking: Booking;
  /** True when an Idempotency-Key matched an earlier booking and its original response is returned. */
  replayed: boolean;
}

interface IdempotencyContext {
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

/** Full jitter: contending writers spread out instead of colliding again in step. */
const backoff = (attempt: number) =>
  new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(BACKOFF_CAP_MS, 10 * 2 ** attempt)));

function checkActivityId(activityId: string): void {
  if (!activityIdPattern.test(activityId)) {
    throw new InvalidRequestError(ACTIVITY_ID_RULE, { field: 'ActivityID' });
  }
}

function checkParticipants(product: ProductItem, participants: number): void {
  if (participants > product.MaxParticipantsPerBooking) {
    throw new ValidationError(`is ${participants}; activity ${product.ActivityID} takes at most ${product.MaxParticipantsPerBooking} per booking`, {
      field: 'Participants',
    });
  }
}

/** Dates and times are the operator's wall clock; a timeslot can be booked until the minute it starts. */
function checkNotStarted(request: BookingRequest, timeZone: string, now: Date): void {
  const { date: today, time: nowTime } = wallClock(timeZone, now);
  if (request.Date < today) throw new ValidationError(`${request.Date} is in the past (today is ${today} in ${timeZone})`, { field: 'Date' });
  if (request.Date === today && request.Time <= nowTime) {
    throw new ValidationError(`${request.Time} has already started (it is ${nowTime} in ${timeZone})`, { field: 'Time' });
  }
}

const noSuchTimeslot = (request: BookingRequest) =>
  new ValidationError(`${request.Time} is not a timeslot of activity ${request.ActivityID} on ${request.Date}`, { field: 'Time' });

export const insufficientCapacity = (request: Pick<BookingRequest, 'Date' | 'Time' | 'Participants'>, vacancies: number) =>
  new CapacityError(
    `The timeslot ${request.Date} ${request.Time} has ${Math.max(0, vacancies)} place(s) left; ${request.Participants} were requested`,
  );

export const tooLateToCancel = (booking: Pick<BookingItem, 'BookingReference' | 'StartsAt'>) =>
  new ConflictError(`Booking '${booking.BookingReference}' can no longer be cancelled: its timeslot started at ${booking.StartsAt}`);

export function bookingItem(placement: Placement, reference: string, waiverStatus: Booking['WaiverStatus']): BookingItem {
  const { request, product, timeZone, now } = placement;
  return {
    OperatorID: placement.operatorId,
    BookingReference: reference,
    Status: 'CONFIRMED',
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
    Customer: request.Customer,
    WaiverStatus: waiverStatus,
    ...(request.Answers ? { Answers: request.Answers } : {}),
    CreatedAt: now.toISOString(),
  };
}

/** What a key remembers of the booking it made: the request's hash and the original response. */
export const idempotencyRecord = (booking: BookingItem, requestHash: string, now: Date): IdempotencyRecord => ({
  RequestHash: requestHash,
  BookingReference: booking.BookingReference,
  Response: JSON.stringify(toBooking(booking)),
  CreatedAt: booking.CreatedAt,
  ExpiresAt: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
});

/** The original response for a live record of this key; a 422 when the key came with another body. */
async function replay(operatorId: string, idempotency: IdempotencyContext, now: Date): Promise<BookingResult | undefined> {
  const record = await getIdempotencyRecord(operatorId, idempotency.keyId, idempotency.keyHash);
  if (!record || !isLive(record, now)) return undefined;
  if (record.RequestHash !== idempotency.requestHash) {
    throw idempotencyKeyReused(`booking ${record.BookingReference}`);
  }
  return { booking: JSON.parse(record.Response) as Booking, replayed: true };
}

const replayed = (result: BookingResult, operatorId: string): BookingResult => {
  countBusinessEvent('Bookings', 'replayed', operatorId);
  return result;
};

/** Writes the booking, its places and its idempotency record in one transaction, retrying only what a retry can fix. */
async function place(placement: Placement): Promise<BookingResult> {
  const { request, idempotency, operatorId, now } = placement;
  const waiverStatus = checkAnswers(placement.product.Questions, request.Answers);
  let reference = newBookingReference();
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    const booking = bookingItem(placement, reference, waiverStatus);
    const record = idempotency && idempotencyRecord(booking, idempotency.requestHash, now);
    const result = await writeBooking({
      booking,
      ...(idempotency && record ? { idempotency: { keyId: idempotency.keyId, keyHash: idempotency.keyHash, record, now } } : {}),
    });
    switch (result.outcome) {
      case 'written':
        countBusinessEvent('Bookings', 'created', operatorId);
        return { booking: toBooking(booking), replayed: false };
      case 'idempotency-key-taken': {
        // A simultaneous request with the same key won the race: answer as it did.
        const earlier = idempotency && (await replay(operatorId, idempotency, now));
        if (earlier) return replayed(earlier, operatorId);
        break;
      }
      case 'timeslot-missing':
        throw noSuchTimeslot(request);
      case 'timeslot-full':
        countBusinessEvent('Bookings', 'refused-capacity', operatorId);
        throw insufficientCapacity(request, result.vacancies);
      case 'reference-taken':
        reference = newBookingReference();
        break;
      case 'contended':
        await backoff(attempt);
        break;
    }
  }
  throw new Error(`The booking transaction did not settle in ${MAX_WRITE_ATTEMPTS} attempts`);
}

/** POST /ota/marketplace/booking: a partner books a timeslot of a visible activity. */
export async function createPartnerBooking(
  caller: Caller,
  request: BookingRequest,
  idempotencyKey?: string,
  now = new Date(),
): Promise<BookingResult> {
  checkActivityId(request.ActivityID);
  let idempotency: IdempotencyContext | undefined;
  if (idempotencyKey !== undefined) {
    checkIdempotencyKey(idempotencyKey);
    idempotency = { keyId: caller.keyId, keyHash: hashIdempotencyKey(idempotencyKey), requestHash: requestHash(request) };
    // A retry is answered from the record even when the timeslot has since filled up or started.
    const earlier = await replay(caller.operatorId, idempotency, now);
    if (earlier) return replayed(earlier, caller.operatorId);
  }
  const product = await requireActivity(caller, request.ActivityID);
  checkParticipants(product, request.Participants);
  checkNotStarted(request, caller.timeZone, now);
  return place({
    operatorId: caller.operatorId,
    timeZone: caller.timeZone,
    channel: 'ota',
    partnerKeyId: caller.keyId,
    product,
    request,
    idempotency,
    now,
  });
}

export interface OperatorBookingInput extends BookingRequest {
  Channel: OperatorChannel;
}

const validateOperatorBooking = compileValidator<OperatorBookingInput>(
  {
    type: 'object',
    additionalProperties: false,
    required: ['Channel', ...bookingRequestRequired],
    properties: {
      Channel: { type: 'string', enum: CHANNELS.filter((channel) => channel !== 'ota'), errorMessage: "must be 'online' or 'pos'" },
      ...bookingRequestProperties,
    },
  },
  'The booking',
);

/**
 * A booking the operator records itself: an `online` sale of its own shop or
 * a `pos` sale at the till. Unlike partners, the operator may book hidden
 * activities and timeslots that have already started (a walk-in at the door,
 * or a sale entered after the fact).
 */
export async function recordOperatorBooking(operatorId: string, input: unknown, now = new Date()): Promise<Booking> {
  const { Channel: channel, ...request } = validateOperatorBooking(input);
  checkActivityId(request.ActivityID);
  const operator = await requireOperator(operatorId);
  const product = await getProduct(operatorId, request.ActivityID);
  if (!product) throw activityNotFound(request.ActivityID);
  checkParticipants(product, request.Participants);
  const { booking } = await place({ operatorId, timeZone: operator.TimeZone, channel, product, request, now });
  return booking;
}

/** A partner sees its own bookings only: another key's, another channel's and another operator's are unknown to it. */
async function requireOwnBooking(caller: Caller, reference: string): Promise<BookingItem> {
  const item = await getBooking(caller.operatorId, normaliseReference(reference));
  if (!item || item.Channel !== 'ota' || item.PartnerKeyID !== caller.keyId) {
    throw new NotFoundError(`No booking has reference '${reference}'`);
  }
  return item;
}

export async function getPartnerBooking(caller: Caller, reference: string): Promise<Booking> {
  return toBooking(await requireOwnBooking(caller, reference));
}

/**
 * Cancels a partner's booking and gives its places back in one transaction.
 * Cancelling a cancelled booking answers with it unchanged. A booking whose
 * timeslot has started can no longer be cancelled (409).
 */
export async function cancelPartnerBooking(caller: Caller, reference: string, now = new Date()): Promise<Booking> {
  let item = await requireOwnBooking(caller, reference);
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt += 1) {
    if (item.Status === 'CANCELLED') return toBooking(item);
    const { date: today, time: nowTime } = wallClock(caller.timeZone, now);
    if (item.Date < today || (item.Date === today && item.Time <= nowTime)) {
      throw tooLateToCancel(item);
    }
    const cancelledAt = now.toISOString();
    const outcome = await writeCancellation(item, cancelledAt);
    if (outcome === 'cancelled') {
      countBusinessEvent('Bookings', 'cancelled', caller.operatorId);
      return toBooking({ ...item, Status: 'CANCELLED', CancelledAt: cancelledAt });
    }
    if (outcome === 'contended') await backoff(attempt);
    // Cancelled meanwhile by a simultaneous request, or contended: look again.
    item = await requireOwnBooking(caller, reference);
  }
  throw new Error(`The cancellation did not settle in ${MAX_WRITE_ATTEMPTS} attempts`);
}
