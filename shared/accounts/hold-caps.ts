import { ValidationError } from '../core/errors';
import type { HoldCaps } from '../core/caller';

export type { HoldCaps };

/**
 * The places one key may hold at once (bookings ON_HOLD, not yet confirmed),
 * unless its operator gives it other caps (`create-key` or `set-key-limits`
 * with `--max-held-places-per-timeslot` and `--max-held-places`): 40 on any
 * one timeslot and 200 in all. That is a reseller's checkouts in progress at
 * once (a busy one holds a few dozen two-place baskets for 15 minutes each),
 * and it keeps a key, or a stolen one, from holding every timeslot off sale.
 */
export const DEFAULT_HOLD_CAPS: HoldCaps = { perTimeslot: 40, total: 200 };

/** The largest caps a key may be given. */
export const MAX_HOLD_CAPS: HoldCaps = { perTimeslot: 10_000, total: 100_000 };

/** The caps a key record gives, the defaults where it gives none (keys made before caps). */
export const holdCapsOf = (record: { MaxHeldPlacesPerTimeslot?: number; MaxHeldPlaces?: number }): HoldCaps => ({
  perTimeslot: record.MaxHeldPlacesPerTimeslot ?? DEFAULT_HOLD_CAPS.perTimeslot,
  total: record.MaxHeldPlaces ?? DEFAULT_HOLD_CAPS.total,
});

/** Whole numbers from 1 to the largest, the cap on a timeslot no more than the cap in all. */
export function checkHoldCaps(caps: HoldCaps): HoldCaps {
  const whole = (value: number, max: number) => Number.isInteger(value) && value >= 1 && value <= max;
  if (!whole(caps.perTimeslot, MAX_HOLD_CAPS.perTimeslot)) {
    throw new ValidationError(`must be a whole number of places from 1 to ${MAX_HOLD_CAPS.perTimeslot}`, {
      field: 'max-held-places-per-timeslot',
    });
  }
  if (!whole(caps.total, MAX_HOLD_CAPS.total)) {
    throw new ValidationError(`must be a whole number of places from 1 to ${MAX_HOLD_CAPS.total}`, { field: 'max-held-places' });
  }
  if (caps.perTimeslot > caps.total) {
    throw new ValidationError(`is ${caps.perTimeslot}, more than the places the key may hold in all (${caps.total})`, {
      field: 'max-held-places-per-timeslot',
    });
  }
  return caps;
}
