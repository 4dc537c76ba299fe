import { countBusinessEvent } from '../core/metrics';
import { RETRY, retrying } from '../core/retry';
import { deliveryFor, dispatch } from '../webhooks/events';
import { toBooking, type Booking, type BookingItem, type CancelledBy } from './model';
import { writeTransition } from './repository';
import { releaseTransaction } from './transactions';

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

export async function cancelBooking(item: BookingItem, options: CancelOptions): Promise<Booking> {
  let current = item;
  return retrying('The cancellation', async () => {
    if (current.Status === 'CANCELLED' || current.Status === 'EXPIRED') return toBooking(current);
    options.check?.(current);
    const at = options.now.toISOString();
    const cancelled: BookingItem = {
      ...current,
      Status: 'CANCELLED',
      CancelledAt: at,
      CancelledBy: options.by,
      ...(options.reason ? { CancellationReason: options.reason } : {}),
    };
    // The partner who sold it hears of a cancellation it did not make itself.
    const delivery =
      options.by === 'operator' && current.Channel === 'ota' && current.PartnerKeyID
        ? await deliveryFor(
            { operatorId: current.OperatorID, keyId: current.PartnerKeyID },
            'booking.cancelled',
            toBooking(cancelled),
            options.now,
          )
        : undefined;
    const outcome = await writeTransition(
      releaseTransaction(current, { to: 'CANCELLED', at, by: options.by, reason: options.reason }, delivery),
    );
    if (outcome === 'done') {
      countBusinessEvent('Bookings', 'cancelled', current.OperatorID);
      await dispatch([delivery]);
      return toBooking(cancelled);
    }
    // Moved meanwhile by a simultaneous request or sweep, or contended: look again.
    current = await options.read();
    return RETRY;
  });
}
