import { addDays, wallClock } from '../core/calendar';
import type { LimitPeriod } from './limit-model';
import { HOUR_SECONDS, midnight, type Interval } from './period';

/**
 * A limit's periods: the days or the calendar months of its zone, each from
 * the zone's midnight to the next (a DST day has 23 or 25 hours). A period
 * is named by its first local day (`2026-03-29`) or month (`2026-03`).
 */
export interface LimitPeriodSpan extends Interval {
  key: string;
  /** Its first and last local days, as a summary of the same period names them. */
  from: string;
  to: string;
}

const firstOfNextMonth = (month: string): string => {
  const [year, number] = month.split('-').map(Number);
  return new Date(Date.UTC(year, number, 1)).toISOString().slice(0, 10);
};

/** The period a key names. */
export function periodOfKey(period: LimitPeriod, timeZone: string, key: string): LimitPeriodSpan {
  const from = period === 'DAY' ? key : `${key}-01`;
  const next = period === 'DAY' ? addDays(key, 1) : firstOfNextMonth(key);
  return { key, from, to: addDays(next, -1), start: midnight(from, timeZone), end: midnight(next, timeZone) };
}

/** The period an instant (Unix seconds) falls in. */
export function periodAt(period: LimitPeriod, timeZone: string, at: number): LimitPeriodSpan {
  const { date } = wallClock(timeZone, new Date(at * 1000));
  return periodOfKey(period, timeZone, period === 'DAY' ? date : date.slice(0, 7));
}

/**
 * Aggregates are kept per UTC hour, day and month: a period whose edges are
 * not whole UTC hours (a zone at a :30 offset, or a zone's local mean time
 * before its standard time) cannot be cut from them.
 */
export const countable = ({ start, end }: Interval): boolean => start % HOUR_SECONDS === 0 && end % HOUR_SECONDS === 0;
