import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { getBooking } from '../../shared/booking/repository';
import { cancelTimeslot } from '../../shared/booking/timeslot-cancellation';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { documentClient } from '../../shared/db/client';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from '../support/fixtures';
import { expectProblem } from '../support/problems';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * Cancelling a timeslot with its bookings, through real HTTP on a table of
 * its own (its stream read as Lambda reads it, its sweep run by the test):
 * every held and confirmed booking of every channel cancelled with the
 * operator's reason and its partner told, safe retries, and a cancellation
 * stopped half-way that the sweep, or the same request sent again, finishes.
 */
const TIMESLOTS = '/api/v2/timeslots';
const BOOKING = '/api/v2/ota/marketplace/booking';
const date = addDays(tomorrow(), 1);
const customer = { FirstName: 'Tomas', LastName: 'Faria', Email: 'tomas@example.com' };

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 900,
      ActivityID: 's_ferry1',
      Name: 'Island Ferry',
      DurationMinutes: 45,
      MaxParticipantsPerBooking: 10,
      PricePerParticipant: { Amount: 1500, Currency: 'EUR' },
      Schedules: [
        {
          From: date,
          To: addDays(date, 3),
          Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          Times: ['08:00', '12:00', '17:30'],
          Capacity: 400,
        },
      ],
    },
  ],
};

const clock = manualClock(new Date());
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let receiver: WebhookReceiver;

beforeAll(async () => {
  await useOwnTable({ tableName: 'ota-usage-timeslot-cancellation-test', clock, webhookTargets: 'loopback-http' });
  operator = await createTestOperator(catalog);
  // The functions' time counts on the test's clock, as the rest does: a request's cancelling is cut short only when the test moves it.
  host = await startTestHost({ clock, tableStream: { pollMs: 100 } });
  request = httpClient(host);
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await host.close();
  await receiver.stop();
});

const editor = () => ({ operatorId: operator.operatorId, timeZone: 'Europe/Lisbon', by: 'admin' });
const cancel = (day: string, time: string, reason: string, headers: Record<string, string> = {}) =>
  request('POST', `${TIMESLOTS}/s_ferry1/${day}/${time}/cancel`, { key: operator.key, body: { Reason: reason }, headers });
const dayView = async (day: string, time: string) =>
  (await request('GET', `${TIMESLOTS}/s_ferry1?date=${day}`, { key: operator.key })).json.data.find(
    (slot: { Time: string }) => slot.Time === time,
  );
const statusOf = async (reference: string) => (await getBooking(operator.operatorId, reference))?.Status;

async function partnerBooking(key: string, day: string, time: string, extra: object = {}): Promise<string> {
  const response = await request('POST', BOOKING, {
    key,
    body: { ActivityID: 's_ferry1', Date: day, Time: time, Participants: 2, Customer: customer, ...extra },
  });
  expect(response.status).toBe(201);
  return response.json.data.BookingReference;
}

/** `count` bookings of one place, recorded at the till, a few at a time. */
async function tillBookings(day: string, time: string, count: number): Promise<string[]> {
  const references: string[] = [];
  for (let start = 0; start < count; start += 10) {
    const made = await Promise.all(
      Array.from({ length: Math.min(10, count - start) }, () =>
        recordOperatorBooking(operator.operatorId, {
          Channel: 'pos',
          ActivityID: 's_ferry1',
          Date: day,
          Time: time,
          Participants: 1,
          Customer: customer,
        }),
      ),
    );
    references.push(...made.map((booking) => booking.BookingReference));
  }
  return references;
}

