import { requireOperator } from '../accounts/operators';
import { getProduct } from '../catalog/repository';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import { checkedBy } from '../core/validation';
import { cancelBooking } from './cancellation';
import { operatorBooking } from './operator-booking.generated';
import { cancellationReasonSchema, type Booking, type OperatorBookingInput } from './schemas';
import { checkActivityId } from './partner-bookings';
import { partyOf, place, slotHours } from './placement';
import { normaliseReference } from './reference';
import { getBooking } from './repository';

/** The operator's side of bookings: its own sales, and cancelling any booking of any channel. */

const validateOperatorBooking = checkedBy<OperatorBookingInput>(operatorBooking, 'The booking');

/**
 * A booking the operator records itself: an `online` sale of its own shop or
 * a `pos` sale at the till. Unlike partners, the operator may book hidden
 * activities and timeslots that have already started (a walk-in at the door,
 * or a sale entered after the fact).
 */
export async function recordOperatorBooking(operatorId: string, input: unknown, now: Date = config().clock()): Promise<Booking> {
  const { Channel: channel, ...request } = validateOperatorBooking(input);
  checkActivityId(request.ActivityID);
  const operator = await requireOperator(operatorId);
  const product = await getProduct(operatorId, request.ActivityID);
  if (!product) throw new NotFoundError(`No activity has ActivityID '${request.ActivityID}'`);
  const units = partyOf(product, request);
  const openingHours = await slotHours(operatorId, product, request);
  const { booking } = await place({ operatorId, timeZone: operator.TimeZone, channel, product, request, units, openingHours, now });
  return booking;
}

/**
 * The operator cancels any booking of any channel, held or confirmed, at
 * any time (a storm, a broken boat, a no-show), with a reason the partner
 * sees. The partner who sold an `ota` booking is sent `booking.cancelled`.
 */
const reasonPattern = new RegExp(cancellationReasonSchema.pattern);

export async function cancelOperatorBooking(
  operatorId: string,
  reference: string,
  reason: string,
  now: Date = config().clock(),
): Promise<Booking> {
  // The HTTP body's schema says the same; the admin CLI has no schema in front of it.
  if (reason.length > cancellationReasonSchema.maxLength || !reasonPattern.test(reason)) {
    throw new ValidationError(cancellationReasonSchema.errorMessage, { field: 'Reason' });
  }
  const read = async () => {
    const item = await getBooking(operatorId, normaliseReference(reference));
    if (!item) throw new NotFoundError(`No booking has reference '${reference}'`);
    return item;
  };
  return (await cancelBooking(await read(), { by: 'operator', reason, now, read })).booking;
}
