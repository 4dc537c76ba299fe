import type { CatalogProduct } from '../../shared/catalog/catalog-file';
import { checkCatalog, expandTimeslots } from '../../shared/catalog/catalog-rules';
import { ValidationError } from '../../shared/core/errors';
import { testCatalog } from '../support/catalog';

const product = (overrides: Partial<CatalogProduct> = {}): CatalogProduct => ({
  ProductID: 1,
  ActivityID: 's_a1',
  Name: 'A',
  DurationMinutes: 60,
  MaxParticipantsPerBooking: 4,
  PricePerParticipant: { Amount: 100, Currency: 'EUR' },
  ...overrides,
});

const rejection = (input: unknown): string => {
  try {
    checkCatalog(input, 'Europe/Lisbon');
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const { field, message } = error as ValidationError;
    return field ? `'${field}' ${message}` : message;
  }
  throw new Error('expected the catalogue to be rejected');
};

describe('catalogue validation', () => {
  it('accepts the test catalogue and expands its schedule', () => {
    const { timeslots } = checkCatalog(testCatalog({ start: '2026-06-01', days: 7 }), 'Europe/Lisbon');
    expect(timeslots[0]).toHaveLength(14);
    expect(timeslots[1]).toEqual([{ Date: '2026-06-01', Time: '10:00', Capacity: 5 }]);
  });

  it('names the bad entry and field', () => {
    expect(rejection({ Products: [product(), product({ ProductID: 2, ActivityID: 'bad id', Name: 'B' })] })).toMatch(
      /Products\[1\]\.ActivityID/,
    );
    expect(
      rejection({
        Products: [product({ Schedules: [{ From: '2026-06-01', To: '2026-06-02', Weekdays: ['MON'], Times: ['25:00'], Capacity: 2 }] })],
      }),
    ).toMatch(/Products\[0\]\.Schedules\[0\]\.Times\[0\]' must be a time in HH:MM/);
    expect(rejection({ Products: [product({ Extra: 1 } as Partial<CatalogProduct>)] })).toMatch(/'Products\[0\]\.Extra' is not allowed/);
    expect(rejection({})).toMatch(/'Products' is required/);
  });

  it('takes a price up to 10^11 minor units, so that the total of the largest party is an exact integer', () => {
    const priced = (Amount: number) => ({
      Products: [product({ MaxParticipantsPerBooking: 10_000, PricePerParticipant: { Amount, Currency: 'EUR' } })],
    });
    expect(() => checkCatalog(priced(100_000_000_000), 'Europe/Lisbon')).not.toThrow();
    expect(Number.isSafeInteger(100_000_000_000 * 10_000)).toBe(true);
    expect(rejection(priced(100_000_000_001))).toBe(
      "'Products[0].PricePerParticipant.Amount' must be a whole number of minor units (cents) from 0 to 100000000000",
    );
  });

  it('rejects duplicate IDs and names within the file', () => {
    expect(rejection({ Products: [product(), product({ ActivityID: 's_b', Name: 'B' })] })).toMatch(/ProductID '1'/);
    expect(rejection({ Products: [product(), product({ ProductID: 2, Name: 'B' })] })).toMatch(/ActivityID 's_a1'/);
    expect(rejection({ Products: [product(), product({ ProductID: 2, ActivityID: 's_b', Name: ' a ' })] })).toMatch(/Name 'a'/);
  });

  it('checks question rules', () => {
    const choice = { QuestionID: 'q_1', Text: 'Size', Type: 'SINGLE_CHOICE', Required: true } as const;
    expect(rejection({ Products: [product({ Questions: [choice] })] })).toMatch(/Products\[0\] \(s_a1\): question 'q_1' must have Options/);
    const text = { QuestionID: 'q_2', Text: 'Why', Type: 'TEXT', Required: false, MaxFileSizeBytes: 5 } as const;
    expect(rejection({ Products: [product({ Questions: [text] })] })).toMatch(/not FILE_UPLOAD/);
  });

  it('rejects reversed and over-long schedules', () => {
    const schedule = { From: '2026-06-02', To: '2026-06-01', Weekdays: ['MON' as const], Times: ['09:00'], Capacity: 2 };
    expect(rejection({ Products: [product({ Schedules: [schedule] })] })).toMatch(/To is before From/);
    expect(rejection({ Products: [product({ Schedules: [{ ...schedule, From: '2026-01-01', To: '2027-06-01' }] })] })).toMatch(
      /at most 366/,
    );
  });
});

describe('timeslot expansion', () => {
  it('keeps only listed weekdays, and one-off slots override schedule slots', () => {
    const { rows } = expandTimeslots(
      { name: 'entry', index: 0 },
      {
        ...product(),
        // 2026-06-01 is a Monday.
        Schedules: [{ From: '2026-06-01', To: '2026-06-07', Weekdays: ['MON', 'SUN'], Times: ['09:00'], Capacity: 3 }],
        Timeslots: [{ Date: '2026-06-07', Time: '09:00', Capacity: 9 }],
      },
      'Europe/Lisbon',
    );
    expect(rows).toEqual([
      { Date: '2026-06-01', Time: '09:00', Capacity: 3 },
      { Date: '2026-06-07', Time: '09:00', Capacity: 9 },
    ]);
  });
});

describe("times the clocks skip or repeat (the operator's zone)", () => {
  const EVERY_DAY = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
  const schedule = (From: string, To: string, Times: string[]) => ({ From, To, Weekdays: [...EVERY_DAY], Times, Capacity: 4 });

  /** The starts a product with `schedules` has in `zone`, and the ones it skipped. */
  const expanded = (schedules: ReturnType<typeof schedule>[], zone = 'Europe/Lisbon') => {
    const { timeslots, skipped } = checkCatalog({ Products: [product({ Schedules: schedules })] }, zone);
    return { starts: timeslots[0].map((row) => `${row.Date} ${row.Time}`), skipped };
  };

  it("leaves a schedule's start out on the date the clocks skip it, and says which", () => {
    expect(expanded([schedule('2027-03-27', '2027-03-29', ['01:30', '10:00'])])).toEqual({
      starts: ['2027-03-27 01:30', '2027-03-27 10:00', '2027-03-28 10:00', '2027-03-29 01:30', '2027-03-29 10:00'],
      skipped: [{ activityId: 's_a1', date: '2027-03-28', time: '01:30' }],
    });
    // The same file in New York, whose clocks change on other dates and at 02:00, skips nothing.
    expect(expanded([schedule('2027-03-27', '2027-03-29', ['01:30'])], 'America/New_York').skipped).toEqual([]);
  });

  it('names a skipped start once however many schedules cover it', () => {
    expect(expanded([schedule('2027-03-27', '2027-03-28', ['01:30', '10:00']), schedule('2027-03-28', '2027-03-29', ['01:30'])])).toEqual({
      starts: ['2027-03-27 01:30', '2027-03-27 10:00', '2027-03-28 10:00', '2027-03-29 01:30'],
      skipped: [{ activityId: 's_a1', date: '2027-03-28', time: '01:30' }],
    });
  });

  it('refuses a one-off timeslot at a time the clocks skip, naming the entry, the zone and the skip', () => {
    expect(rejection({ Products: [product({ Timeslots: [{ Date: '2027-03-28', Time: '01:30', Capacity: 2 }] })] })).toBe(
      "'Products[0].Timeslots[0].Time' is 01:30, a time that does not exist on 2027-03-28 in Europe/Lisbon: the clocks go from 01:00 to 02:00",
    );
  });

  it('takes a time the clocks repeat once, and a day ticket on a day whose midnight the clocks skip', () => {
    const { timeslots, skipped } = checkCatalog(
      {
        Products: [
          product({ Timeslots: [{ Date: '2026-04-04', Time: '23:30', Capacity: 2 }] }),
          product({
            ProductID: 2,
            ActivityID: 's_day1',
            Name: 'Day',
            AvailabilityType: 'OPENING_HOURS',
            Schedules: [
              {
                From: '2026-09-06',
                To: '2026-09-06',
                Weekdays: [...EVERY_DAY],
                OpeningHours: [{ From: '00:00', To: '18:00' }],
                Capacity: 9,
              },
            ],
          }),
        ],
      },
      'America/Santiago',
    );
    expect(timeslots).toEqual([
      [{ Date: '2026-04-04', Time: '23:30', Capacity: 2 }],
      [{ Date: '2026-09-06', Time: '00:00', Capacity: 9, OpeningHours: [{ From: '00:00', To: '18:00' }] }],
    ]);
    expect(skipped).toEqual([]);
  });
});
