import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { expireDueHolds } from '../../shared/booking/holds';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';

/**
 * Holds through real HTTP on the local host, with a clock the tests move:
 * a hold takes places like a booking, a confirmation succeeds only while the
 * hold is live, and the one-minute sweep gives expired holds' places back
 * exactly once, whatever races it.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const CAPACITY = 20;
const first = tomorrow();
/** Each test takes a day of its own, so that tests do not share places. */
let nextDay = 0;
const freshDate = () => addDays(first, nextDay++);

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 700,
      ActivityID: 's_boat1',
      Name: 'Dolphin Boat Trip',
      DurationMinutes: 120,
      MaxParticipantsPerBooking: 10,
      PricePerParticipant: { Amount: 3500, Currency: 'EUR' },
      Questions: [{ QuestionID: 'q_swim', Text: 'Can everyone swim?', Type: 'YES_NO', Required: true }],
      Schedules: [
        {
          From: first,
          To: addDays(first, 29),
          Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          Times: ['10:00'],
          Capacity: CAPACITY,
        },
      ],
    },
  ],
};

const clock = manualClock(new Date());
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  configure({ ...config(), clock });
  operator = await createTestOperator(catalog);
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const customer = { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' };

const hold = (
  date: string,
  options: { participants?: number; minutes?: number; customer?: boolean; headers?: Record<string, string> } = {},
) =>
  request('POST', BOOKING, {
    key: operator.key,
    headers: options.headers,
    body: {
      ActivityID: 's_boat1',
      Date: date,
      Time: '10:00',
      Participants: options.participants ?? 1,
      ...(options.customer === false ? {} : { Customer: customer }),
      Hold: options.minutes === undefined ? {} : { ExpiresInMinutes: options.minutes },
    },
  });

const confirm = (reference: string, body: unknown = {}) => request('POST', `${BOOKING}/${reference}/confirm`, { key: operator.key, body });
const read = (reference: string) => request('GET', `${BOOKING}/${reference}`, { key: operator.key });

async function timeslot(date: string): Promise<{ Booked: number; Vacancies: number }> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, 's_boat1', date, '10:00') }),
  );
  return { Booked: Item?.Booked as number, Vacancies: Item?.Vacancies as number };
}

async function listedVacancies(date: string): Promise<number> {
  const response = await request('GET', `/api/v2/ota/marketplace/availability/s_boat1/timeslots?Date=${date}`, { key: operator.key });
  expect(response.status).toBe(200);
  return response.json.data.find((slot: { Time: string }) => slot.Time === '10:00')?.Vacancies ?? 0;
}

