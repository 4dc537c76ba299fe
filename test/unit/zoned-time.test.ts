import { Temporal } from 'temporal-polyfill';
import { checkTimeslotTime } from '../../shared/catalog/timeslot-start';
import {
  addDays,
  clockReaches,
  skippedBy,
  wallClock,
  zonedInstant,
  zonedIso,
  zonedIsoAsWritten,
  zonedTime,
} from '../../shared/core/calendar';
import { ValidationError } from '../../shared/core/errors';
import { clientProblemFor } from '../../shared/http/errors';

/**
 * A local date and time is one instant, in every zone and year: checked
 * against Temporal (the polyfill, for tests only) around every change of the
 * clocks from 1970 to 2037 in zones chosen for their trouble, and at random
 * instants up to 2100. Temporal gives each zone's changes once (their
 * instants and the offsets either side); a wall time is then read on that
 * table (the instants whose offset makes the wall clock read it), and
 * Temporal's `disambiguation: 'compatible'` itself decides the times the
 * clocks skip.
 */
const ZONES = [
  'Europe/Lisbon',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns', // -03:30 / -02:30
  'America/Havana', // skips and repeats the hour after midnight
  'America/Santiago', // southern hemisphere, midnight skipped
  'America/Sao_Paulo', // daylight saving time until 2019, none since
  'America/Asuncion', // permanent daylight saving time since 2024
  'Atlantic/Azores', // midnight skipped
  'Australia/Sydney',
  'Australia/Adelaide', // +09:30 / +10:30
  'Australia/Lord_Howe', // a 30-minute shift
  'Pacific/Auckland',
  'Pacific/Chatham', // +12:45 / +13:45
  'Pacific/Apia', // skipped 2011-12-30 whole
  'Pacific/Kiritimati', // skipped 1994-12-31 whole
  'Europe/Moscow', // permanent summer time 2011, winter time since 2014
  'Africa/Casablanca', // suspended for Ramadan each year
  'Africa/Cairo', // stopped in 2011, again from 2023
  'Asia/Tehran', // stopped in 2022
  'Asia/Beirut',
  'Antarctica/Troll', // a two-hour shift
  'Asia/Kolkata', // no changes at all
  'UTC',
];
/** The zones whose clocks changed since 1970. */
const CHANGING = ZONES.filter((zone) => zone !== 'Asia/Kolkata' && zone !== 'UTC');

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const plain = (date: string, time: string) => Temporal.PlainDateTime.from(`${date}T${time}`);
const temporalInstant = (date: string, time: string, zone: string, disambiguation: 'earlier' | 'compatible') =>
  plain(date, time).toZonedDateTime(zone, { disambiguation }).epochMilliseconds;

/** A wall-clock reading (epoch ms, as if it were UTC) as its date and time. */
const wallText = (wall: number) => {
  const text = new Date(wall).toISOString();
  return { date: text.slice(0, 10), time: text.slice(11, 16) };
};

/**
 * A zone's offsets (ms) as Temporal gives them: `offsets[i]` holds from
 * `starts[i - 1]` (the first from before 1970) until `starts[i]` (the last for ever after).
 */
interface OffsetTable {
  starts: number[];
  offsets: number[];
}

/** Every change of the clocks of `zone` from shortly before 1970 to shortly after 2037, read from Temporal once per zone. */
const tables = new Map<string, OffsetTable>();
function offsetTable(zone: string): OffsetTable {
  let table = tables.get(zone);
  if (!table) {
    let at = Temporal.Instant.from('1969-12-01T00:00:00Z').toZonedDateTimeISO(zone);
    const until = Date.UTC(2038, 1, 1);
    table = { starts: [], offsets: [at.offsetNanoseconds / 1e6] };
    for (let next = at.getTimeZoneTransition('next'); next && next.epochMilliseconds <= until; next = at.getTimeZoneTransition('next')) {
      table.starts.push(next.epochMilliseconds);
      table.offsets.push(next.offsetNanoseconds / 1e6);
      at = next;
    }
    tables.set(zone, table);
  }
  return table;
}

