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
 * against Temporal's `disambiguation: 'compatible'` (the polyfill, for tests
 * only) around every change of the clocks from 1970 to 2037 in zones chosen
 * for their trouble, and at random instants up to 2100.
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

const plain = (date: string, time: string) => Temporal.PlainDateTime.from(`${date}T${time}`);
const temporalInstant = (date: string, time: string, zone: string, disambiguation: 'earlier' | 'later') =>
  plain(date, time).toZonedDateTime(zone, { disambiguation }).epochMilliseconds;
/** Whether the wall clock ever reads it ('reject' refuses repeated times too, so the earlier instant is read back). */
const exists = (date: string, time: string, zone: string, earlier: number) =>
  Temporal.Instant.fromEpochMilliseconds(earlier).toZonedDateTimeISO(zone).toPlainDateTime().equals(plain(date, time));

/** Every change of the clocks of `zone` from 1970 up to `lastYear`, as the instant and the offsets either side (minutes). */
function transitions(zone: string, lastYear: number): { at: Temporal.ZonedDateTime; before: number; after: number }[] {
  const found = [];
  let at = Temporal.Instant.from('1970-01-01T00:00:00Z').toZonedDateTimeISO(zone);
  for (;;) {
    const next = at.getTimeZoneTransition('next');
    if (!next || next.year > lastYear) return found;
    found.push({ at: next, before: next.subtract({ nanoseconds: 1 }).offsetNanoseconds / 6e10, after: next.offsetNanoseconds / 6e10 });
    at = next;
  }
}

const wallText = (zoned: Temporal.ZonedDateTime) => {
  const text = zoned.toPlainDateTime().toString();
  return { date: text.slice(0, 10), time: text.slice(11, 16) };
};

describe('a local date and time is one instant', () => {
  it.each(ZONES)('%s: every wall time around each change of the clocks since 1970 resolves as Temporal compatible does', (zone) => {
    const wrong: object[] = [];
    let checked = 0;
    for (const { at, before, after } of transitions(zone, 2037)) {
      // Every 15 minutes on the wall clock from three hours before the change to three after: skips, repeats and both edges.
      const start = at.subtract({ hours: 3 }).toPlainDateTime().round({ smallestUnit: 'minute', roundingIncrement: 15 });
      for (let step = 0; step <= 24 + Math.ceil(Math.abs(after - before) / 15); step += 1) {
        const text = start.add({ minutes: 15 * step }).toString();
        const [date, time] = [text.slice(0, 10), text.slice(11, 16)];
        const zoned = zonedTime(date, time, zone);
        const [earlier, later] = [temporalInstant(date, time, zone, 'earlier'), temporalInstant(date, time, zone, 'later')];
        const occurs = !exists(date, time, zone, earlier) ? 'skipped' : earlier === later ? 'once' : 'twice';
        // 'compatible': the earlier of two, and the later (shifted forward by the skip) for a skipped time.
        const instant = occurs === 'skipped' ? later : earlier;
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

  it.each(ZONES)('%s: instant → wall clock → instant is the identity, but for the second pass of a repeated time', (zone) => {
    // A fixed pseudo-random walk over 1970..2100, so that a failure names an instant that fails again.
    let seed = [...zone].reduce((sum, char) => (Math.imul(sum, 31) + char.charCodeAt(0)) >>> 0, 7);
    const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    const [first, last] = [Date.UTC(1970, 0, 2), Date.UTC(2100, 0, 1)];
    for (let sample = 0; sample < 400; sample += 1) {
      const instant = Math.floor((first + random() * (last - first)) / 60_000) * 60_000;
      const { date, time } = wallClock(zone, new Date(instant));
      const secondPass = temporalInstant(date, time, zone, 'earlier') !== instant;
      expect({ instant, back: zonedInstant(date, time, zone) }).toEqual({
        instant,
        back: secondPass ? temporalInstant(date, time, zone, 'earlier') : instant,
      });
      // Wall clock → instant → wall clock is the identity for every time that exists.
      expect(wallClock(zone, new Date(zonedInstant(date, time, zone)))).toMatchObject({ date, time });
    }
  });

  it.each(CHANGING)('%s: a skipped time is refused for a timeslot, naming the zone and the jump of the clocks', (zone) => {
    const forward = transitions(zone, 2037).filter((change) => change.after > change.before);
    expect(forward.length).toBeGreaterThan(0);
    for (const { at, before, after } of forward) {
      // The wall times the clocks leave and land on: the change's instant read with the offset before it and with its own.
      const left = wallText(at.withTimeZone('UTC').add({ minutes: before }));
      const landed = wallText(at);
      // The first minute the clocks skip, and the last.
      for (const skipped of [left, wallText(at.withTimeZone('UTC').add({ minutes: after - 1 }))]) {
        const jump = skippedBy(skipped.date, skipped.time, zone);
        const dated = (wall: { date: string; time: string }) => (wall.date === skipped.date ? wall.time : `${wall.date} ${wall.time}`);
        expect({ skipped, jump }).toEqual({ skipped, jump: { from: dated(left), to: dated(landed) } });
        let refusal: unknown;
        try {
          checkTimeslotTime({ Date: skipped.date, Time: skipped.time }, zone);
        } catch (error) {
          refusal = error;
        }
        expect(refusal).toBeInstanceOf(ValidationError);
        expect(refusal).toMatchObject({
          field: 'Time',
          message: `is ${skipped.time}, a time that does not exist on ${skipped.date} in ${zone}: the clocks go from ${dated(left)} to ${dated(landed)}`,
        });
      }
      // The minute before the jump and the minute it lands on exist, and a timeslot may start at them.
      const lastBefore = wallText(at.subtract({ minutes: 1 }));
      expect(() => checkTimeslotTime({ Date: lastBefore.date, Time: lastBefore.time }, zone)).not.toThrow();
      expect(() => checkTimeslotTime({ Date: landed.date, Time: landed.time }, zone)).not.toThrow();
    }
  });

  it.each(CHANGING)('%s: a bound of opening hours the clocks skip is where they resume; one that exists is its instant', (zone) => {
    for (const { at, before, after } of transitions(zone, 2037).filter((change) => change.after > change.before)) {
      const left = wallText(at.withTimeZone('UTC').add({ minutes: before }));
      const lastSkipped = wallText(at.withTimeZone('UTC').add({ minutes: after - 1 }));
      const reaches = (wall: { date: string; time: string }) => clockReaches(wall.date, wall.time, zone);
      expect({ left, lastSkipped, at: [reaches(left), reaches(lastSkipped)] }).toEqual({
        left,
        lastSkipped,
        at: [at.epochMilliseconds, at.epochMilliseconds],
      });
      const lastBefore = wallText(at.subtract({ minutes: 1 }));
      expect(reaches(lastBefore)).toBe(zonedInstant(lastBefore.date, lastBefore.time, zone));
      expect(reaches(wallText(at))).toBe(at.epochMilliseconds);
    }
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
