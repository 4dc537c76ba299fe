import { ValidationError } from '../core/errors';
import { addDays, canonicalTimeZone, zonedInstant } from '../core/calendar';
import { checkDayRange } from '../core/day-range';
import { MAX_SUMMARY_DAYS } from './model';

/**
 * Aggregates are kept per UTC hour. A day in a zone whose midnights fall on
 * whole UTC hours is then an exact run of hour buckets (23, 24 or 25 of them
 * around DST changes); zones with :30 or :45 offsets at a midnight cannot be
 * cut from hour buckets and are refused.
 */
export const HOUR_SECONDS = 3600;

/** The hour bucket an instant falls in, as its UTC start `YYYY-MM-DDTHH`; sorts as it orders. */
export const hourBucket = (unixSeconds: number): string => new Date(unixSeconds * 1000).toISOString().slice(0, 13);

export const hourStart = (unixSeconds: number): number => unixSeconds - (((unixSeconds % HOUR_SECONDS) + HOUR_SECONDS) % HOUR_SECONDS);

export interface PeriodDay {
  date: string;
  /** Unix seconds of the day's first instant and of the next day's first instant. */
  start: number;
  end: number;
}

export interface SummaryPeriod {
  from: string;
  to: string;
  timeZone: string;
  days: PeriodDay[];
  /** First and last hour bucket covered. */
  firstHour: string;
  lastHour: string;
}

const midnight = (date: string, timeZone: string): number => zonedInstant(date, '00:00', timeZone) / 1000;

/** Checks `from`, `to` and `tz` of a summary request and cuts the period into days of that zone. */
export function summaryPeriod(from: string, to: string, requestedZone = 'UTC'): SummaryPeriod {
  const span = checkDayRange({ name: 'from', date: from }, { name: 'to', date: to }, MAX_SUMMARY_DAYS);
  const timeZone = canonicalTimeZone(requestedZone);
  if (!timeZone) {
    throw new ValidationError(`must be an IANA time zone name such as Europe/Lisbon; '${requestedZone}' is not one`, { field: 'tz' });
  }
  const boundaries = Array.from({ length: span + 2 }, (_, i) => midnight(addDays(from, i), timeZone));
  const offHour = boundaries.findIndex((instant) => instant % HOUR_SECONDS !== 0);
  if (offHour >= 0) {
    throw new ValidationError(
      `is ${timeZone}, where the day ${addDays(from, offHour)} does not start on a whole UTC hour; only zones whose midnights fall on whole UTC hours are supported`,
      { field: 'tz' },
    );
  }
  const days = boundaries.slice(0, -1).map((start, i) => ({ date: addDays(from, i), start, end: boundaries[i + 1] }));
  return {
    from,
    to,
    timeZone,
    days,
    firstHour: hourBucket(days[0].start),
    lastHour: hourBucket(days[days.length - 1].end - HOUR_SECONDS),
  };
}
