import {
  addDays,
  canonicalTimeZone,
  daysBetween,
  isSupportedDay,
  isTimeZone,
  wallClock,
  zonedInstant,
  zonedIso,
} from '../../shared/core/calendar';

describe('calendar', () => {
  it('adds days across month, year and leap-day boundaries', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('counts days between dates, negative when reversed', () => {
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30);
    expect(daysBetween('2026-03-31', '2026-03-01')).toBe(-30);
    // Across the European DST change the count is still whole days.
    expect(daysBetween('2026-03-28', '2026-03-30')).toBe(2);
  });

  it('recognises IANA zone names', () => {
    expect(isTimeZone('Europe/Lisbon')).toBe(true);
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('accepts real days from 1970 to 9998 only', () => {
    for (const day of ['1970-01-01', '2028-02-29', '9998-12-31']) expect(isSupportedDay(day)).toBe(true);
    for (const day of ['1969-12-31', '9999-12-31', '0999-01-01', '2026-02-30', '2026-13-01', '2026-1-01', '20260101']) {
      expect(isSupportedDay(day)).toBe(false);
    }
  });

  it('spells zones canonically', () => {
    expect(canonicalTimeZone('asia/tokyo')).toBe('Asia/Tokyo');
    expect(canonicalTimeZone('Mars/Olympus')).toBeUndefined();
  });

  it('reads the wall clock of a zone', () => {
    // Years before 1000 keep four digits.
    expect(wallClock('UTC', new Date(Date.UTC(999, 11, 31, 12))).date).toBe('0999-12-31');
    const instant = new Date('2026-07-01T23:30:00Z');
    expect(wallClock('Europe/Lisbon', instant)).toEqual({ date: '2026-07-02', time: '00:30', seconds: 0 });
    expect(wallClock('America/New_York', instant)).toEqual({ date: '2026-07-01', time: '19:30', seconds: 0 });
  });

  it('turns a local date and time into the instant and the offset that apply that day', () => {
    expect(new Date(zonedInstant('2026-07-01', '10:00', 'Europe/Lisbon')).toISOString()).toBe('2026-07-01T09:00:00.000Z');
    expect(new Date(zonedInstant('2026-12-01', '10:00', 'Europe/Lisbon')).toISOString()).toBe('2026-12-01T10:00:00.000Z');
    expect(zonedIso('2026-07-01', '10:00', 'Europe/Lisbon')).toBe('2026-07-01T10:00:00+01:00');
    expect(zonedIso('2026-12-01', '10:00', 'America/New_York')).toBe('2026-12-01T10:00:00-05:00');
    expect(zonedIso('2026-12-01', '10:00', 'Asia/Kolkata')).toBe('2026-12-01T10:00:00+05:30');
  });
});