describe('holding', () => {
  it('answers ON_HOLD with HoldExpiresAt, takes the places, and availability counts them as taken', async () => {
    const date = freshDate();
    const response = await hold(date, { participants: 3, minutes: 10 });
    expect(response.status).toBe(201);
    expect(response.json.data).toMatchObject({
      Status: 'ON_HOLD',
      Participants: 3,
      HoldExpiresAt: new Date(clock().getTime() + 10 * 60_000).toISOString(),
    });
    expect(await timeslot(date)).toEqual({ Booked: 3, Vacancies: CAPACITY - 3 });
    expect(await listedVacancies(date)).toBe(CAPACITY - 3);
  });

  it('holds for 15 minutes unless told, and refuses a hold longer than 60 minutes', async () => {
    const date = freshDate();
    const standard = await hold(date);
    expect(standard.json.data.HoldExpiresAt).toBe(new Date(clock().getTime() + 15 * 60_000).toISOString());
    const tooLong = await hold(date, { minutes: 61 });
    expect(tooLong.status).toBe(422);
    expect(tooLong.json.detail).toBe("Field 'Hold.ExpiresInMinutes' must be a whole number of minutes from 1 to 60 (default 15)");
    expect(await timeslot(date)).toEqual({ Booked: 1, Vacancies: CAPACITY - 1 });
  });

  it('lets a hold leave the customer for the confirmation, but not a booking', async () => {
    const date = freshDate();
    const held = await hold(date, { customer: false });
    expect(held.status).toBe(201);
    expect(held.json.data.Customer).toBeUndefined();
    const booking = await request('POST', BOOKING, {
      key: operator.key,
      body: { ActivityID: 's_boat1', Date: date, Time: '10:00', Participants: 1 },
    });
    expect(booking.status).toBe(422);
    expect(booking.json.detail).toMatch(/^Field 'Customer' is required/);
  });

  it('answers a repeated Idempotency-Key with the original hold, taking nothing more', async () => {
    const date = freshDate();
    const headers = { 'Idempotency-Key': `hold-${date}` };
    const once = await hold(date, { participants: 2, headers });
    const again = await hold(date, { participants: 2, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json.data).toEqual(once.json.data);
    expect(await timeslot(date)).toEqual({ Booked: 2, Vacancies: CAPACITY - 2 });
  });

  it(`takes exactly ${CAPACITY} of 100 simultaneous one-place holds on a ${CAPACITY}-place timeslot`, async () => {
    const date = freshDate();
    const responses = await Promise.all(Array.from({ length: 100 }, () => hold(date)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(CAPACITY);
    expect(statuses.filter((status) => status === 409)).toHaveLength(100 - CAPACITY);
    expect(
      responses.filter((response) => response.status === 409).every((response) => response.json.type.endsWith('/insufficient-capacity')),
    ).toBe(true);
    expect(new Set(responses.filter((r) => r.status === 201).map((r) => r.json.data.BookingReference)).size).toBe(CAPACITY);
    expect(await timeslot(date)).toEqual({ Booked: CAPACITY, Vacancies: 0 });
    expect(await listedVacancies(date)).toBe(0);
  });
});

describe('confirming', () => {
  it('confirms a live hold, and confirming again is harmless', async () => {
    const date = freshDate();
    const reference = (await hold(date, { participants: 2 })).json.data.BookingReference;
    const confirmed = await confirm(reference, { PaymentReference: 'pay_77' });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.data).toMatchObject({ Status: 'CONFIRMED', PaymentReference: 'pay_77', ConfirmedAt: clock().toISOString() });
    const again = await confirm(reference, {});
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(confirmed.json.data);
    expect((await read(reference)).json.data).toEqual(confirmed.json.data);
    expect(await timeslot(date)).toEqual({ Booked: 2, Vacancies: CAPACITY - 2 });
  });

  it('completes a hold: a Customer it lacked is required, Answers set the waiver status', async () => {
    const date = freshDate();
    const reference = (await hold(date, { customer: false })).json.data.BookingReference;
    const without = await confirm(reference, {});
    expect(without.status).toBe(422);
    expect(without.json.detail).toBe("Field 'Customer' is required: the hold was made without one");
    const badAnswer = await confirm(reference, { Customer: customer, Answers: [{ QuestionID: 'q_swim', Value: 'maybe' }] });
    expect(badAnswer.status).toBe(422);
    expect((await read(reference)).json.data.Status).toBe('ON_HOLD');
    const confirmed = await confirm(reference, { Customer: customer, Answers: [{ QuestionID: 'q_swim', Value: 'YES' }] });
    expect(confirmed.json.data).toMatchObject({ Status: 'CONFIRMED', Customer: customer, WaiverStatus: 'COMPLETE' });
  });

  it('refuses a hold at or after its expiry with 409 hold-expired, and the sweep gives its places back', async () => {
    const date = freshDate();
    const reference = (await hold(date, { participants: 4, minutes: 1 })).json.data.BookingReference;
    clock.advance(60_000);
    const late = await confirm(reference);
    expect(late.status).toBe(409);
    expect(late.json.type).toMatch(/\/hold-expired$/);
    expect(await timeslot(date)).toEqual({ Booked: 4, Vacancies: CAPACITY - 4 });
    await host.scheduler.runOnce();
    expect(await timeslot(date)).toEqual({ Booked: 0, Vacancies: CAPACITY });
    expect((await read(reference)).json.data).toMatchObject({ Status: 'EXPIRED', ExpiredAt: clock().toISOString() });
    expect((await confirm(reference)).json.type).toMatch(/\/hold-expired$/);
  });

  it('refuses to confirm a cancelled hold (409 booking-cancelled)', async () => {
    const date = freshDate();
    const reference = (await hold(date)).json.data.BookingReference;
    await request('POST', `${BOOKING}/${reference}/cancel`, { key: operator.key });
    const response = await confirm(reference);
    expect(response.status).toBe(409);
    expect(response.json.type).toMatch(/\/booking-cancelled$/);
  });
});

describe('expiring and cancelling', () => {
  it('cancelling a hold gives its places back at once, and the sweep later finds nothing to give', async () => {
    const date = freshDate();
    const reference = (await hold(date, { participants: 5, minutes: 1 })).json.data.BookingReference;
    const cancelled = await request('POST', `${BOOKING}/${reference}/cancel`, { key: operator.key });
    expect(cancelled.json.data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'partner' });
    expect(await timeslot(date)).toEqual({ Booked: 0, Vacancies: CAPACITY });
    clock.advance(120_000);
    await host.scheduler.runOnce();
    expect(await timeslot(date)).toEqual({ Booked: 0, Vacancies: CAPACITY });
    expect((await read(reference)).json.data.Status).toBe('CANCELLED');
  });

  it('leaves a hold alone before its expiry and expires it on the first sweep after', async () => {
    const date = freshDate();
    const reference = (await hold(date, { participants: 2, minutes: 2 })).json.data.BookingReference;
    clock.advance(119_000);
    await host.scheduler.runOnce();
    expect((await read(reference)).json.data.Status).toBe('ON_HOLD');
    clock.advance(1_000);
    await host.scheduler.runOnce();
    expect((await read(reference)).json.data.Status).toBe('EXPIRED');
    expect(await timeslot(date)).toEqual({ Booked: 0, Vacancies: CAPACITY });
  });

  it('gives places back exactly once when confirmations race the expiry sweep: each hold is confirmed or expired, never both', async () => {
    const date = freshDate();
    const references: string[] = [];
    for (let index = 0; index < CAPACITY; index += 1) references.push((await hold(date, { minutes: 5 })).json.data.BookingReference);
    expect(await timeslot(date)).toEqual({ Booked: CAPACITY, Vacancies: 0 });
    // The partner's requests still see the hold live; the sweep, on another machine's clock, sees it expired.
    const expiry = clock().getTime() + 5 * 60_000;
    clock.set(new Date(expiry - 1));
    // The sweep starts as the first confirmation is answered, so the rest race it.
    const confirming = references.map((reference) => confirm(reference));
    await Promise.race(confirming);
    const [expired, ...confirmations] = await Promise.all([expireDueHolds(new Date(expiry)), ...confirming]);
    const confirmed = confirmations.filter((response) => response.status === 200).length;
    const refused = confirmations.filter((response) => response.status === 409 && response.json.type.endsWith('/hold-expired')).length;
    expect(confirmed + refused).toBe(CAPACITY);
    // The sweep also expires other tests' holds that are due by then.
    expect(expired).toBeGreaterThanOrEqual(refused);
    const statuses = await Promise.all(references.map(async (reference) => (await read(reference)).json.data.Status));
    expect(statuses.filter((status) => status === 'CONFIRMED')).toHaveLength(confirmed);
    expect(statuses.filter((status) => status === 'EXPIRED')).toHaveLength(refused);
    expect(await timeslot(date)).toEqual({ Booked: confirmed, Vacancies: CAPACITY - confirmed });
    // Sweeping again, later, gives nothing back twice (it may expire other test files' holds, due by then).
    await expireDueHolds(new Date(expiry + 60_000));
    expect(await Promise.all(references.map(async (reference) => (await read(reference)).json.data.Status))).toEqual(statuses);
    expect(await timeslot(date)).toEqual({ Booked: confirmed, Vacancies: CAPACITY - confirmed });
  });
});
