import { getProduct } from '../catalog/repository';
import { config } from '../core/config';
import { ValidationError } from '../core/errors';
import { countBusinessEvent } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import type { Caller } from '../core/caller';
import { deliveryFor, dispatch, newDelivery, partnerListens } from '../webhooks/events';
import type { DeliveryItem } from '../webhooks/model';
import { checkAnswers } from './answers';
import { BookingCancelledError, HoldExpiredError } from './errors';
import { toBooking, type Booking, type BookingItem, type ConfirmationRequest } from './model';
import { requireOwnBooking } from './partner-bookings';
import { queryExpiredHolds, writeTransition } from './repository';
import { confirmationTransaction, releaseTransaction, type Confirmation } from './transactions';

/**
 * Holds (OCTo's reserve → confirm). A hold takes its places like any
 * booking and keeps them until HoldExpiresAt. Confirming is one conditional
 * write that succeeds only while the hold is live; the one-minute sweep
 * expires the holds that are due and gives their places back. Whichever of
 * the two reaches a hold first wins, and the other finds it moved.
 */

/** The hold's details completed by the confirmation: what it gives replaces what the hold had. */
async function completion(item: BookingItem, request: ConfirmationRequest, now: Date): Promise<Confirmation> {
  const customer = request.Customer ?? item.Customer;
  if (!customer) throw new ValidationError('is required: the hold was made without one', { field: 'Customer' });
  let waiverStatus = item.WaiverStatus;
  if (request.Answers) {
    const product = await getProduct(item.OperatorID, item.ActivityID);
    waiverStatus = checkAnswers(product?.Questions ?? [], request.Answers);
  }
  return {
    Customer: customer,
    WaiverStatus: waiverStatus,
    Answers: request.Answers ?? item.Answers,
    PaymentReference: request.PaymentReference ?? item.PaymentReference,
    ConfirmedAt: now.toISOString(),
  };
}

/** POST .../booking/{BookingReference}/confirm. Confirming a confirmed booking answers it unchanged. */
export async function confirmHold(
  caller: Caller,
  reference: string,
  request: ConfirmationRequest,
  now: Date = config().clock(),
): Promise<Booking> {
  // The partner's endpoint is read beside the booking, not after it: the confirmation waits on one read, not two.
  const [first, listens] = await Promise.all([requireOwnBooking(caller, reference), partnerListens(caller)]);
  let item = first;
  return retrying('The confirmation', async () => {
    if (item.Status === 'CONFIRMED') return toBooking(item);
    if (item.Status === 'CANCELLED') throw BookingCancelledError.of(item);
    if (item.Status === 'EXPIRED' || new Date(item.HoldExpiresAt as string) <= now) throw HoldExpiredError.of(item);
    const confirmation = await completion(item, request, now);
    const confirmed: BookingItem = { ...item, ...confirmation, Status: 'CONFIRMED' };
    const delivery = listens ? newDelivery(caller, 'booking.confirmed', toBooking(confirmed), now) : undefined;
    const outcome = await writeTransition(confirmationTransaction(item, confirmation, now, delivery));
    if (outcome === 'done') {
      countBusinessEvent('Bookings', 'confirmed', caller.operatorId);
      await dispatch([delivery]);
      return toBooking(confirmed);
    }
    // Expired, cancelled or confirmed meanwhile, or contended: look again.
    item = await requireOwnBooking(caller, reference);
    return RETRY;
  });
}

/** Holds expired per sweep at most; what is left is due on the next sweep, a minute later. */
const PAGE = 100;
const MAX_PAGES = 50;

async function expire(hold: BookingItem, now: Date): Promise<{ expired: boolean; delivery?: DeliveryItem }> {
  const expired: BookingItem = { ...hold, Status: 'EXPIRED', ExpiredAt: now.toISOString() };
  const delivery =
    hold.Channel === 'ota' && hold.PartnerKeyID
      ? await deliveryFor({ operatorId: hold.OperatorID, keyId: hold.PartnerKeyID }, 'hold.expired', toBooking(expired), now)
      : undefined;
  // A hold confirmed or cancelled meanwhile is refused by the status condition; a contended one is due again next sweep.
  const outcome = await writeTransition(releaseTransaction(hold, { to: 'EXPIRED', at: now.toISOString() }, delivery));
  if (outcome !== 'done') return { expired: false };
  countBusinessEvent('Bookings', 'expired', hold.OperatorID);
  return { expired: true, delivery };
}

/** The one-minute sweep: expires every hold due at `now` and gives its places back. Returns how many it expired. */
export async function expireDueHolds(now: Date = config().clock()): Promise<number> {
  let count = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const due = await queryExpiredHolds(now.toISOString(), PAGE);
    const results = await Promise.all(due.map((hold) => expire(hold, now)));
    const expired = results.filter((result) => result.expired);
    await dispatch(expired.map((result) => result.delivery));
    count += expired.length;
    // A short page is the end; a page of nothing expirable is the index catching up with moves already made.
    if (due.length < PAGE || expired.length === 0) break;
  }
  return count;
}
