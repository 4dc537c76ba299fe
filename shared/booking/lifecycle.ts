import { timeslotStarted } from '../catalog/timeslot-start';
import { ValidationError } from '../core/errors';
import { HOLD_LIFE_MINUTES, HOLD_MINUTES, type BookingStatus } from './constants';
import { BookingCancelledError, HoldExpiredError, HoldLifeExceededError, NotOnHoldError, TimeslotStartedError } from './errors';
import type { BookingItem } from './model';
import type { CancelledBy } from './schemas';

/**
 * A booking's life, as decisions with no I/O: what each action does to a
 * booking as it is at `now`. Either nothing is to be written (the booking is
 * already where the action leads), or the booking moves to a status under a
 * condition (that it is still as it was when decided on: the transition
 * writes the move, and the table refuses it if a simultaneous one came
 * first), or the action is refused (thrown).
 *
 *   made with a hold ──▶ ON_HOLD        made without ──▶ CONFIRMED
 *   ON_HOLD ──confirm──▶ CONFIRMED      ON_HOLD ──extend──▶ ON_HOLD, later (within its life)
 *   ON_HOLD, CONFIRMED ──change──▶ the same status (another timeslot, party, contact)
 *   ON_HOLD, CONFIRMED ──cancel──▶ CANCELLED
 *   ON_HOLD, its time up ──expire──▶ EXPIRED
 *
 * Held and confirmed bookings take places; moving to CANCELLED or EXPIRED
 * gives them back, once, in the same transaction.
 */

/** What the booking must still be for a move: its status condition on the table (besides its version), when the move is made. */
export interface Change {
  /** e.g. `#status = :held AND HoldExpiresAt > :now`. */
  condition: string;
  values: Record<string, unknown>;
  /** When the change is made (UpdatedAt). */
  at: string;
}

export type Decision = { stay: true } | { to: BookingStatus; change: Change };

/** Who cancels: the operator (at any time), or the booking's partner (until the timeslot starts in the operator's zone). */
export type Canceller = { by: Extract<CancelledBy, 'operator'> } | { by: Extract<CancelledBy, 'partner'>; timeZone: string };

type State = Pick<
  BookingItem,
  'Status' | 'HoldExpiresAt' | 'BookingReference' | 'CancelledAt' | 'StartsAt' | 'Date' | 'Time' | 'OpeningHours' | 'CreatedAt'
>;

/** Held and confirmed bookings take places and are on their day's manifest; cancelled and expired ones gave them back. */
export const isLive = (booking: Pick<BookingItem, 'Status'>): boolean => booking.Status === 'ON_HOLD' || booking.Status === 'CONFIRMED';

/** When a hold made or extended at `now` for `minutes` (the default when none, at most the longest hold) expires. */
export const holdExpiry = (now: Date, minutes: number | undefined): string =>
  new Date(now.getTime() + Math.min(HOLD_MINUTES.max, minutes ?? HOLD_MINUTES.default) * 60_000).toISOString();

/** The status a booking is made in: held when it asks for a hold, else confirmed. */
export const madeStatus = (hold: boolean): BookingStatus => (hold ? 'ON_HOLD' : 'CONFIRMED');

/** A hold whose time is up at `now`: its places are given back by the sweep, if nothing else moves it first. */
export const holdLapsed = (item: Pick<State, 'Status' | 'HoldExpiresAt'>, now: Date): boolean =>
  item.Status === 'ON_HOLD' && new Date(item.HoldExpiresAt as string) <= now;

/** Refuses to act on a booking that holds no places any more: cancelled, expired, or a hold whose time is up. */
function checkLive(item: State, now: Date): void {
  if (item.Status === 'CANCELLED') throw BookingCancelledError.of(item);
  if (item.Status === 'EXPIRED' || holdLapsed(item, now)) throw HoldExpiredError.of(item);
}

/** Still a hold whose time is not up. */
const whileHeld = (now: Date): Change => ({
  condition: '#status = :held AND HoldExpiresAt > :now',
  values: { ':held': 'ON_HOLD', ':now': now.toISOString() },
  at: now.toISOString(),
});

