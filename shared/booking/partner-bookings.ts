import { requireActivity } from '../catalog/products';
import { ACTIVITY_ID_PATTERN, ACTIVITY_ID_RULE } from '../catalog/constants';
import { config } from '../core/config';
import { InvalidRequestError, NotFoundError, ValidationError } from '../core/errors';
import { checkIdempotencyKey, hashIdempotencyKey, requestHash } from '../core/idempotency';
import type { Caller } from '../core/caller';
import { cancelPartnerItem } from './cancellation';
import type { Booking, BookingRequest } from './schemas';
import { toBooking, type BookingItem } from './model';
import {
  checkNotStarted,
  countedReplay,
  partyOf,
  createBooking,
  replay,
  slotHours,
  type BookingResult,
  type IdempotencyContext,
} from './create-booking';
import { normaliseReference } from './reference';
import { getBooking } from './repository';
import { PARTNER_CHANNEL } from './constants';

/** The partner API's bookings: made, held, read and cancelled by one partner key, which sees only its own. */

const activityIdPattern = new RegExp(ACTIVITY_ID_PATTERN);

/** A malformed ActivityID is a bad address (400), unlike a missing one (422 from the schema). */
export function checkActivityId(activityId: string): void {
  if (!activityIdPattern.test(activityId)) {
    throw new InvalidRequestError(ACTIVITY_ID_RULE, { field: 'ActivityID' });
  }
}

/** POST /ota/marketplace/booking: a partner books (or holds) a timeslot of a visible activity. */
export async function createPartnerBooking(
  caller: Caller,
  request: BookingRequest,
  idempotencyKey?: string,
  now: Date = config().clock(),
): Promise<BookingResult> {
  checkActivityId(request.ActivityID);
  if (!request.Hold && !request.Customer)
    throw new ValidationError('is required (only a hold may leave it for the confirmation)', { field: 'Customer' });
  let idempotency: IdempotencyContext | undefined;
  if (idempotencyKey !== undefined) {
    checkIdempotencyKey(idempotencyKey);
    idempotency = { keyId: caller.keyId, keyHash: hashIdempotencyKey(idempotencyKey), requestHash: requestHash(request) };
    // A retry is answered from the record even when the timeslot has since filled up or started.
    const earlier = await replay(caller.operatorId, idempotency, now);
    if (earlier) return countedReplay(earlier, caller.operatorId);
  }
  const product = await requireActivity(caller, request.ActivityID);
  const units = partyOf(product, request);
  const openingHours = await slotHours(caller.operatorId, product, request);
  checkNotStarted({ ...request, OpeningHours: openingHours }, caller.timeZone, now);
  return createBooking({
    operatorId: caller.operatorId,
    timeZone: caller.timeZone,
    channel: PARTNER_CHANNEL,
    partnerKeyId: caller.keyId,
    product,
    request,
    units,
    openingHours,
    idempotency,
    holdCaps: caller.holdCaps,
    now,
  });
}

/** A partner sees its own bookings only: another key's, another channel's and another operator's are unknown to it. */
export async function requireOwnBooking(caller: Caller, reference: string): Promise<BookingItem> {
  const item = await getBooking(caller.operatorId, normaliseReference(reference));
  if (!item || item.Channel !== PARTNER_CHANNEL || item.PartnerKeyID !== caller.keyId) {
    throw new NotFoundError(`No booking has reference '${reference}'`);
  }
  return item;
}

export async function getPartnerBooking(caller: Caller, reference: string): Promise<Booking> {
  return toBooking(await requireOwnBooking(caller, reference));
}

/**
 * Cancels a partner's booking, held or confirmed, and gives its places back
 * at once. A booking whose timeslot has started can no longer be cancelled.
 */
export async function cancelPartnerBooking(caller: Caller, reference: string, now: Date = config().clock()): Promise<Booking> {
  return (
    await cancelPartnerItem(caller, await requireOwnBooking(caller, reference), { now, read: () => requireOwnBooking(caller, reference) })
  ).booking;
}
