import { ConflictError } from '../core/errors';

/** The refusals of a booking's life that are 409s of their own kind. */

/** A confirmation came at or after the hold's expiry: the places are gone (or going) back. */
export class HoldExpiredError extends ConflictError {
  override readonly reason = 'hold-expired';
}

/** The booking was cancelled: it can no longer be confirmed. */
export class BookingCancelledError extends ConflictError {
  override readonly reason = 'booking-cancelled';
}

/** The booking's timeslot has started: a partner can no longer cancel it. */
export class TimeslotStartedError extends ConflictError {
  override readonly reason = 'timeslot-started';
}
