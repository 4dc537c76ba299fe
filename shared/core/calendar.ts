/**
 * Calendar arithmetic on plain `YYYY-MM-DD` dates and IANA time zones,
 * using only the platform's Intl data (no time zone database to ship).
 */
const DAY_MS = 86_400_000;

const toUtcMidnight = (date: string): number => Date.parse(`${date}T00:00:00Z`);
const fromUtcMs = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * The days the service computes with: from the Unix epoch (usage speaks Unix
 * seconds) to the last day whose next day still has a four-digit year.
 */
export const SUPPORTED_DAYS = { first: '1970-01-01', last: '9998-12-31' } as const;

/** A real `YYYY-MM-DD` calendar day (no 2026-02-30) within SUPPORTED_DAYS. */
export function isSupportedDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || value < SUPPORTED_DAYS.first || value > SUPPORTED_DAYS.last) return false;
  const ms = toUtcMidnight(value);
  return !Number.isNaN(ms) && fromUtcMs(ms) === value;
}

export const addDays = (date: string, days: number): string => fromUtcMs(toUtcMidnight(date) + days * DAY_MS);

/** Whole days from `from` to `to`; negative when `to` is earlier. */
export const daysBetween = (from: string, to: string): number => Math.round((toUtcMidnight(to) - toUtcMidnight(from)) / DAY_MS);

/** The zone's canonical IANA spelling (`asia/tokyo` → `Asia/Tokyo`), or undefined when it is not a zone. */
export function canonicalTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const isTimeZone = (name: string): boolean => canonicalTimeZone(name) !== undefined;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = partsFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time in `timeZone` at instant `at`. */
export function wallClock(timeZone: string, at: Date = new Date()): { date: string; time: string; seconds: number } {
  const parts = Object.fromEntries(
    partsFormatter(timeZone)
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return {
    // Intl writes years before 1000 with fewer than four digits.
    date: `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
    seconds: Number(parts.second),
  };
}

/** Minutes that `timeZone` is ahead of UTC at instant `ms`. */
function offsetMinutes(timeZone: string, ms: number): number {
  const { date, time, seconds } = wallClock(timeZone, new Date(ms));
  const asUtc = Date.parse(`${date}T${time}:00Z`) + seconds * 1000;
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * The instant (epoch ms) at which the wall clock in `timeZone` shows `date` `time`.
 * A wall time skipped by a DST jump resolves to the instant just after the jump.
 */
export function zonedInstant(date: string, time: string, timeZone: string): number {
  const naive = Date.parse(`${date}T${time}:00Z`);
  const firstGuess = naive - offsetMinutes(timeZone, naive) * 60_000;
  return naive - offsetMinutes(timeZone, firstGuess) * 60_000;
}

const offsetText = (offset: number) => {
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const minutes = String(Math.abs(offset) % 60).padStart(2, '0');
  return `${sign}${hours}:${minutes}`;
};

/** ISO 8601 local date-time with its UTC offset, e.g. `2026-12-01T09:30:00+01:00`. */
export function zonedIso(date: string, time: string, timeZone: string): string {
  return `${date}T${time}:00${offsetText(offsetMinutes(timeZone, zonedInstant(date, time, timeZone)))}`;
}

/** The instant `ms` on the wall clock of `timeZone`, ISO 8601 with the offset of that instant (to the minute). */
export function zonedIsoAt(ms: number, timeZone: string): string {
  const { date, time } = wallClock(timeZone, new Date(ms));
  return `${date}T${time}:00${offsetText(offsetMinutes(timeZone, ms))}`;
}