describe('cancelling a timeslot', () => {
  it("closes it, cancels every held and confirmed booking of every channel with the reason, tells each booking's partner, and answers the same again", async () => {
    const partnerKey = await operator.keyWith(['ota']);
    expect((await request('PUT', '/api/v2/ota/webhook', { key: partnerKey, body: { Url: receiver.url('/ferry') } })).status).toBe(200);
    const confirmed = await partnerBooking(partnerKey, date, '17:30');
    const held = await partnerBooking(partnerKey, date, '17:30', { Hold: { ExpiresInMinutes: 30 } });
    const [till] = await tillBookings(date, '17:30', 1);
    const elsewhere = await partnerBooking(partnerKey, date, '12:00');
    const partnerCancelled = await partnerBooking(partnerKey, date, '17:30');
    await request('POST', `${BOOKING}/${partnerCancelled}/cancel`, { key: partnerKey });

    const first = await cancel(date, '17:30', 'Engine failure');
    expect(first.status).toBe(200);
    expect(first.json.data.CancelledBookings).toEqual([confirmed, held, till].sort());
    expect(first.json.data.Timeslot).toMatchObject({
      Time: '17:30',
      Capacity: 400,
      Booked: 0,
      Held: 0,
      Vacancies: 400,
      Status: 'CLOSED',
      Closed: true,
      ClosedReason: 'Engine failure',
      Cancellation: { Reason: 'Engine failure', Complete: true, StartedAt: expect.any(String), FinishedAt: expect.any(String) },
    });
    for (const reference of [confirmed, held, till]) expect(await statusOf(reference)).toBe('CANCELLED');
    expect(await statusOf(elsewhere)).toBe('CONFIRMED');

    await host.tableStream.idle();
    const told = receiver.received.filter((entry) => entry.path === '/ferry').map((entry) => JSON.parse(entry.body));
    expect(told.map((event) => [event.type, event.data.BookingReference]).sort()).toEqual(
      [
        ['booking.cancelled', confirmed],
        ['booking.cancelled', held],
      ].sort(),
    );
    expect(told[0].data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator', CancellationReason: 'Engine failure' });

    // While it stays closed, the same request is the same cancellation: nothing more is cancelled, nobody is told twice.
    const again = await cancel(date, '17:30', 'Engine failure');
    expect(again.json.data).toEqual(first.json.data);
    await host.tableStream.idle();
    expect(receiver.received.filter((entry) => entry.path === '/ferry')).toHaveLength(2);
  });

  it('with an Idempotency-Key answers the complete cancellation again after a reopening, cancelling none of the new bookings', async () => {
    const day = addDays(date, 1);
    const [before] = await tillBookings(day, '08:00', 1);
    const headers = { 'Idempotency-Key': `ferry-${day}` };
    const first = await cancel(day, '08:00', 'Fog', headers);
    expect(first.json.data.CancelledBookings).toEqual([before]);
    const reopened = await request('PATCH', `${TIMESLOTS}/s_ferry1/${day}/08:00`, { key: operator.key, body: { Closed: false } });
    expect(reopened.json.data).toMatchObject({ Closed: false, Cancellation: { Reason: 'Fog', Complete: true } });
    const [after] = await tillBookings(day, '08:00', 1);

    const replay = await cancel(day, '08:00', 'Fog', headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json.data).toEqual(first.json.data);
    expect(await statusOf(after)).toBe('CONFIRMED');
    expectProblem(await cancel(day, '08:00', 'Fog and rain', headers), 422, {
      detail: /^Header 'Idempotency-Key' was already used for the cancellation of timeslot s_ferry1 .* 08:00 with a different request/,
    });
    expectProblem(await cancel(day, '08:00', 'Fog', { 'Idempotency-Key': 'bad key' }), 422, {
      detail: /^Header 'Idempotency-Key' must be/,
    });
  });

  it('is 404 for a timeslot the activity does not have, and refuses a missing or blank reason', async () => {
    expectProblem(await cancel(date, '09:15', 'Storm'), 404, { detail: /has no timeslot on .* at 09:15/ });
    expectProblem(await cancel(date, '12:00', ' '), 422, { detail: /^Field 'Reason' must be 1 to 500 characters/ });
    const missing = await request('POST', `${TIMESLOTS}/s_ferry1/${date}/12:00/cancel`, { key: operator.key, body: {} });
    expectProblem(missing, 422, { detail: /^Field 'Reason' is required/ });
    expect((await dayView(date, '12:00')).Closed).toBe(false);
  });
});

describe('a cancellation stopped half-way', () => {
  /** Cancels the timeslot until `stopAfter` bookings are done, then throws, as a function killed mid-way would stop. */
  async function stopHalfWay(day: string, time: string, stopAfter: number): Promise<void> {
    let groups = 0;
    const stopped = cancelTimeslot(editor(), { activityId: 's_ferry1', date: day, time }, 'Storm', {
      now: clock(),
      proceed: () => {
        groups += 1;
        if ((groups - 1) * 8 >= stopAfter) throw new Error('The function stopped');
        return true;
      },
    });
    await expect(stopped).rejects.toThrow('The function stopped');
  }

  it('has closed the timeslot and cannot reopen it; the one-minute sweep finishes it, and the request answers every booking', async () => {
    const day = addDays(date, 2);
    const references = await tillBookings(day, '08:00', 120);
    await stopHalfWay(day, '08:00', 48);
    const statuses = await Promise.all(references.map(statusOf));
    expect(statuses.filter((status) => status === 'CANCELLED')).toHaveLength(48);
    expect(await dayView(day, '08:00')).toMatchObject({ Closed: true, Booked: 72, Cancellation: { Complete: false } });
    await expect(tillBookings(day, '08:00', 1)).rejects.toThrow(`The timeslot ${day} 08:00 is closed for sale`);
    const reopen = await request('PATCH', `${TIMESLOTS}/s_ferry1/${day}/08:00`, { key: operator.key, body: { Closed: false } });
    expectProblem(reopen, 409, { detail: /cannot reopen while its bookings are being cancelled/ });

    clock.advance(61_000);
    await host.scheduler.runOnce();
    expect(await dayView(day, '08:00')).toMatchObject({ Closed: true, Booked: 0, Vacancies: 400, Cancellation: { Complete: true } });
    expect((await Promise.all(references.map(statusOf))).every((status) => status === 'CANCELLED')).toBe(true);
    const answer = await cancel(day, '08:00', 'Storm');
    expect(answer.json.data.CancelledBookings).toEqual([...references].sort());
  });

  it("stops its request when the function's time is nearly up, answers what it cancelled, and is finished by the request sent again", async () => {
    const day = addDays(date, 3);
    const references = await tillBookings(day, '17:30', 40);
    // Each transaction takes 2 of the function's 10 seconds on the host's clock: the request must stop with 3 left to answer.
    const client = documentClient();
    const send = client.send.bind(client);
    jest.spyOn(client, 'send').mockImplementation((async (command: object) => {
      if (command instanceof TransactWriteCommand) clock.advance(2_000);
      return send(command as never);
    }) as never);
    const cut = await cancel(day, '17:30', 'Storm');
    jest.restoreAllMocks();
    expect(cut.status).toBe(200);
    const cancelled = cut.json.data.CancelledBookings.length;
    expect(cancelled).toBeGreaterThan(0);
    expect(cancelled).toBeLessThan(40);
    expect(cut.json.data.Timeslot).toMatchObject({ Closed: true, Booked: 40 - cancelled, Cancellation: { Complete: false } });

    const retry = await cancel(day, '17:30', 'Storm');
    expect(retry.json.data.Timeslot).toMatchObject({ Booked: 0, Cancellation: { Complete: true } });
    expect(retry.json.data.CancelledBookings).toEqual([...references].sort());
  });

  it('is finished by the same request sent again', async () => {
    const day = addDays(date, 3);
    const references = await tillBookings(day, '12:00', 60);
    await stopHalfWay(day, '12:00', 24);
    const retry = await cancel(day, '12:00', 'Storm');
    expect(retry.status).toBe(200);
    expect(retry.json.data.Timeslot).toMatchObject({ Booked: 0, Cancellation: { Complete: true } });
    expect(retry.json.data.CancelledBookings).toEqual([...references].sort());
  });
});
