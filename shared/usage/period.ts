import { ValidationError } from '../core/errors';
import { addDays, isTimeZone, zonedInstant, zonedIsoAt } from '../core/calendar';
import { checkDayRange } from '../core/day-range';
import { USAGE_LEVELS } from '../db/usage-levels';
import { MAX_HOURLY_DAYS, MAX_SUMMARY_DAYS, type Granularity } from './model';

/**
 * Summary periods: whole days of a zone from `from` to `to`, cut into the
 * points of a series. Aggregates are kept per UTC hour, day and month, so a
 * day of a zone whose midnights fall on whole UTC hours is an exact run of
 * hour buckets (23, 24 or 25 of them around DST changes); zones with :30 or
 * :45 offsets at a midnight cannot be cut from hour buckets and are refused.
 */
export const HOUR_SECONDS = 3600;

/** A span of time: Unix seconds, start included, end excluded, both on whole UTC hours. */
export interface Interval {
  start: number;
  end: number;
}

/** One point of a series and how the answer labels it (its granularity's row of shared/db/usage-levels.ts says how). */
export interface SeriesPoint extends Interval {
  granularity: Granularity;
  label: Record<string, string | number>;
}

export interface SummaryPeriod extends Interval {
  from: string;
  to: string;
  timeZone: string;
  /** The points of the requested series, which together are the whole period; empty without a granularity. */
  points: SeriesPoint[];
}

/** Unix seconds of the first instant of `date` in `timeZone`. */
export const midnight = (date: string, timeZone: string): number => zonedInstant(date, '00:00', timeZone) / 1000;

let listedZones: Map<string, string> | undefined;

/**
 * A zone as the client named it: any name Node knows, canonical or an alias
 * (`Asia/Kolkata`, which Node's ICU calls Asia/Calcutta), is answered by
 * that name; a name of Node's zone list sent in another case is spelt as
 * listed (`asia/tokyo` is Asia/Tokyo).
 */
export function checkTimeZone(requestedZone: string, field = 'tz'): string {
  if (!isTimeZone(requestedZone))
    throw new ValidationError(`must be an IANA time zone name such as Europe/Lisbon; '${requestedZone}' is not one`, { field });
  listedZones ??= new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((zone) => [zone.toLowerCase(), zone]));
  return listedZones.get(requestedZone.toLowerCase()) ?? requestedZone;
}

/** A day of the period: its date in the zone, and the instants it starts and ends at. */
interface ZoneDay extends Interval {
  date: string;
}

/** The points of a series at `granularity`, which together are the whole period (see `seriesPoints` of its row). */
function seriesPoints(granularity: Granularity, whole: Interval, days: ZoneDay[], timeZone: string): SeriesPoint[] {
  const cut = USAGE_LEVELS[granularity].seriesPoints;
  if (cut.each === 'hour') {
    return Array.from({ length: (whole.end - whole.start) / HOUR_SECONDS }, (_, i) => {
      const at = whole.start + i * HOUR_SECONDS;
      return { granularity, start: at, end: at + HOUR_SECONDS, label: { Start: zonedIsoAt(at * 1000, timeZone), Timestamp: at } };
    });
  }
  // Runs of days whose dates share a prefix (a day's whole date, a month's YYYY-MM), each cut to the days inside the period.
  const points: SeriesPoint[] = [];
  for (const day of days) {
    const key = day.date.slice(0, cut.length);
    const last = points[points.length - 1];
    if (last?.label[cut.label] === key) last.end = day.end;
    else points.push({ granularity, start: day.start, end: day.end, label: { [cut.label]: key } });
  }
  return points;
}

/** Checks `from`, `to`, `tz` and `granularity` of a summary request and cuts the period into the series' points. */
export function summaryPeriod(from: string, to: string, requestedZone = 'UTC', granularity?: Granularity): SummaryPeriod {
  const span = checkDayRange({ name: 'from', date: from }, { name: 'to', date: to }, MAX_SUMMARY_DAYS);
  if (granularity === 'hour' && span + 1 > MAX_HOURLY_DAYS) {
    throw new ValidationError(`may be 'hour' for ranges of at most ${MAX_HOURLY_DAYS} days; this one spans ${span + 1}`, {
      field: 'granularity',
    });
  }
  const timeZone = checkTimeZone(requestedZone);
  const boundaries = Array.from({ length: span + 2 }, (_, i) => midnight(addDays(from, i), timeZone));
  const offHour = boundaries.findIndex((instant) => instant % HOUR_SECONDS !== 0);
  if (offHour >= 0) {
    throw new ValidationError(
      `is ${timeZone}, where the day ${addDays(from, offHour)} does not start on a whole UTC hour; only zones whose midnights fall on whole UTC hours are supported`,
      { field: 'tz' },
    );
  }
  const days: ZoneDay[] = boundaries.slice(0, -1).map((start, i) => ({ date: addDays(from, i), start, end: boundaries[i + 1] }));
  const whole: Interval = { start: boundaries[0], end: boundaries[boundaries.length - 1] };
  const points = granularity ? seriesPoints(granularity, whole, days, timeZone) : [];
  return { from, to, timeZone, ...whole, points };
}
