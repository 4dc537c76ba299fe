import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { countBusinessEvent, type Outcome } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { dispatch, newDelivery, partnerListens } from '../webhooks/events';
import type { DeliveryItem, WebhookEventType } from '../webhooks/model';
import type { Booking } from './schemas';
import { toBooking, type BookingItem } from './model';
import { writeTransition } from './repository';

/**
 * The one way a booking changes once it exists (confirmed, cancelled,
 * expired, ...): one conditional transaction that moves the booking, gives
 * back or moves its places, and writes the event its partner hears of, all
 * or nothing. The booking's status condition lets each move happen once
 * however many requests and sweeps race; a move that lost a race reads the
 * booking again and decides afresh.
 */

/** What a transition does to the booking as it is now. */
export type Step =
  /** Nothing to write: the booking is already where the request wants it (a retried confirmation, a second cancellation). */
  | { answer: BookingItem }
  | {
      /** The booking as it will be. */
      moved: BookingItem;
      /** The transaction of the move, with the partner's delivery when it has one. */
      transaction: (delivery?: DeliveryItem) => TransactWriteCommandInput;
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
  now: Date;
}

export interface TransitionResult {
  booking: Booking;
  /** False when nothing was written: the answer was already so, or (without `reread`) the booking moved meanwhile. */
  moved: boolean;
  /** The written event, not yet queued: `dispatch` it, or let `transitionBooking` do so. */
  delivery?: DeliveryItem;
}

/** The partner who sold a booking (through the partner API or OCTo) hears of what happens to it. */
const sellerOf = (item: BookingItem) =>
  item.Channel === 'ota' && item.PartnerKeyID ? { operatorId: item.OperatorID, keyId: item.PartnerKeyID } : undefined;

async function eventFor(transition: Transition, moved: BookingItem): Promise<DeliveryItem | undefined> {
  const seller = sellerOf(moved);
  if (!transition.event || !seller) return undefined;
  const listens = transition.listens ?? (await partnerListens(seller));
  return listens ? newDelivery(seller, transition.event, toBooking(moved), transition.now) : undefined;
}

/** Runs a transition and leaves its delivery for the caller to queue (a sweep queues many at once). */
export async function moveBooking(item: BookingItem, transition: Transition): Promise<TransitionResult> {
  let current = item;
  return retrying(transition.what, async () => {
    const step = await transition.step(current);
    if ('answer' in step) return { booking: toBooking(step.answer), moved: false };
    const delivery = await eventFor(transition, step.moved);
    const outcome = await writeTransition(step.transaction(delivery));
    if (outcome === 'done') {
      countBusinessEvent('Bookings', transition.outcome, current.OperatorID);
      return { booking: toBooking(step.moved), moved: true, delivery };
    }
    if (!transition.reread) return { booking: toBooking(current), moved: false };
    // Moved meanwhile by a simultaneous request or sweep, or contended: look again.
    current = await transition.reread();
    return RETRY;
  });
}

/** Runs a transition and queues its delivery: the booking as the request's answer. */
export async function transitionBooking(item: BookingItem, transition: Transition): Promise<Booking> {
  const result = await moveBooking(item, transition);
  await dispatch([result.delivery]);
  return result.booking;
}
