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

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

function wallFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = wallFormatters.get(timeZone);
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
    wallFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** `MM/DD/YYYY, HH:MM:SS`: `format` and a pattern cost a third of `formatToParts` on the per-timeslot paths. */
const WALL_TEXT = /^(\d{2})\/(\d{2})\/(\d+), (\d{2}):(\d{2}):(\d{2})$/;

interface WallFields {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
}

function wallFields(timeZone: string, ms: number): WallFields {
  const [, month, day, year, hour, minute, second] = WALL_TEXT.exec(wallFormatter(timeZone).format(ms)) as RegExpExecArray;
  // Intl writes years before 1000 with fewer than four digits.
  return { year: year.padStart(4, '0'), month, day, hour, minute, second };
}

/** The wall-clock date and time in `timeZone` at instant `at`. */
export function wallClock(timeZone: string, at: Date = new Date()): { date: string; time: string; seconds: number } {
  const { year, month, day, hour, minute, second } = wallFields(timeZone, at.getTime());
  return { date: `${year}-${month}-${day}`, time: `${hour}:${minute}`, seconds: Number(second) };
}

/** A wall-clock reading as if it were UTC: the epoch ms of its fields, which the zone's offset separates from the instant. */
const readingMs = (date: string, time: string): number => Date.parse(`${date}T${time}Z`);

/** The wall clock of `timeZone` at instant `ms` (to the second) and how far (ms) it is ahead of UTC: some zones kept offsets in seconds. */
function wallAt(timeZone: string, ms: number): { fields: WallFields; offset: number } {
  const whole = Math.floor(ms / 1000) * 1000;
  const fields = wallFields(timeZone, whole);
  const { year, month, day, hour, minute, second } = fields;
  return { fields, offset: readingMs(`${year}-${month}-${day}`, `${hour}:${minute}:${second}`) - whole };
}

const offsetMs = (timeZone: string, ms: number): number => wallAt(timeZone, ms).offset;

/** The instants at which the wall clock of `timeZone` reads `reading` (as readingMs): none, one, or, when the clocks go back, two (ascending). */
function instantsReading(timeZone: string, reading: number): number[] {
  // The offsets a day either side bound those that can apply, as Temporal's time zone algorithm takes them.
  const before = offsetMs(timeZone, reading - DAY_MS);
  const after = offsetMs(timeZone, reading + DAY_MS);
  const offsets = before === after ? [before] : [Math.max(before, after), Math.min(before, after)];
  return offsets.map((offset) => reading - offset).filter((instant) => offsetMs(timeZone, instant) === reading - instant);
}

/** How a local date and time of a zone maps to instants. */
export interface ZonedTime {
  /** Epoch ms: the one instant the wall clock reads it, the first of two when the clocks go back, or, when they skip it, the one the skip lands on. */
  instant: number;
  /** `once`, `twice` (the clocks go back over it) or `skipped` (they jump over it). */
  occurs: 'once' | 'twice' | 'skipped';
  /** What the text needs as offset to name `instant`: the zone's offset then, or, for a skipped time, the offset before the skip. */
  offsetMs: number;
}

/**
 * The one rule that turns a local date and time of a zone into an instant
 * (RFC 5545, and Temporal's `disambiguation: 'compatible'`): a time that
 * happens twice is its first occurrence; a time the clocks skip is moved
 * forward by the length of the skip (02:30 in a skip from 02:00 to 03:00
 * is 03:30). Timeslots never start at a skipped time: the catalogue refuses
 * them (skippedBy). A day whose midnight the clocks skip begins where they
 * resume, since such a skip begins at midnight (in every zone of the
 * platform's data from 1970 to 2037). A bound of a range of the wall clock
 * (opening hours) is where the clocks resume: clockReaches.
 */
function resolveZonedTime(date: string, time: string, timeZone: string): ZonedTime {
  const reading = readingMs(date, `${time}:00`);
  const instants = instantsReading(timeZone, reading);
  if (instants.length) return { instant: instants[0], occurs: instants.length > 1 ? 'twice' : 'once', offsetMs: reading - instants[0] };
  const offsetBefore = offsetMs(timeZone, reading - DAY_MS);
  const landed = instantsReading(timeZone, reading + offsetMs(timeZone, reading + DAY_MS) - offsetBefore);
  return { instant: landed[landed.length - 1] ?? reading - offsetBefore, occurs: 'skipped', offsetMs: offsetBefore };
}

/** Resolved times by zone, date and time: availability and bookings resolve the same timeslots over and over. */
const resolved = new Map<string, ZonedTime>();
const MAX_RESOLVED = 20_000;

