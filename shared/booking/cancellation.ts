import type { CancelledBy } from './schemas';
import type { BookingItem } from './model';
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
