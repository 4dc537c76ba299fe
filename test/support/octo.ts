import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { availabilityIdOf } from '../../shared/octo/render';
import type { LocalHost } from '../../lib/local/host';
import { tomorrow } from './catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from './fixtures';

/** The OCTo routes' base path. */
export const OCTO = '/octo';

/**
 * A catalogue for the OCTo tests, from tomorrow for `days` days: a boat trip
 * at two start times with adult, child and infant (only with an adult)
 * units, a day ticket open 10:00–18:00, a product whose catalogue names no
 * units, and a hidden one.
 */
export function octoCatalog(options: { days?: number; capacity?: number; start?: string } = {}): CatalogFile {
  const start = options.start ?? tomorrow();
  const to = addDays(start, (options.days ?? 7) - 1);
  const everyDay = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
  const capacity = options.capacity ?? 20;
  return {
    Products: [
      {
        ProductID: 601,
        ActivityID: 's_boat1',
        Name: 'Bay Boat Trip',
        DurationMinutes: 90,
        MaxParticipantsPerBooking: 8,
        PricePerParticipant: { Amount: 4000, Currency: 'EUR' },
        Units: [
          { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 4000, Currency: 'EUR' }, MinAge: 18 },
          {
            UnitID: 'child',
            Name: 'Child',
            Type: 'CHILD',
            Price: { Amount: 2500, Currency: 'EUR' },
            MinAge: 4,
            MaxAge: 17,
            MaxQuantity: 4,
          },
          { UnitID: 'infant', Name: 'Infant', Type: 'INFANT', Price: { Amount: 0, Currency: 'EUR' }, MaxAge: 3, AccompaniedBy: ['adult'] },
        ],
        Schedules: [{ From: start, To: to, Weekdays: [...everyDay], Times: ['10:00', '15:00'], Capacity: capacity }],
      },
      {
        ProductID: 602,
        ActivityID: 's_museum1',
        Name: 'City Museum Day Ticket',
        AvailabilityType: 'OPENING_HOURS',
        DurationMinutes: 120,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
        Units: [
          { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 1500, Currency: 'EUR' } },
          { UnitID: 'senior', Name: 'Senior', Type: 'SENIOR', Price: { Amount: 1000, Currency: 'EUR' }, MinAge: 65 },
        ],
        Schedules: [{ From: start, To: to, Weekdays: [...everyDay], OpeningHours: [{ From: '10:00', To: '18:00' }], Capacity: capacity }],
      },
      {
        ProductID: 603,
        ActivityID: 's_walk1',
        Name: 'Old Town Walk',
        DurationMinutes: 60,
        MaxParticipantsPerBooking: 10,
        PricePerParticipant: { Amount: 2000, Currency: 'EUR' },
        Schedules: [{ From: start, To: to, Weekdays: [...everyDay], Times: ['09:00'], Capacity: capacity }],
      },
      {
        ProductID: 604,
        ActivityID: 's_hidden1',
        Name: 'Staff Only',
        Visible: false,
        DurationMinutes: 60,
        MaxParticipantsPerBooking: 5,
        PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
        Timeslots: [{ Date: start, Time: '10:00', Capacity: 5 }],
      },
    ],
  };
}

/** The availability ID of a timeslot: its local start with its offset (a day ticket's at 00:00). */
export const availabilityId = (date: string, time: string, timeZone = 'Europe/Lisbon') =>
  availabilityIdOf({ Date: date, Time: time }, timeZone);

/** A client for the OCTo routes of one key, with OCTo's capability header (pricing on unless told otherwise). */
export function octoClient(request: HttpClient, key: string, options: { pricing?: boolean } = {}) {
  const headers = { 'Octo-Capabilities': options.pricing === false ? '' : 'octo/pricing' };
  return (method: string, path: string, body?: unknown) => request(method, `${OCTO}${path}`, { key, body, headers });
}

export type OctoClient = ReturnType<typeof octoClient>;

/** A reservation body for `units` (unit IDs, one item each) on a timeslot of the boat trip. */
export const reservation = (date: string, time: string, units: string[], extra: Record<string, unknown> = {}) => ({
  productId: 's_boat1',
  optionId: 'DEFAULT',
  availabilityId: availabilityId(date, time),
  unitItems: units.map((unitId) => ({ unitId })),
  ...extra,
});

/**
 * Cancels the reservations a test left held on the days from `from` to `to`:
 * holds of every test file share the sweep's index, and a test that counts
 * what a sweep expires must not meet another file's holds falling due.
 */
export async function releaseHolds(octo: OctoClient, from: string, to: string): Promise<void> {
  const listed = await octo('GET', `/bookings?localDateStart=${from}&localDateEnd=${to}`);
  const held = (listed.json as { uuid: string; status: string }[]).filter((booking) => booking.status === 'ON_HOLD');
  await Promise.all(held.map((booking) => octo('POST', `/bookings/${booking.uuid}/cancel`, {})));
}

/**
 * The world of an OCTo test file: an operator of its own with the OCTo
 * catalogue (10 days from tomorrow, 20 places a timeslot), the local host,
 * and an OCTo client that asks for prices; what it holds is released at the end.
 */
export function octoWorld() {
  const world = {} as { host: LocalHost; request: HttpClient; operator: TestOperator; octo: OctoClient };
  const start = tomorrow();
  const day = (offset: number) => addDays(start, offset);

  beforeAll(async () => {
    world.operator = await createTestOperator(octoCatalog({ start, days: 10, capacity: 20 }));
    world.host = await startTestHost();
    world.request = httpClient(world.host);
    world.octo = octoClient(world.request, world.operator.key);
  });

  afterAll(async () => {
    await releaseHolds(world.octo, day(0), day(30));
    await world.host.close();
  });

  return { world, start, day };
}