/** `date` `time` in `timeZone` by the one rule (resolveZonedTime). */
export function zonedTime(date: string, time: string, timeZone: string): ZonedTime {
  const key = `${timeZone} ${date}T${time}`;
  let zoned = resolved.get(key);
  if (!zoned) {
    if (resolved.size >= MAX_RESOLVED) resolved.clear();
    zoned = resolveZonedTime(date, time, timeZone);
    resolved.set(key, zoned);
  }
  return zoned;
}

/** The instant (epoch ms) of `date` `time` on the wall clock of `timeZone` (zonedTime's rule). */
export const zonedInstant = (date: string, time: string, timeZone: string): number => zonedTime(date, time, timeZone).instant;

/**
 * The jump of the clocks of `timeZone` over `date` `time`: its instant
 * (epoch ms, to the second) and the offsets before and after it; undefined
 * for a time that exists.
 */
function jumpOver(date: string, time: string, timeZone: string): { at: number; before: number; after: number } | undefined {
  const zoned = zonedTime(date, time, timeZone);
  if (zoned.occurs !== 'skipped') return undefined;
  const reading = readingMs(date, `${time}:00`);
  const [before, after] = [zoned.offsetMs, offsetMs(timeZone, reading + DAY_MS)];
  // The jump lies between the instants the reading names with the offset after it and with the one before: found to the second.
  let [low, high] = [reading - after, reading - before];
  while (high - low > 1000) {
    const middle = Math.floor((low + high) / 2000) * 1000;
    if (offsetMs(timeZone, middle) === before) low = middle;
    else high = middle;
  }
  return { at: high, before, after };
}

/**
 * Where the clocks of `timeZone` jump over `date` `time`: the wall times
 * they leave and land on (`HH:MM`, with the date when it is another day);
 * undefined for a time that exists.
 */
export function skippedBy(date: string, time: string, timeZone: string): { from: string; to: string } | undefined {
  const jump = jumpOver(date, time, timeZone);
  if (!jump) return undefined;
  const clock = (wall: number) => {
    const text = new Date(wall).toISOString();
    return text.startsWith(date) ? text.slice(11, 16) : `${text.slice(0, 10)} ${text.slice(11, 16)}`;
  };
  return { from: clock(jump.at + jump.before), to: clock(jump.at + jump.after) };
}

/**
 * The first instant (epoch ms) at which the wall clock of `timeZone` reads
 * `date` `time` or later: a bound of a range of the wall clock (opening
 * hours). For a time that exists it is zonedInstant (the first occurrence of
 * a repeated one); for a time the clocks skip, where they resume: a range
 * that closes at 02:30 closes at 03:00 on the night the clocks go from 02:00
 * to 03:00, the first moment the clock is past 02:30 (zonedInstant's 03:30
 * would keep it open half an hour longer than any other night).
 */
export function clockReaches(date: string, time: string, timeZone: string): number {
  return jumpOver(date, time, timeZone)?.at ?? zonedInstant(date, time, timeZone);
}

const offsetText = (ms: number) => {
  const minutes = Math.round(ms / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  return `${sign}${hours}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
};

/** The instant `ms` on the wall clock of `timeZone`, ISO 8601 with the offset of that instant (to the minute). */
export function zonedIsoAt(ms: number, timeZone: string): string {
  const { fields, offset } = wallAt(timeZone, ms);
  return `${fields.year}-${fields.month}-${fields.day}T${fields.hour}:${fields.minute}:00${offsetText(offset)}`;
}

/** The instant of `date` `time` in `timeZone` as ISO 8601 on that zone's wall clock, e.g. `2026-12-01T09:30:00+01:00`. */
export function zonedIso(date: string, time: string, timeZone: string): string {
  const zoned = zonedTime(date, time, timeZone);
  return zoned.occurs === 'skipped' ? zonedIsoAt(zoned.instant, timeZone) : `${date}T${time}:00${offsetText(zoned.offsetMs)}`;
}

/**
 * `date` `time` as written, with the offset that makes the text name its
 * instant: zonedIso for a time that exists; for a skipped one, the offset
 * before the skip (`2026-09-06T00:00:00-04:00` is the first instant of that
 * day in America/Santiago, whose clocks go from 00:00 to 01:00).
 */
export function zonedIsoAsWritten(date: string, time: string, timeZone: string): string {
  return `${date}T${time}:00${offsetText(zonedTime(date, time, timeZone).offsetMs)}`;
}