/** The index of the offset that holds at instant `ms`. */
function offsetIndex({ starts }: OffsetTable, ms: number): number {
  let [low, high] = [0, starts.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (starts[middle] <= ms) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The instants at which the wall clock reads `wall` (ascending): those whose own offset takes them there. Offsets are within ±15 hours. */
function instantsReading(table: OffsetTable, wall: number): number[] {
  const found = [];
  const { starts, offsets } = table;
  for (let index = offsetIndex(table, wall - 15 * HOUR); index <= starts.length; index += 1) {
    if (index > 0 && starts[index - 1] > wall + 15 * HOUR) break;
    const instant = wall - offsets[index];
    if ((index === 0 || starts[index - 1] <= instant) && (index === starts.length || instant < starts[index])) found.push(instant);
  }
  return found.sort((a, b) => a - b);
}

/** The changes of the clocks from 1970 to 2037: their instant and the offsets (ms) before and after. */
function changes(zone: string): { at: number; before: number; after: number }[] {
  const { starts, offsets } = offsetTable(zone);
  return starts
    .map((at, index) => ({ at, before: offsets[index], after: offsets[index + 1] }))
    .filter(({ at, after }) => at > 0 && new Date(at + after).getUTCFullYear() <= 2037);
}

/** How checkTimeslotTime refuses a timeslot's start (class, field and message), if it does. */
function refusalOf(slot: { Date: string; Time: string }, zone: string): string | undefined {
  try {
    checkTimeslotTime(slot, zone);
    return undefined;
  } catch (error) {
    const { field, message } = error as ValidationError;
    return `${error instanceof ValidationError ? 'ValidationError' : String(error)} ${field} ${message}`;
  }
}

describe('a local date and time is one instant', () => {
  it.each(ZONES)('%s: every wall time around each change of the clocks since 1970 resolves as Temporal compatible does', (zone) => {
    const table = offsetTable(zone);
    const wrong: object[] = [];
    let checked = 0;
    for (const { at, before, after } of changes(zone)) {
      // Every 15 minutes on the wall clock from three hours before the change to three after: skips, repeats and both edges.
      const threeHoursBefore = at - 3 * HOUR;
      const start = Math.round((threeHoursBefore + table.offsets[offsetIndex(table, threeHoursBefore)]) / (15 * MINUTE)) * 15 * MINUTE;
      for (let step = 0; step <= 24 + Math.ceil(Math.abs(after - before) / (15 * MINUTE)); step += 1) {
        const wall = start + 15 * MINUTE * step;
        const { date, time } = wallText(wall);
        const zoned = zonedTime(date, time, zone);
        const instants = instantsReading(table, wall);
        const occurs = instants.length === 0 ? 'skipped' : instants.length === 1 ? 'once' : 'twice';
        // 'compatible': the earlier of two, and for a skipped time Temporal's own answer (shifted forward by the skip).
        const instant = occurs === 'skipped' ? temporalInstant(date, time, zone, 'compatible') : instants[0];
        const [iso, written] = [zonedIso(date, time, zone), zonedIsoAsWritten(date, time, zone)];
        // The texts name the same instant; a time that exists keeps its date and time, with the offset of its instant.
        const textsRight =
          Date.parse(iso) === instant &&
          Date.parse(written) === instant &&
          written.startsWith(`${date}T${time}`) &&
          (occurs === 'skipped' || iso === written);
        if (zoned.instant !== instant || zoned.occurs !== occurs || !textsRight) {
          wrong.push({ date, time, expected: { instant, occurs }, got: { instant: zoned.instant, occurs: zoned.occurs, iso, written } });
        }
        checked += 1;
      }
    }
    expect(wrong).toEqual([]);
    if (CHANGING.includes(zone)) expect(checked).toBeGreaterThan(0);
  });

  it.each(CHANGING)('%s: the table reads the wall times of each change, and those beside it, as Temporal does', (zone) => {
    const table = offsetTable(zone);
    const wrong: object[] = [];
    for (const { at, before, after } of changes(zone)) {
      // Every 15 minutes on the wall clock from the step before the times the change skips or repeats to the step after.
      const first = Math.floor((at + Math.min(before, after)) / (15 * MINUTE)) * 15 * MINUTE - 15 * MINUTE;
      for (let wall = first; wall <= at + Math.max(before, after) + 15 * MINUTE; wall += 15 * MINUTE) {
        const { date, time } = wallText(wall);
        const earlier = plain(date, time).toZonedDateTime(zone, { disambiguation: 'earlier' });
        const later = plain(date, time).toZonedDateTime(zone, { disambiguation: 'later' });
        // A time the clocks skip is not read back by either instant Temporal moves it to.
        const exists = earlier.toPlainDateTime().equals(plain(date, time));
        const temporal = exists ? [...new Set([earlier.epochMilliseconds, later.epochMilliseconds])] : [];
        const instants = instantsReading(table, wall);
        if (JSON.stringify(instants) !== JSON.stringify(temporal)) wrong.push({ date, time, table: instants, temporal });
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(ZONES)('%s: instant → wall clock → instant is the identity, but for the second pass of a repeated time', (zone) => {
    // A fixed pseudo-random walk over 1970..2100, so that a failure names an instant that fails again.
    let seed = [...zone].reduce((sum, char) => (Math.imul(sum, 31) + char.charCodeAt(0)) >>> 0, 7);
    const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const [first, last] = [Date.UTC(1970, 0, 2), Date.UTC(2100, 0, 1)];
    const wrong: object[] = [];
    for (let sample = 0; sample < 400; sample += 1) {
      const instant = Math.floor((first + random() * (last - first)) / 60_000) * 60_000;
      const { date, time } = wallClock(zone, new Date(instant));
      // The instant itself, or for the second pass of a repeated time its first.
      const expected = temporalInstant(date, time, zone, 'earlier');
      const back = zonedInstant(date, time, zone);
      // Wall clock → instant → wall clock is the identity for every time that exists.
      const wallBack = wallClock(zone, new Date(back));
      if (back !== expected || wallBack.date !== date || wallBack.time !== time) {
        wrong.push({ instant, date, time, expected, back, wallBack });
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(CHANGING)('%s: a skipped time is refused for a timeslot, naming the zone and the jump of the clocks', (zone) => {
    const forward = changes(zone).filter((change) => change.after > change.before);
    expect(forward.length).toBeGreaterThan(0);
    const wrong: object[] = [];
    for (const { at, before, after } of forward) {
      // The wall times the clocks leave and land on: the change's instant read with the offset before it and with its own.
      const [left, landed] = [wallText(at + before), wallText(at + after)];
      // The first minute the clocks skip, and the last.
      for (const skipped of [left, wallText(at + after - MINUTE)]) {
        const dated = (wall: { date: string; time: string }) => (wall.date === skipped.date ? wall.time : `${wall.date} ${wall.time}`);
        const jump = skippedBy(skipped.date, skipped.time, zone);
        const refusal = refusalOf({ Date: skipped.date, Time: skipped.time }, zone);
        const expected = {
          jump: { from: dated(left), to: dated(landed) },
          refusal: `ValidationError Time is ${skipped.time}, a time that does not exist on ${skipped.date} in ${zone}: the clocks go from ${dated(left)} to ${dated(landed)}`,
        };
        if (JSON.stringify({ jump, refusal }) !== JSON.stringify(expected)) wrong.push({ skipped, got: { jump, refusal }, expected });
      }
      // The minute before the jump and the minute it lands on exist, and a timeslot may start at them.
      for (const exists of [wallText(at - MINUTE + before), landed]) {
        const refusal = refusalOf({ Date: exists.date, Time: exists.time }, zone);
        if (refusal !== undefined) wrong.push({ exists, refusal });
      }
    }
    expect(wrong).toEqual([]);
  });

  it.each(CHANGING)('%s: a bound of opening hours the clocks skip is where they resume; one that exists is its instant', (zone) => {
    const wrong: object[] = [];
    for (const { at, before, after } of changes(zone).filter((change) => change.after > change.before)) {
      // The first and last minute the clocks skip, the minute before the jump, and the minute it lands on.
      const [left, lastSkipped] = [wallText(at + before), wallText(at + after - MINUTE)];
      const [lastBefore, landed] = [wallText(at - MINUTE + before), wallText(at + after)];
      const reaches = (wall: { date: string; time: string }) => clockReaches(wall.date, wall.time, zone);
      const got = [reaches(left), reaches(lastSkipped), reaches(lastBefore), reaches(landed)];
      const expected = [at, at, zonedInstant(lastBefore.date, lastBefore.time, zone), at];
      if (JSON.stringify(got) !== JSON.stringify(expected)) wrong.push({ left, lastSkipped, lastBefore, landed, got, expected });
    }
    expect(wrong).toEqual([]);
  });
});

describe('the changes the service is asked about', () => {
  it('Lisbon: the skipped 01:30 is refused, the repeated 01:30 is its first pass', () => {
    expect(skippedBy('2027-03-28', '01:30', 'Europe/Lisbon')).toEqual({ from: '01:00', to: '02:00' });
    expect(zonedIso('2027-10-31', '01:30', 'Europe/Lisbon')).toBe('2027-10-31T01:30:00+01:00');
    expect(new Date(zonedInstant('2027-10-31', '01:30', 'Europe/Lisbon')).toISOString()).toBe('2027-10-31T00:30:00.000Z');
  });

  it('New York: the repeated 01:30 is its first pass too, on either side of Greenwich', () => {
    expect(zonedIso('2027-11-07', '01:30', 'America/New_York')).toBe('2027-11-07T01:30:00-04:00');
    expect(skippedBy('2027-03-14', '02:30', 'America/New_York')).toEqual({ from: '02:00', to: '03:00' });
    // A time that is skipped names the instant where the clocks land, shifted by the skip, in every text of it.
    expect(zonedIso('2027-03-14', '02:30', 'America/New_York')).toBe('2027-03-14T03:30:00-04:00');
    expect(zonedIsoAsWritten('2027-03-14', '02:30', 'America/New_York')).toBe('2027-03-14T02:30:00-05:00');
    // A day ticket open until 02:30 closes where the clocks resume, the first moment the clock is past 02:30.
    expect(new Date(clockReaches('2027-03-14', '02:30', 'America/New_York')).toISOString()).toBe('2027-03-14T07:00:00.000Z');
  });

  it("an operator's timeslot at a skipped time is a 422 naming Time, as checkTimeslotTime refuses it", () => {
    let refusal: unknown;
    try {
      checkTimeslotTime({ Date: '2027-03-14', Time: '02:30' }, 'America/New_York');
    } catch (error) {
      refusal = error;
    }
    expect(clientProblemFor(refusal)).toEqual({
      status: 422,
      kind: 'validation',
      detail: "Field 'Time' is 02:30, a time that does not exist on 2027-03-14 in America/New_York: the clocks go from 02:00 to 03:00",
    });
    expect(() => checkTimeslotTime({ Date: '2027-11-07', Time: '01:30' }, 'America/New_York')).not.toThrow();
  });

  it("a day that has no midnight starts where the clocks resume, and Apia's missing day is named whole", () => {
    expect(zonedIso('2026-09-06', '00:00', 'America/Santiago')).toBe('2026-09-06T01:00:00-03:00');
    expect(zonedIso(addDays('2026-09-05', 0), '23:59', 'America/Santiago')).toBe('2026-09-05T23:59:00-04:00');
    expect(skippedBy('2011-12-30', '12:00', 'Pacific/Apia')).toEqual({ from: '00:00', to: '2011-12-31 00:00' });
    expect(skippedBy('2027-10-03', '02:15', 'Australia/Lord_Howe')).toEqual({ from: '02:00', to: '02:30' });
  });
});
