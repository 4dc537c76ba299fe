import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { addDays, wallClock } from '../../shared/core/calendar';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { testCatalog, tomorrow } from './catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from './fixtures';

export const BOOKING = '/api/v2/ota/marketplace/booking';

export const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' };
export const answers = [
  { QuestionID: 'q_name', Value: 'Ana Silva' },
  { QuestionID: 'q_doc', Value: 'https://files.partner.example/waivers/123.pdf' },
];

export const bookingBody = (date: string, overrides: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: date,
  Time: '09:00',
  Participants: 2,
  Customer: customer,
  ...overrides,
});

/**
 * The world of a test file of the partner booking route: an operator of its
 * own with the test catalogue (40 days from tomorrow, 10 places a timeslot),
 * the local host, and helpers over them. Each test books a date of its own
 * (`freshDate`), so that tests do not share capacity.
 */
export function partnerBookingWorld() {
  const world = {} as { host: LocalHost; request: HttpClient; operator: TestOperator };
  const start = tomorrow();
  let nextDay = 0;

  beforeAll(async () => {
    world.operator = await createTestOperator(testCatalog({ start, days: 40, capacity: 10 }));
    world.host = await startTestHost();
    world.request = httpClient(world.host);
  });
  afterAll(() => world.host.close());

  const book = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
    world.request('POST', BOOKING, { key: options.key ?? world.operator.key, body, headers: options.headers });

  async function vacancies(date: string, time = '09:00', key = world.operator.key): Promise<number> {
    const response = await world.request('GET', `/api/v2/ota/marketplace/availability/s_walk1/timeslots?Date=${date}`, { key });
    return response.json.data.find((slot: { Time: string }) => slot.Time === time)?.Vacancies ?? 0;
  }

  async function booked(date: string, time = '09:00'): Promise<number> {
    const { Item } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.timeslot(world.operator.operatorId, 's_walk1', date, time) }),
    );
    return Item?.Booked as number;
  }

  /** References of the operator's bookings created today or tomorrow (whatever the zone), read through the operator's list. */
  async function storedReferences(): Promise<string[]> {
    const today = wallClock('Europe/Lisbon').date;
    const response = await world.request('GET', `/api/v2/bookings?from=${addDays(today, -1)}&to=${addDays(today, 1)}&limit=200`, {
      key: world.operator.key,
    });
    return response.json.data.Bookings.map((booking: { BookingReference: string }) => booking.BookingReference);
  }

  return { world, start, freshDate: () => addDays(start, nextDay++), book, vacancies, booked, storedReferences };
}
