import { config } from '../core/config';

/**
 * How long a booking's personal data is kept after its activity ends, before
 * the retention sweep erases it (erasure.ts). A year by default: past the
 * disputes, chargebacks and reviews that follow a trip, and a season for a
 * returning customer; the accounts keep the booking itself (reference,
 * product, date, party, price, status) for ever. A deployment sets it with
 * PERSONAL_DATA_RETENTION_DAYS (the stack's `-c retentionDays`), the local
 * host and the tests with `configure`. Read only by the sweep's code, so
 * that no other function pays for it.
 */
export const DEFAULT_RETENTION_DAYS = 365;

/** The days of a PERSONAL_DATA_RETENTION_DAYS value; anything but a whole number from 1 to 36,500 fails at once. */
export function parseRetentionDays(value: string): number {
  const days = Number(value);
  if (!/^\d+$/.test(value) || days < 1 || days > 36_500) {
    throw new Error(`PERSONAL_DATA_RETENTION_DAYS must be a whole number of days from 1 to 36500, not '${value}'`);
  }
  return days;
}

let fromEnvironment: number | undefined;

/** The configured period: `configure`'s, else the environment's (read once), else the default. */
export const retentionDays = (): number =>
  config().retentionDays ??
  (fromEnvironment ??= process.env.PERSONAL_DATA_RETENTION_DAYS
    ? parseRetentionDays(process.env.PERSONAL_DATA_RETENTION_DAYS)
    : DEFAULT_RETENTION_DAYS);
