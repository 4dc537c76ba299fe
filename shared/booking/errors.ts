import { ConflictError } from '../core/errors';
import { HOLD_LIFE_MINUTES } from './constants';
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

  static of(booking: Pick<BookingItem, 'BookingReference' | 'StartsAt'>, refused: 'cancelled' | 'changed'): TimeslotStartedError {
    return new TimeslotStartedError(
      `Booking '${booking.BookingReference}' can no longer be ${refused}: its timeslot started at ${booking.StartsAt}`,
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

/** A confirmation that would change a booking confirmed before (its contact, reference or party): a confirmation changes a hold only. */
export class ConfirmedAlreadyError extends ConflictError {
  override readonly reason = 'confirmed-already';

  static of(booking: Pick<BookingItem, 'BookingReference'>): ConfirmedAlreadyError {
    return new ConfirmedAlreadyError(`Booking '${booking.BookingReference}' is confirmed already, and a confirmation does not change it`);
  }
}

/** An extension, or a new expiry by a change, would hold a booking past the longest a hold lives (HOLD_LIFE_MINUTES from when it was made). */
export class HoldLifeExceededError extends ConflictError {
  override readonly reason = 'hold-life-exceeded';

  static of(booking: Pick<BookingItem, 'BookingReference' | 'CreatedAt'>, asked: string, lifeEnds: string, minutesLeft: number) {
    if (minutesLeft < 1) {
      return new HoldLifeExceededError(
        `Booking '${booking.BookingReference}' has been held for the longest a hold may last (${HOLD_LIFE_MINUTES} minutes from ${booking.CreatedAt}, until ${lifeEnds}): confirm it, or let it go`,
      );
    }
    return new HoldLifeExceededError(
      `would hold booking '${booking.BookingReference}' until ${asked}, past ${lifeEnds}: a hold lasts at most ${HOLD_LIFE_MINUTES} minutes from when it was made (${booking.CreatedAt}); ask for at most ${minutesLeft} minutes, or confirm it`,
      { field: 'HoldMinutes' },
    );
  }
}

/** Where a key's held places are capped: on one timeslot, or over all of them. */
export interface HoldCapBreach {
  keyId: string;
  /** The timeslot, for a cap on one; absent for the cap in all. */
  timeslot?: Pick<BookingItem, 'ActivityID' | 'Date' | 'Time'>;
  /** Places the key held, as the refused write found them; unknown when the request alone is over the cap. */
  held?: number;
  cap: number;
  asked: number;
}

/** A hold (or a held booking's move) would make its key hold more places at once than its cap allows. */
export class HoldCapError extends ConflictError {
  override readonly reason = 'hold-cap-reached';

  static of({ keyId, timeslot, held, cap, asked }: HoldCapBreach): HoldCapError {
    const where = timeslot ? `on ${timeslot.Date} ${timeslot.Time} of ${timeslot.ActivityID}` : 'in all';
    const then = 'confirm or cancel its holds first, or ask the operator for a higher cap';
    if (held === undefined) {
      return new HoldCapError(`API key ${keyId} may hold at most ${cap} place(s) at once ${where}, and ${asked} were asked for: ${then}`);
    }
    const atMost = timeslot ? `at most ${cap} there at once` : `at most ${cap} at once`;
    return new HoldCapError(
      `API key ${keyId} already holds ${held} place(s) ${where}, and may hold ${atMost} (${asked} more asked for): ${then}`,
    );
  }
}
