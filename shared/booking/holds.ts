import { getProduct } from '../catalog/repository';
import { config } from '../core/config';
import { ValidationError } from '../core/errors';
import type { Caller } from '../core/caller';
import { partnerListens } from '../webhooks/events';
import { checkAnswers } from './answers';
import { confirm, expire } from './lifecycle';
import type { Booking, ConfirmationRequest } from './schemas';
import type { BookingItem } from './model';
import { requireOwnBooking } from './partner-bookings';
import { queryExpiredHolds } from './repository';
import { transitionBooking } from './transition';

/**
 * Holds (OCTo's reserve → confirm). A hold takes its places like any
 * booking and keeps them until HoldExpiresAt. Confirming is one conditional
 * write that succeeds only while the hold is live; the one-minute sweep
 * expires the holds that are due and gives their places back. Whichever of
 * the two reaches a hold first wins, and the other finds it moved.
 */

/** What a confirmation sets: the hold's details, completed by the confirmation. */
type Confirmation = Pick<BookingItem, 'WaiverStatus' | 'Customer' | 'Answers' | 'PaymentReference'> & { ConfirmedAt: string };

/** The hold's details completed by the confirmation: what it gives replaces what the hold had. */
async function confirmationOf(item: BookingItem, request: ConfirmationRequest, now: Date): Promise<Confirmation> {
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
  const [item, listens] = await Promise.all([requireOwnBooking(caller, reference), partnerListens(caller, 'booking.confirmed')]);
  const result = await transitionBooking(item, {
    what: 'The confirmation',
    outcome: 'confirmed',
    event: 'booking.confirmed',
    listens,
    now,
    reread: () => requireOwnBooking(caller, reference),
    step: async (current) => {
      const decision = confirm(current, now);
      if ('stay' in decision) return { answer: current };
      const confirmation = await confirmationOf(current, request, now);
      return { next: { ...current, ...confirmation, Status: decision.to }, change: decision.change };
    },
  });
  return result.booking;
}

/** Holds expired per sweep at most; what is left is due on the next sweep, a minute later. */
const PAGE = 100;
const MAX_PAGES = 50;

/** A hold due at `now` expires and gives its places back; one confirmed or cancelled meanwhile is refused by the status condition. */
const expireHold = (hold: BookingItem, now: Date) =>
  transitionBooking(hold, {
    what: 'The expiry',
    outcome: 'expired',
    event: 'hold.expired',
    now,
    // No reread: a hold moved or contended meanwhile is due again on the next sweep if it still is one.
    step: (current) => {
      const decision = expire(current, now);
      if ('stay' in decision) return { answer: current };
      return { next: { ...current, Status: decision.to, ExpiredAt: now.toISOString() }, change: decision.change };
    },
  });

/** The one-minute sweep: expires every hold due at `now` and gives its places back. Returns how many it expired. */
export async function expireDueHolds(now: Date = config().clock()): Promise<number> {
  let count = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const due = await queryExpiredHolds(now.toISOString(), PAGE);
    const expired = (await Promise.all(due.map((hold) => expireHold(hold, now)))).filter((result) => result.moved);
    count += expired.length;
    // A short page is the end; a page of nothing expirable is the index catching up with moves already made.
    if (due.length < PAGE || expired.length === 0) break;
  }
  return count;
}
