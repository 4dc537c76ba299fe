import { checkDateRange, summariseDates, summariseTimeslots, timeslotStatus, vacanciesOf } from '../../shared/catalog/availability';
import { ValidationError } from '../../shared/core/errors';

const slot = (Date: string, Time: string, Capacity: number, Booked: number) => ({
  Date,
  Time,
  Capacity,
  Booked,
  Vacancies: Capacity - Booked,
});
// 2026-06-10 12:00 in Lisbon (UTC+1 in summer).
const now = new Date('2026-06-10T11:00:00Z');

describe('availability status', () => {
  const status = (vacancies: number, capacity: number, extra: { Closed?: boolean; places?: number } = {}) =>
    timeslotStatus({ Vacancies: vacancies, Capacity: capacity, Closed: extra.Closed }, extra.places);

  it('is AVAILABLE above a fifth of capacity, LIMITED at or below, SOLD_OUT at none', () => {
    expect(status(10, 10)).toBe('AVAILABLE');
    expect(status(3, 10)).toBe('AVAILABLE');
    expect(status(2, 10)).toBe('LIMITED');
    expect(status(1, 10)).toBe('LIMITED');
    expect(status(0, 10)).toBe('SOLD_OUT');
    expect(status(-2, 10)).toBe('SOLD_OUT');
  });

  it('is SOLD_OUT for a party larger than the places left', () => {
    expect(status(3, 10, { places: 3 })).toBe('AVAILABLE');
    expect(status(3, 10, { places: 4 })).toBe('SOLD_OUT');
  });

  it('is CLOSED while the operator has closed the timeslot, whatever is left, and then has nothing for sale', () => {
    expect(status(10, 10, { Closed: true })).toBe('CLOSED');
    expect(status(0, 10, { Closed: true })).toBe('CLOSED');
    expect(status(10, 10, { Closed: false })).toBe('AVAILABLE');
    expect(vacanciesOf({ Vacancies: 10, Closed: true })).toBe(0);
    expect(vacanciesOf({ Vacancies: 10 })).toBe(10);
  });
});

describe('date range rules', () => {
  it('accepts one day and 92 days, rejects reversed and longer ranges', () => {
    expect(() => checkDateRange('2026-06-10', '2026-06-10')).not.toThrow();
    expect(() => checkDateRange('2026-06-01', '2026-08-31')).not.toThrow();
    expect(() => checkDateRange('2026-06-01', '2026-09-01')).toThrow(ValidationError);
    expect(() => checkDateRange('2026-06-10', '2026-06-09')).toThrow(/before/);
  });
});

describe('summaries', () => {
  const slots = [
    slot('2026-06-10', '09:00', 10, 0), // started already
    slot('2026-06-10', '15:00', 10, 9),
    slot('2026-06-11', '09:00', 10, 10), // full
    slot('2026-06-11', '15:00', 10, 4),
    slot('2026-06-12', '09:00', 5, 5), // full: the date drops out
    slot('2026-06-13', '09:00', 5, 7), // overbooked by a capacity cut: never negative
  ];

  it('drops started and full timeslots and sums the rest per date', () => {
    expect(summariseDates(slots, 'Europe/Lisbon', now)).toEqual([
      { Date: '2026-06-10', Status: 'LIMITED', Vacancies: 1, Capacity: 10, AvailableTimeslots: 1 },
      { Date: '2026-06-11', Status: 'AVAILABLE', Vacancies: 6, Capacity: 10, AvailableTimeslots: 1 },
    ]);
  });

  it('lists bookable timeslots with their offset-qualified start', () => {
    expect(summariseTimeslots(slots.slice(0, 2), 'Europe/Lisbon', now)).toEqual([
      {
        Date: '2026-06-10',
        Time: '15:00',
        StartsAt: '2026-06-10T15:00:00+01:00',
        Status: 'LIMITED',
        Vacancies: 1,
        Capacity: 10,
      },
    ]);
  });

  it('leaves a closed timeslot out like a full one, and its date when it was the only one with room', () => {
    const closed = (item: ReturnType<typeof slot>) => ({ ...item, Closed: true });
    const day = [closed(slot('2026-06-11', '09:00', 10, 0)), slot('2026-06-11', '15:00', 10, 4), closed(slot('2026-06-12', '09:00', 5, 0))];
    expect(summariseDates(day, 'Europe/Lisbon', now)).toEqual([
      { Date: '2026-06-11', Status: 'AVAILABLE', Vacancies: 6, Capacity: 10, AvailableTimeslots: 1 },
    ]);
    expect(summariseTimeslots(day, 'Europe/Lisbon', now).map((item) => item.Time)).toEqual(['15:00']);
  });

  it("judges 'already started' in the operator's zone, not the server's", () => {
    // 11:00 UTC is 07:00 in New York: the 09:00 slot there has not started.
    expect(summariseTimeslots([slot('2026-06-10', '09:00', 4, 0)], 'America/New_York', now)).toHaveLength(1);
    expect(summariseTimeslots([slot('2026-06-10', '09:00', 4, 0)], 'Europe/Lisbon', now)).toHaveLength(0);
  });
});
