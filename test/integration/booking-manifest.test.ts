import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LocalHost } from '../../lib/local/host';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';

/**
 * The operator's side through real HTTP: the manifest of a day (every
 * channel, by timeslot, with participant counts) and cancelling any booking,
 * from the API and from the admin CLI.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const day = addDays(tomorrow(), 2);

const product = (id: number, activityId: string, name: string): CatalogFile['Products'][number] => ({
  ProductID: id,
  ActivityID: activityId,
  Name: name,
  DurationMinutes: 60,
  MaxParticipantsPerBooking: 8,
  PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
  Schedules: [
    {
      From: day,
      To: addDays(day, 1),
      Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
      Times: ['09:00', '15:00'],
      Capacity: 30,
    },
  ],
});

const catalog: CatalogFile = { Products: [product(601, 's_zoo1', 'Zoo Walk'), product(602, 's_aqua1', 'Aquarium Visit')] };

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  operator = await createTestOperator(catalog);
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const person = (FirstName: string, LastName: string) => ({ FirstName, LastName, Email: `${FirstName.toLowerCase()}@example.com` });

async function partnerBooking(activityId: string, time: string, participants: number, customer: object, extra: object = {}, date = day) {
  const response = await request('POST', BOOKING, {
    key: operator.key,
    body: { ActivityID: activityId, Date: date, Time: time, Participants: participants, Customer: customer, ...extra },
  });
  expect(response.status).toBe(201);
  return response.json.data.BookingReference as string;
}

const manifest = (query: string) => request('GET', `/api/v2/bookings?${query}`, { key: operator.key });

describe('the manifest of a day', () => {
  let cancelled: string;
  let held: string;

  beforeAll(async () => {
    await partnerBooking('s_zoo1', '15:00', 2, person('Zara', 'Silva'));
    await partnerBooking('s_zoo1', '09:00', 3, person('Bruno', 'Matos'));
    await recordOperatorBooking(operator.operatorId, {
      Channel: 'pos',
      ActivityID: 's_zoo1',
      Date: day,
      Time: '09:00',
      Participants: 1,
      Customer: person('Ana', 'Matos'),
    });
    await recordOperatorBooking(operator.operatorId, {
      Channel: 'online',
      ActivityID: 's_aqua1',
      Date: day,
      Time: '09:00',
      Participants: 4,
      Customer: person('Carla', 'Alves'),
    });
    held = await partnerBooking('s_aqua1', '09:00', 2, person('Duarte', 'Reis'), { Hold: { ExpiresInMinutes: 30 } });
    cancelled = await partnerBooking('s_zoo1', '09:00', 5, person('Eva', 'Antunes'));
    await request('POST', `${BOOKING}/${cancelled}/cancel`, { key: operator.key });
    await partnerBooking('s_zoo1', '09:00', 6, person('Filipe', 'Nunes'), {}, addDays(day, 1));
  });

  it('lists every timeslot of the day by start, then activity name, with its held and confirmed bookings of every channel by customer name, and participant counts', async () => {
    const response = await manifest(`date=${day}`);
    expect(response.status).toBe(200);
    const data = response.json.data;
    expect(data.Date).toBe(day);
    expect(data.Participants).toBe(3 + 1 + 4 + 2 + 2);
    expect(
      data.Timeslots.map((slot: any) => [
        slot.Time,
        slot.ActivityName,
        slot.Participants,
        slot.HeldParticipants,
        slot.Bookings.map((b: any) => `${b.Customer.LastName}, ${b.Customer.FirstName} (${b.Channel}, ${b.Status})`),
      ]),
    ).toEqual([
      ['09:00', 'Aquarium Visit', 6, 2, ['Alves, Carla (online, CONFIRMED)', 'Reis, Duarte (ota, ON_HOLD)']],
      ['09:00', 'Zoo Walk', 4, 0, ['Matos, Ana (pos, CONFIRMED)', 'Matos, Bruno (ota, CONFIRMED)']],
      ['15:00', 'Aquarium Visit', 0, 0, []],
      ['15:00', 'Zoo Walk', 2, 0, ['Silva, Zara (ota, CONFIRMED)']],
    ]);
    expect(data.Timeslots.map((slot: any) => [slot.Capacity, slot.Vacancies, slot.Status, slot.Closed])).toEqual([
      [30, 24, 'AVAILABLE', false],
      [30, 26, 'AVAILABLE', false],
      [30, 30, 'AVAILABLE', false],
      [30, 28, 'AVAILABLE', false],
    ]);
    const hold = data.Timeslots[0].Bookings[1];
    expect(hold).toMatchObject({ BookingReference: held, HoldExpiresAt: expect.any(String) });
    expect(JSON.stringify(data)).not.toContain(cancelled);
  });

  it('narrows to one activity', async () => {
    const response = await manifest(`date=${day}&activity=s_zoo1`);
    expect(response.json.data.Timeslots.map((slot: any) => [slot.Time, slot.ActivityID])).toEqual([
      ['09:00', 's_zoo1'],
      ['15:00', 's_zoo1'],
    ]);
    expect(response.json.data.Participants).toBe(6);
  });

  it('answers an empty day with no timeslots', async () => {
    const response = await manifest(`date=${addDays(day, 5)}`);
    expect(response.json.data).toEqual({ Date: addDays(day, 5), Participants: 0, Timeslots: [] });
  });

  it.each([
    [
      `date=${day}&from=${day}&to=${day}`,
      "Query parameter 'date' (the manifest of a day) cannot be combined with 'from', 'to' (the list by creation day)",
    ],
    [
      `date=${day}&cursor=abc`,
      "Query parameter 'date' (the manifest of a day) cannot be combined with 'cursor' (the list by creation day)",
    ],
    [`activity=s_zoo1&from=${day}&to=${day}`, "Query parameter 'activity' filters the manifest only: give 'date' with it"],
    ['', "Query parameter 'from' is required (or give 'date' for the manifest of a day)"],
    ['date=2026-02-30', "Query parameter 'date' must be a real calendar date in YYYY-MM-DD format, from 1970-01-01 to 9998-12-31"],
    [`date=${day}&activity=zoo`, "Query parameter 'activity' must be 's_' followed by 1 to 64 letters or digits"],
  ])('refuses %s with 422', async (query, detail) => {
    const response = await manifest(query);
    expect(response.status).toBe(422);
    expect(response.json.detail).toBe(detail);
  });
});

describe('operator cancellation', () => {
  it('cancels a booking of any channel with a reason and gives its places back; again answers it unchanged', async () => {
    const booking = await recordOperatorBooking(operator.operatorId, {
      Channel: 'pos',
      ActivityID: 's_aqua1',
      Date: day,
      Time: '15:00',
      Participants: 7,
      Customer: person('Gil', 'Sousa'),
    });
    const vacancies = async () =>
      (await request('GET', `/api/v2/ota/marketplace/availability/s_aqua1/timeslots?Date=${day}`, { key: operator.key })).json.data.find(
        (slot: { Time: string }) => slot.Time === '15:00',
      ).Vacancies;
    expect(await vacancies()).toBe(23);
    const cancel = () =>
      request('POST', `/api/v2/bookings/${booking.BookingReference.toLowerCase()}/cancel`, {
        key: operator.key,
        body: { Reason: 'Tank cleaning' },
      });
    const first = await cancel();
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({
      Status: 'CANCELLED',
      CancelledBy: 'operator',
      CancellationReason: 'Tank cleaning',
      Channel: 'pos',
    });
    expect(await vacancies()).toBe(30);
    expect((await cancel()).json.data).toEqual(first.json.data);
    expect(await vacancies()).toBe(30);
  });

  it('needs the bookings:write scope', async () => {
    const reference = await partnerBooking('s_aqua1', '15:00', 1, person('Hugo', 'Pinto'));
    const readOnly = await operator.keyWith(['bookings:read']);
    const refused = await request('POST', `/api/v2/bookings/${reference}/cancel`, { key: readOnly, body: { Reason: 'x' } });
    expect(refused.status).toBe(403);
    expect((await request('GET', `${BOOKING}/${reference}`, { key: operator.key })).json.data.Status).toBe('CONFIRMED');
  });

  it('cancels from the admin CLI, naming the booking and its new status', async () => {
    const reference = await partnerBooking('s_zoo1', '15:00', 1, person('Ivo', 'Rocha'));
    const root = path.resolve(__dirname, '../..');
    const cli = (...args: string[]) =>
      promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), ['bin/admin.ts', ...args], { cwd: root, env: { ...process.env } });
    const { stdout } = await cli('cancel-booking', '--operator', operator.operatorId, '--reference', reference, '--reason', 'Keeper ill');
    expect(stdout).toMatch(new RegExp(`^${reference}  CANCELLED at \\S+  in table`));
    expect((await request('GET', `${BOOKING}/${reference}`, { key: operator.key })).json.data).toMatchObject({
      Status: 'CANCELLED',
      CancelledBy: 'operator',
      CancellationReason: 'Keeper ill',
    });
    await expect(cli('cancel-booking', '--operator', operator.operatorId, '--reference', reference, '--reason', ' ')).rejects.toMatchObject(
      {
        stderr: expect.stringContaining("Field 'Reason' must be 1 to 500 characters"),
      },
    );
  });
});
