import { requireOperator } from '../accounts/operators';
import { getProduct } from '../catalog/repository';
import { config } from '../core/config';
import { NotFoundError } from '../core/errors';
import { checkedBy } from '../core/validation';
import { operatorBooking } from './operator-booking.generated';
import type { Booking, OperatorBookingInput } from './schemas';
import { checkActivityId } from './partner-bookings';
import { createBooking, partyOf, slotHours } from './create-booking';

/** The operator's own sales; its cancellations are in cancellation.ts. */

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
  const { booking } = await createBooking({ operatorId, timeZone: operator.TimeZone, channel, product, request, units, openingHours, now });
  return booking;
}
