import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import { cancel, type Canceller } from './lifecycle';
import type { BookingItem } from './model';
import { normaliseReference } from './reference';
import { getBooking } from './repository';
import { CANCELLATION_REASON, VISIBLE_TEXT_PATTERN } from './constants';
import type { Booking } from './schemas';
import { transitionBooking, type TransitionResult } from './transition';

/**
 * Cancelling, by a partner or by the operator: one transaction moves the
 * booking (held or confirmed) to CANCELLED and gives its places back. A
 * cancelled booking, or a hold that has already expired, is answered as it
 * is: its places are already back (lifecycle.ts decides).
 */
export interface CancelOptions {
  canceller: Canceller;
  reason?: string;
  now: Date;
  /** Reads the booking afresh (after a lost race), with the caller's own visibility rules. */
  read: () => Promise<BookingItem>;
  /** Whether the partner listens, when already known (one read per partner for many cancellations). */
  listens?: boolean;
  /** Cancels the booking only while it is on this timeslot: one moved away meanwhile is left as it is. */
  onTimeslot?: Pick<BookingItem, 'ActivityID' | 'Date' | 'Time'>;
}

const elsewhere = (item: BookingItem, slot: CancelOptions['onTimeslot']) =>
  slot !== undefined && (item.ActivityID !== slot.ActivityID || item.Date !== slot.Date || item.Time !== slot.Time);

export function cancelBooking(item: BookingItem, options: CancelOptions): Promise<TransitionResult> {
  const { canceller, now } = options;
  return transitionBooking(item, {
    what: 'The cancellation',
    outcome: 'cancelled',
    // The partner who sold it hears of a cancellation it did not make itself.
    event: canceller.by === 'operator' ? 'booking.cancelled' : undefined,
    listens: options.listens,
    now,
    reread: options.read,
    step: (current) => {
      if (elsewhere(current, options.onTimeslot)) return { answer: current };
      const decision = cancel(current, now, canceller);
      if ('stay' in decision) return { answer: current };
      return {
        next: {
          ...current,
          Status: decision.to,
          CancelledAt: now.toISOString(),
          CancelledBy: canceller.by,
          ...(options.reason ? { CancellationReason: options.reason } : {}),
        },
        change: decision.change,
      };
    },
  });
}

/** A partner's cancellation of one of its bookings, until its timeslot starts; `reason` when the partner gave one. */
export function cancelPartnerItem(
  caller: Pick<Caller, 'timeZone'>,
  item: BookingItem,
  options: { now: Date; read: () => Promise<BookingItem>; reason?: string },
): Promise<TransitionResult> {
  return cancelBooking(item, { ...options, canceller: { by: 'partner', timeZone: caller.timeZone } });
}

/**
 * The operator cancels any booking of any channel, held or confirmed, at
 * any time (a storm, a broken boat, a no-show), with a reason the partner
 * sees. The partner who sold an `ota` booking is sent `booking.cancelled`.
 */
const reasonPattern = new RegExp(VISIBLE_TEXT_PATTERN);

export async function cancelOperatorBooking(
  operatorId: string,
  reference: string,
  reason: string,
  now: Date = config().clock(),
): Promise<Booking> {
  // The HTTP body's schema says the same; the admin CLI has no schema in front of it.
  if (reason.length > CANCELLATION_REASON.maxLength || !reasonPattern.test(reason)) {
    throw new ValidationError(CANCELLATION_REASON.rule, { field: 'Reason' });
  }
  const read = async () => {
    const item = await getBooking(operatorId, normaliseReference(reference));
    if (!item) throw new NotFoundError(`No booking has reference '${reference}'`);
    return item;
  };
  return (await cancelBooking(await read(), { canceller: { by: 'operator' }, reason, now, read })).booking;
}
