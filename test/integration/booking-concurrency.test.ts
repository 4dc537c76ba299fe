import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { addDays, wallClock } from '../../shared/core/calendar';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';

/**
 * Many partners booking one timeslot at the same moment, through real HTTP:
 * the timeslot's condition in the booking transaction is the only guard.
 */
const CAPACITY = 50;
const date = tomorrow();

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 900,
      ActivityID: 's_rush1',
      Name: 'Opening Night',
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 8,
      PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
      Timeslots: [
        { Date: date, Time: '10:00', Capacity: CAPACITY },
        { Date: date, Time: '11:00', Capacity: CAPACITY },
      ],
    },
  ],
};

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  operator = await createTestOperator(catalog);
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const book = (time: string, participants: number, index: number) =>
  request('POST', '/api/v2/ota/marketplace/booking', {
    key: operator.key,
    body: {
      ActivityID: 's_rush1',
      Date: date,
      Time: time,
      Participants: participants,
      Customer: { FirstName: 'Guest', LastName: `No${index}`, Email: `guest${index}@example.com` },
    },
  });

async function booked(time: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, 's_rush1', date, time) }),
  );
  return Item?.Booked as number;
}

async function storedBookings(time: string): Promise<{ BookingReference: string; Participants: number }[]> {
  const today = wallClock('Europe/Lisbon').date;
  const stored: { BookingReference: string; Participants: number; Time: string }[] = [];
  let cursor: string | null = null;
  do {
    const page: Awaited<ReturnType<HttpClient>> = await request(
      'GET',
      `/api/v2/bookings?from=${addDays(today, -1)}&to=${addDays(today, 1)}&limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      { key: operator.key },
    );
    stored.push(...page.json.data.Bookings);
    cursor = page.json.data.NextCursor;
  } while (cursor);
  return stored.filter((booking) => booking.Time === time);
}

it(`takes exactly ${CAPACITY} of 200 simultaneous one-person bookings and refuses the rest with 409`, async () => {
  const responses = await Promise.all(Array.from({ length: 200 }, (_, index) => book('10:00', 1, index)));
  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 201)).toHaveLength(CAPACITY);
  expect(statuses.filter((status) => status === 409)).toHaveLength(200 - CAPACITY);
  for (const refused of responses.filter((response) => response.status === 409)) {
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
  }

  const references = responses.filter((response) => response.status === 201).map((response) => response.json.data.BookingReference);
  expect(new Set(references).size).toBe(CAPACITY);
  const stored = await storedBookings('10:00');
  expect(stored.map((booking) => booking.BookingReference).sort()).toEqual([...references].sort());
  expect(await booked('10:00')).toBe(CAPACITY);

  const availability = await request('GET', `/api/v2/ota/marketplace/availability/s_rush1/timeslots?Date=${date}`, { key: operator.key });
  expect(availability.json.data.map((slot: { Time: string }) => slot.Time)).toEqual(['11:00']);
});

it('never books more than the capacity with simultaneous bookings of mixed party sizes', async () => {
  const sizes = Array.from({ length: 120 }, (_, index) => (index % 8) + 1);
  const responses = await Promise.all(sizes.map((size, index) => book('11:00', size, index)));
  expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);

  const accepted = sizes.filter((_, index) => responses[index].status === 201);
  const refused = sizes.filter((_, index) => responses[index].status === 409);
  const sum = accepted.reduce((total, size) => total + size, 0);
  expect(sum).toBeLessThanOrEqual(CAPACITY);
  expect(await booked('11:00')).toBe(sum);
  expect(refused.length).toBeGreaterThan(0);
  // Places are only ever taken here, so each refusal saw at most as much room as is left now, and needed more.
  for (const size of refused) expect(size).toBeGreaterThan(CAPACITY - sum);

  const stored = await storedBookings('11:00');
  expect(stored).toHaveLength(accepted.length);
  expect(stored.reduce((total, booking) => total + booking.Participants, 0)).toBe(sum);
});
