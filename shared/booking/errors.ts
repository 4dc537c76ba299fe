import { ConflictError } from '../core/errors';
import type { BookingItem } from './model';

/** The refusals of a booking's life that are 409s of their own kind. */

/** A confirmation came at or after the hold's expiry: the places are gone (or going) back. */
export class HoldExpiredError extends ConflictError {
  override readonly reason = 'hold-expired';

  static of(booking: Pick<BookingItem, 'BookingReference' | 'HoldExpiresAt'>): HoldExpiredError {
    return new HoldExpiredError(
      `The hold on booking '${booking.BookingReference}' expired at ${booking.HoldExpiresAt}; its places were given back`,
    );
  }
}

/** The booking was cancelled: it can no longer be confirmed. */
export class BookingCancelledError extends ConflictError {
  override readonly reason = 'booking-cancelled';

  static of(booking: Pick<BookingItem, 'BookingReference' | 'CancelledAt'>): BookingCancelledError {
    return new BookingCancelledError(`Booking '${booking.BookingReference}' was cancelled at ${booking.CancelledAt}`);
  }
}

/** The booking's timeslot has started: a partner can no longer cancel it. */
export class TimeslotStartedError extends ConflictError {
  override readonly reason = 'timeslot-started';

  static of(booking: Pick<BookingItem, 'BookingReference' | 'StartsAt'>): TimeslotStartedError {
    return new TimeslotStartedError(
      `Booking '${booking.BookingReference}' can no longer be cancelled: its timeslot started at ${booking.StartsAt}`,
    );
  }
}

/** Only a hold can be extended: the booking is confirmed, cancelled or expired. */
export class NotOnHoldError extends ConflictError {
  override readonly reason = 'not-on-hold';

  static of(booking: Pick<BookingItem, 'BookingReference' | 'Status'>): NotOnHoldError {
    return new NotOnHoldError(`Booking '${booking.BookingReference}' is ${booking.Status}; only a booking ON_HOLD can be extended`);
  }
}