/** A hold confirms: a confirmed booking stays as it is; a cancelled or expired one, or a hold whose time is up, is refused. */
export function confirm(item: State, now: Date): Decision {
  if (item.Status === 'CONFIRMED') return { stay: true };
  checkLive(item, now);
  return { to: 'CONFIRMED', change: whileHeld(now) };
}

/**
 * When a hold given `minutes` more at `now` expires (as holdExpiry), which
 * must be within HOLD_LIFE_MINUTES of its being made: an extension past that
 * is refused, saying how many minutes are left.
 */
export function heldUntil(item: Pick<State, 'BookingReference' | 'CreatedAt'>, now: Date, minutes: number | undefined): string {
  const asked = holdExpiry(now, minutes);
  const lifeEnds = new Date(Date.parse(item.CreatedAt) + HOLD_LIFE_MINUTES * 60_000);
  if (Date.parse(asked) <= lifeEnds.getTime()) return asked;
  const minutesLeft = Math.floor((lifeEnds.getTime() - now.getTime()) / 60_000);
  throw HoldLifeExceededError.of(item, asked, lifeEnds.toISOString(), minutesLeft);
}

/** A live hold is extended by `minutes` from now, within its life (heldUntil); anything but a live hold is refused. */
export function extend(item: State, now: Date, minutes: number | undefined): { to: 'ON_HOLD'; change: Change; holdExpiresAt: string } {
  checkLive(item, now);
  if (item.Status !== 'ON_HOLD') throw NotOnHoldError.of(item);
  return { to: 'ON_HOLD', change: whileHeld(now), holdExpiresAt: heldUntil(item, now, minutes) };
}

/**
 * A live booking changes (another timeslot, product, party, contact) and
 * keeps its status, until its timeslot starts. A hold may be given a new
 * expiry with it (`holdMinutes` from now, within its life: heldUntil); a
 * confirmed booking has none to give.
 */
export function change(
  item: State,
  now: Date,
  timeZone: string,
  holdMinutes?: number,
): { to: BookingStatus; change: Change; holdExpiresAt?: string } {
  checkLive(item, now);
  if (timeslotStarted(item, timeZone, now)) throw TimeslotStartedError.of(item, 'changed');
  if (holdMinutes !== undefined && item.Status !== 'ON_HOLD') {
    throw new ValidationError('applies to a hold only: the booking is confirmed', { field: 'HoldMinutes' });
  }
  return {
    to: item.Status,
    change: {
      condition: '#status = :confirmed OR (#status = :held AND HoldExpiresAt > :now)',
      values: { ':confirmed': 'CONFIRMED', ':held': 'ON_HOLD', ':now': now.toISOString() },
      at: now.toISOString(),
    },
    ...(holdMinutes === undefined ? {} : { holdExpiresAt: heldUntil(item, now, holdMinutes) }),
  };
}

/**
 * A held or confirmed booking is cancelled: by the operator at any time, by
 * its partner until its timeslot starts. A cancelled or expired booking
 * stays as it is: its places are already back.
 */
export function cancel(item: State, now: Date, canceller: Canceller): Decision {
  if (item.Status === 'CANCELLED' || item.Status === 'EXPIRED') return { stay: true };
  if (canceller.by === 'partner' && timeslotStarted(item, canceller.timeZone, now)) throw TimeslotStartedError.of(item, 'cancelled');
  return {
    to: 'CANCELLED',
    change: {
      condition: '#status IN (:held, :confirmed)',
      values: { ':held': 'ON_HOLD', ':confirmed': 'CONFIRMED' },
      at: now.toISOString(),
    },
  };
}

/** A hold whose time is up expires; anything else stays (a hold confirmed or cancelled meanwhile, one not yet due). */
export function expire(item: State, now: Date): Decision {
  if (!holdLapsed(item, now)) return { stay: true };
  return {
    to: 'EXPIRED',
    change: {
      condition: '#status = :held AND HoldExpiresAt <= :now',
      values: { ':held': 'ON_HOLD', ':now': now.toISOString() },
      at: now.toISOString(),
    },
  };
}
