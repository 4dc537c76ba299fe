import { timeslotStarted } from '../catalog/timeslot-start';
import type { Caller } from '../core/caller';
import { config } from '../core/config';
import { NotFoundError, ValidationError } from '../core/errors';
import { TimeslotStartedError } from './errors';
import type { BookingItem } from './model';
import { normaliseReference } from './reference';
import { getBooking } from './repository';
import { CANCELLATION_REASON, VISIBLE_TEXT_PATTERN } from './constants';
import type { Booking, CancelledBy } from './schemas';
import { changeBooking, type TransitionResult } from './transition';

/**
 * Cancelling, by a partner or by the operator: one transaction moves the
 * booking (held or confirmed) to CANCELLED and gives its places back. A
 * cancelled booking, or a hold that has already expired, is answered as it
 * is: its places are already back.
 */
export interface CancelOptions {
  by: CancelledBy;
  reason?: string;
  now: Date;
  /** Reads the booking afresh (after a lost race), with the caller's own visibility rules. */
  read: () => Promise<BookingItem>;
  /** A rule this caller's cancellation must meet (a partner's: the timeslot has not started). */
  check?: (item: BookingItem) => void;
}

export function cancelBooking(item: BookingItem, options: CancelOptions): Promise<TransitionResult> {
  const at = options.now.toISOString();
  return changeBooking(item, {
    what: 'The cancellation',
    outcome: 'cancelled',
    // The partner who sold it hears of a cancellation it did not make itself.
    event: options.by === 'operator' ? 'booking.cancelled' : undefined,
    now: options.now,
    reread: options.read,
    step: (current) => {
      if (current.Status === 'CANCELLED' || current.Status === 'EXPIRED') return { answer: current };
      options.check?.(current);
      return {
        next: {
          ...current,
          Status: 'CANCELLED',
          CancelledAt: at,
          CancelledBy: options.by,
          ...(options.reason ? { CancellationReason: options.reason } : {}),
        },
        change: { condition: '#status IN (:held, :confirmed)', values: { ':held': 'ON_HOLD', ':confirmed': 'CONFIRMED' }, at },
      };
    },
  });
}

/** A partner's cancellation of one of its bookings, until its timeslot closes; `reason` when the partner gave one. */
export function cancelPartnerItem(
  caller: Pick<Caller, 'timeZone'>,
  item: BookingItem,
  options: { now: Date; read: () => Promise<BookingItem>; reason?: string },
): Promise<TransitionResult> {
  const { now } = options;
  return cancelBooking(item, {
    by: 'partner',
    now,
    reason: options.reason,
    read: options.read,
    check: (current) => {
      if (timeslotStarted(current, caller.timeZone, now)) {
        throw TimeslotStartedError.of(current);
      }
    },
  });
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
  return (await cancelBooking(await read(), { by: 'operator', reason, now, read })).booking;
}
