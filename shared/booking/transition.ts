import { countBusinessEvent, type Outcome } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { newDelivery, partnerListens } from '../webhooks/events';
import type { DeliveryItem, WebhookEventType } from '../webhooks/model';
import type { Booking } from './schemas';
import { toBooking, type BookingItem } from './model';
import { writeTransition, type SlotRefusal } from './repository';
import type { Change } from './lifecycle';
import { changeTransaction, changed } from './transactions';
import { capReached } from './held-places';
import type { HoldCaps } from '../accounts/hold-caps';
import { PARTNER_CHANNEL } from './constants';

/**
 * The one way a booking changes once it exists (confirmed, cancelled,
 * expired, extended, moved to another timeslot or product, given other
 * units, ...), as its lifecycle decides (lifecycle.ts): one conditional
 * transaction (transactions.ts) that changes
 * the booking, gives back, takes or moves its places, and writes the event
 * its partner hears of, all or nothing. The booking's version condition lets
 * each change happen once however many requests and sweeps race; a change
 * that lost a race reads the booking again and decides afresh.
 */

/** What a transition does to the booking as it is now. */
export type Step =
  /** Nothing to write: the booking is already where the request wants it (a retried confirmation, a second cancellation). */
  | { answer: BookingItem }
  | {
      /** The booking as it will be (its Version and UpdatedAt follow). */
      next: Omit<BookingItem, 'Version' | 'UpdatedAt'>;
      /** What the booking must still be for the change, besides its version. */
      change: Change;
    };

export interface Transition {
  /** Names the operation in the error raised when it cannot settle. */
  what: string;
  /** Decides the step from the booking as it is now; throws when the move is refused. */
  step: (current: BookingItem) => Step | Promise<Step>;
  /** Counted under `Bookings` when the move is written. */
  outcome: Outcome<'Bookings'>;
  /** The event the booking's partner hears of; none when the partner made the change itself and is answered directly. */
  event?: WebhookEventType;
  /** Whether the partner listens, when already known (read beside the booking); otherwise it is read when needed. */
  listens?: boolean;
  /** Reads the booking afresh after a lost race; without it a lost race ends the transition unmoved (a sweep tries next time). */
  reread?: () => Promise<BookingItem>;
  /** The refusal when the timeslot the change takes places on gave none (too few left, closed, or missing). */
  noRoom?: (next: BookingItem, refusal: SlotRefusal) => Error;
  /** The caps of the key whose holds the change may grow (a partner's own move of its hold); the defaults when absent. */
  holdCaps?: HoldCaps;
  now: Date;
}

export interface TransitionResult {
  booking: Booking;
  /** False when nothing was written: the answer was already so, or (without `reread`) the booking moved meanwhile. */
  moved: boolean;
  /** The booking item as it is now. */
  item: BookingItem;
}

/** The partner who sold a booking (through the partner API or OCTo) hears of what happens to it. */
const sellerOf = (item: BookingItem) =>
  item.Channel === PARTNER_CHANNEL && item.PartnerKeyID ? { operatorId: item.OperatorID, keyId: item.PartnerKeyID } : undefined;

async function eventFor(transition: Transition, moved: BookingItem): Promise<DeliveryItem | undefined> {
  const seller = sellerOf(moved);
  if (!transition.event || !seller) return undefined;
  const listens = transition.listens ?? (await partnerListens(seller, transition.event));
  return listens ? newDelivery(seller, transition.event, toBooking(moved), transition.now) : undefined;
}

/** Runs a transition, writing its event's delivery with it; the result keeps the booking item, for faces that render more of it. */
export async function transitionBooking(item: BookingItem, transition: Transition): Promise<TransitionResult> {
  let current = item;
  return retrying(transition.what, async () => {
    const step = await transition.step(current);
    if ('answer' in step) return { booking: toBooking(step.answer), moved: false, item: step.answer };
    const next = changed(current, step.next, step.change.at);
    const delivery = await eventFor(transition, next);
    const written = await writeTransition(changeTransaction(current, next, step.change, { delivery, holdCaps: transition.holdCaps }));
    if (written.outcome === 'done') {
      countBusinessEvent('Bookings', transition.outcome, current.OperatorID);
      return { booking: toBooking(next), moved: true, item: next };
    }
    if (written.outcome === 'hold-cap') throw capReached(written.change, written.held);
    if (written.outcome === 'no-room') {
      if (!transition.noRoom) throw new Error(`${transition.what} found no room on a timeslot it did not mean to take places on`);
      throw transition.noRoom(next, written.refusal);
    }
    if (!transition.reread) return { booking: toBooking(current), moved: false, item: current };
    // Moved meanwhile by a simultaneous request or sweep, or contended: look again.
    current = await transition.reread();
    return RETRY;
  });
}
