import type { LocalHost } from '../../lib/local/host';
import { createOperator } from '../../shared/accounts/operators';
import { queryTimeslots } from '../../shared/catalog/repository';
import { importCatalog, type CatalogFile, type ImportSummary } from '../../shared/catalog/import-catalog';
import { manualClock } from '../../shared/core/clock';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from '../support/fixtures';
import { octoClient, type OctoClient } from '../support/octo';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';

/**
 * A night walk in Lisbon on the nights the clocks change, through real HTTP:
 * 2027-03-28 01:30 does not exist (the clocks go from 01:00 to 02:00) and
 * 2027-10-31 01:30 happens twice (from 02:00 back to 01:00). Every answer
 * names the one instant of a timeslot, its first pass when the time repeats:
 * the marketplace's StartsAt, OCTo's availability id, start, end and
 * cut-off, the booking, the manifest and the webhook; "has it started" and
 * the cut-off of holds go by that instant, not by the wall clock's reading.
 */
const MARKETPLACE = '/api/v2/ota/marketplace';
const EVERY_DAY = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;

const nightWalk = (schedules: [string, string, string[]][]): CatalogFile['Products'][number] => ({
  ProductID: 901,
  ActivityID: 's_night1',
  Name: 'Night Walk',
  DurationMinutes: 60,
  MaxParticipantsPerBooking: 8,
  PricePerParticipant: { Amount: 2500, Currency: 'EUR' },
  Schedules: schedules.map(([From, To, Times]) => ({ From, To, Weekdays: [...EVERY_DAY], Times, Capacity: 20 })),
});

const catalog: CatalogFile = {
  Products: [
    nightWalk([
      ['2027-03-27', '2027-03-29', ['01:30', '02:30']],
      ['2027-10-30', '2027-11-01', ['00:30', '01:30', '02:30']],
    ]),
  ],
};

const clock = manualClock(new Date('2027-03-20T12:00:00Z'));
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let octo: OctoClient;
let receiver: WebhookReceiver;
let imported: ImportSummary;

beforeAll(async () => {
  // A table of its own, whose stream this file reads for the webhook sender (as webhooks.test.ts does).
  await useOwnTable({ tableName: 'ota-usage-daylight-saving-test', clock, webhookTargets: 'loopback-http' });
  operator = await createTestOperator();
  imported = await importCatalog(operator.operatorId, catalog);
  host = await startTestHost();
  request = httpClient(host);
  octo = octoClient(request, operator.key, { pricing: false });
  receiver = await startWebhookReceiver();
});

afterAll(async () => {
  await host.close();
  await receiver.stop();
});

const timeslots = async (date: string) => {
  const response = await request('GET', `${MARKETPLACE}/availability/s_night1/timeslots?Date=${date}`, { key: operator.key });
  expect(response.status).toBe(200);
  return (response.json.data as { Time: string; StartsAt: string }[]).map(({ Time, StartsAt }) => ({ Time, StartsAt }));
};

const availabilities = async (localDate: string) => {
  const response = await octo('POST', '/availability', { productId: 's_night1', optionId: 'DEFAULT', localDate });
  expect(response.status).toBe(200);
  return (response.json as Record<string, string>[]).map(({ id, localDateTimeStart, localDateTimeEnd, utcCutoffAt }) => ({
    id,
    localDateTimeStart,
    localDateTimeEnd,
    utcCutoffAt,
  }));
};

const customer = { FirstName: 'Rita', LastName: 'Nunes', Email: 'rita@example.com' };
const booking = (key: string, time: string, extra: Record<string, unknown> = {}) =>
  request('POST', `${MARKETPLACE}/booking`, {
    key,
    body: { ActivityID: 's_night1', Date: '2027-10-31', Time: time, Participants: 1, Customer: customer, ...extra },
  });

describe('importing the catalogue', () => {
  it("leaves out the schedule's start the clocks skip, and says which", async () => {
    expect(imported).toEqual({
      products: 1,
      timeslots: 14,
      skipped: [{ activityId: 's_night1', date: '2027-03-28', time: '01:30' }],
    });
    expect((await queryTimeslots(operator.operatorId, 's_night1', '2027-03-28', '2027-03-28')).map((slot) => slot.Time)).toEqual(['02:30']);
  });

  it('refuses a one-off timeslot at a skipped time, naming the entry, the zone and the skip, and imports nothing', async () => {
    const other = `${operator.operatorId}-ny`;
    await createOperator({ OperatorID: other, Name: 'New York Nights', TimeZone: 'America/New_York' });
    const oneOff = {
      ...nightWalk([['2027-03-13', '2027-03-15', ['09:00']]]),
      Timeslots: [{ Date: '2027-03-14', Time: '02:30', Capacity: 4 }],
    };
    await expect(importCatalog(other, { Products: [oneOff] })).rejects.toMatchObject({
      field: 'Products[0].Timeslots[0].Time',
      message: 'is 02:30, a time that does not exist on 2027-03-14 in America/New_York: the clocks go from 02:00 to 03:00',
    });
    expect(await queryTimeslots(other, 's_night1', '2027-03-13', '2027-03-15')).toEqual([]);
  });
});

describe('the night the clocks skip an hour', () => {
  it('offers the timeslots that exist, each at its own instant, in the marketplace and in OCTo', async () => {
    clock.set(new Date('2027-03-20T12:00:00Z'));
    expect(await timeslots('2027-03-28')).toEqual([{ Time: '02:30', StartsAt: '2027-03-28T02:30:00+01:00' }]);
    expect(await availabilities('2027-03-28')).toEqual([
      {
        id: '2027-03-28T02:30:00+01:00',
        localDateTimeStart: '2027-03-28T02:30:00+01:00',
        localDateTimeEnd: '2027-03-28T03:30:00+01:00',
        utcCutoffAt: '2027-03-28T01:30:00Z',
      },
    ]);
    // The night before, 01:30 and 02:30 are an hour apart, and a 60-minute walk ends an hour after it starts.
    expect(await availabilities('2027-03-27')).toEqual([
      expect.objectContaining({
        id: '2027-03-27T01:30:00+00:00',
        localDateTimeEnd: '2027-03-27T02:30:00+00:00',
        utcCutoffAt: '2027-03-27T01:30:00Z',
      }),
      expect.objectContaining({
        id: '2027-03-27T02:30:00+00:00',
        localDateTimeEnd: '2027-03-27T03:30:00+00:00',
        utcCutoffAt: '2027-03-27T02:30:00Z',
      }),
    ]);
  });
});

describe('the night the clocks go back an hour: 01:30 is its first pass', () => {
  const FIRST_PASS = '2027-10-31T01:30:00+01:00';

  it('is offered at its first pass; a 60-minute walk ends at the second 01:30', async () => {
    clock.set(new Date('2027-10-30T12:00:00Z'));
    expect(await timeslots('2027-10-31')).toEqual([
      { Time: '00:30', StartsAt: '2027-10-31T00:30:00+01:00' },
      { Time: '01:30', StartsAt: FIRST_PASS },
      { Time: '02:30', StartsAt: '2027-10-31T02:30:00+00:00' },
    ]);
    expect(await availabilities('2027-10-31')).toEqual([
      {
        id: '2027-10-31T00:30:00+01:00',
        localDateTimeStart: '2027-10-31T00:30:00+01:00',
        localDateTimeEnd: '2027-10-31T01:30:00+01:00',
        utcCutoffAt: '2027-10-30T23:30:00Z',
      },
      {
        id: FIRST_PASS,
        localDateTimeStart: FIRST_PASS,
        localDateTimeEnd: '2027-10-31T01:30:00+00:00',
        utcCutoffAt: '2027-10-31T00:30:00Z',
      },
      {
        id: '2027-10-31T02:30:00+00:00',
        localDateTimeStart: '2027-10-31T02:30:00+00:00',
        localDateTimeEnd: '2027-10-31T03:30:00+00:00',
        utcCutoffAt: '2027-10-31T02:30:00Z',
      },
    ]);
  });

  it('is booked, reserved, listed in the manifest and told in webhooks at its first pass', async () => {
    clock.set(new Date('2027-10-30T12:00:00Z'));
    const partnerKey = await operator.keyWith(['ota']);
    expect((await request('PUT', '/api/v2/ota/webhook', { key: partnerKey, body: { Url: receiver.url('/dst') } })).status).toBe(200);
    const held = await booking(partnerKey, '01:30', { Hold: {} });
    expect(held.status).toBe(201);
    expect(held.json.data.StartsAt).toBe(FIRST_PASS);
    const confirmed = await request('POST', `${MARKETPLACE}/booking/${held.json.data.BookingReference}/confirm`, {
      key: partnerKey,
      body: {},
    });
    expect(confirmed.json.data).toMatchObject({ Status: 'CONFIRMED', StartsAt: FIRST_PASS });
    await host.tableStream.idle();
    const [delivery] = receiver.received.filter((entry) => entry.path === '/dst');
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'booking.confirmed', data: { Time: '01:30', StartsAt: FIRST_PASS } });

    const reserved = await octo('POST', '/bookings', {
      productId: 's_night1',
      optionId: 'DEFAULT',
      availabilityId: FIRST_PASS,
      unitItems: [{ unitId: 'adult' }],
    });
    expect(reserved.status).toBe(200);
    expect(reserved.json).toMatchObject({
      availabilityId: FIRST_PASS,
      cancellable: true,
      availability: {
        id: FIRST_PASS,
        localDateTimeStart: FIRST_PASS,
        localDateTimeEnd: '2027-10-31T01:30:00+00:00',
        utcCutoffAt: '2027-10-31T00:30:00Z',
      },
    });
    // The second pass is not a timeslot of ours: a timeslot is the first.
    const second = await octo('POST', '/bookings', {
      productId: 's_night1',
      optionId: 'DEFAULT',
      availabilityId: '2027-10-31T01:30:00+00:00',
      unitItems: [{ unitId: 'adult' }],
    });
    expect(second.json.error).toBe('INVALID_AVAILABILITY_ID');

    const manifest = await request('GET', '/api/v2/bookings?date=2027-10-31', { key: operator.key });
    const timeslots = manifest.json.data.Timeslots as Array<{ Time: string; Participants: number }>;
    expect(timeslots.filter((slot) => slot.Participants > 0)).toEqual([
      expect.objectContaining({ Time: '01:30', StartsAt: FIRST_PASS, Participants: 2 }),
    ]);
  });

  it('is told at its first pass in availability.changed and in the changes feed: a partner need not resolve the time', async () => {
    clock.set(new Date('2027-10-30T12:00:00Z'));
    // An operator of its own, whose catalogue's writes are announced before its partner listens.
    const lisbon = await createTestOperator(catalog);
    await host.tableStream.idle();
    clock.set(new Date('2027-10-30T13:00:00Z'));
    const partnerKey = await lisbon.keyWith(['ota']);
    const listening = { Url: receiver.url('/dst-availability'), EventTypes: ['availability.changed'] };
    expect((await request('PUT', '/api/v2/ota/webhook', { key: partnerKey, body: listening })).status).toBe(200);
    const since = (await request('GET', `${MARKETPLACE}/availability/changes`, { key: partnerKey })).json.data.Cursor as string;
    expect((await booking(partnerKey, '01:30')).status).toBe(201);
    await host.tableStream.idle();
    await host.tableStream.idle();

    const told = { Date: '2027-10-31', Time: '01:30', StartsAt: FIRST_PASS, Vacancies: 19 };
    const events = receiver.received.filter((entry) => entry.path === '/dst-availability').map((entry) => JSON.parse(entry.body));
    expect(events).toEqual([expect.objectContaining({ type: 'availability.changed', data: expect.objectContaining(told) })]);
    const feed = await request('GET', `${MARKETPLACE}/availability/changes?since=${since}`, { key: partnerKey });
    expect(feed.json.data.Changes).toEqual([expect.objectContaining(told)]);
  });

  it('has started once its first pass is over, though the clocks show 01:15 again: no longer offered, held, booked or cancelled', async () => {
    clock.set(new Date('2027-10-30T12:00:00Z'));
    const confirmed = await booking(operator.key, '01:30');
    expect(confirmed.status).toBe(201);
    const reserved = await octo('POST', '/bookings', {
      productId: 's_night1',
      optionId: 'DEFAULT',
      availabilityId: FIRST_PASS,
      unitItems: [{ unitId: 'adult' }],
    });
    const uuid = reserved.json.uuid as string;
    expect((await octo('POST', `/bookings/${uuid}/confirm`, { contact: { fullName: 'Rita Nunes' } })).json.status).toBe('CONFIRMED');

    // Five minutes before the first pass of 01:30 a hold is still taken.
    clock.set(new Date('2027-10-31T00:25:00Z'));
    expect((await booking(operator.key, '01:30', { Hold: {} })).status).toBe(201);

    // 01:15Z: the clocks show 01:15 for the second time, 45 minutes after the walk left.
    clock.set(new Date('2027-10-31T01:15:00Z'));
    expect(await timeslots('2027-10-31')).toEqual([{ Time: '02:30', StartsAt: '2027-10-31T02:30:00+00:00' }]);
    expect((await availabilities('2027-10-31')).map((availability) => availability.id)).toEqual(['2027-10-31T02:30:00+00:00']);
    const late = await booking(operator.key, '01:30', { Hold: {} });
    expect(late.status).toBe(422);
    expect(late.json.detail).toBe(
      "Field 'Time' 01:30 has already started at 2027-10-31T01:30:00+01:00 (it is 2027-10-31T01:15:00+00:00 in Europe/Lisbon)",
    );
    const cancel = await request('POST', `${MARKETPLACE}/booking/${confirmed.json.data.BookingReference}/cancel`, {
      key: operator.key,
      body: {},
    });
    expect(cancel.status).toBe(409);
    expect(cancel.json.type).toMatch(/timeslot-started$/);
    expect((await octo('GET', `/bookings/${uuid}`)).json).toMatchObject({ status: 'CONFIRMED', cancellable: false });
    expect((await octo('POST', `/bookings/${uuid}/cancel`, {})).json.status).not.toBe('CANCELLED');
  });
});

describe('New York, west of Greenwich', () => {
  it('leaves out the skipped 02:30 and offers the repeated 01:30 at its first pass too', async () => {
    const newYork = await createTestOperator(undefined, { timeZone: 'America/New_York' });
    const summary = await importCatalog(newYork.operatorId, {
      Products: [
        nightWalk([
          ['2027-03-13', '2027-03-15', ['02:30']],
          ['2027-11-06', '2027-11-08', ['01:30']],
        ]),
      ],
    });
    expect(summary.skipped).toEqual([{ activityId: 's_night1', date: '2027-03-14', time: '02:30' }]);
    clock.set(new Date('2027-03-01T12:00:00Z'));
    const response = await request('GET', `${MARKETPLACE}/availability/s_night1/timeslots?Date=2027-11-07`, { key: newYork.key });
    expect(response.json.data).toEqual([expect.objectContaining({ Time: '01:30', StartsAt: '2027-11-07T01:30:00-04:00' })]);
  });

  it('closes a day ticket open until the skipped 02:30 where the clocks resume, 03:00, not at 03:30', async () => {
    // Open every night until 02:30: on 2027-03-14 the clocks go from 02:00 to 03:00, so the wall clock passes 02:30 at 03:00.
    const newYork = await createTestOperator(
      {
        Products: [
          {
            ...nightWalk([]),
            ActivityID: 's_late1',
            AvailabilityType: 'OPENING_HOURS',
            Schedules: [
              {
                From: '2027-03-13',
                To: '2027-03-15',
                Weekdays: [...EVERY_DAY],
                OpeningHours: [{ From: '00:00', To: '02:30' }],
                Capacity: 20,
              },
            ],
          },
        ],
      },
      { timeZone: 'America/New_York' },
    );
    const lateOcto = octoClient(request, newYork.key, { pricing: false });
    clock.set(new Date('2027-03-01T12:00:00Z'));
    const cutoffs = async (localDate: string) =>
      (
        (await lateOcto('POST', '/availability', { productId: 's_late1', optionId: 'DEFAULT', localDate })).json as {
          utcCutoffAt: string;
        }[]
      ).map((availability) => availability.utcCutoffAt);
    expect(await cutoffs('2027-03-13')).toEqual(['2027-03-13T07:30:00Z']);
    expect(await cutoffs('2027-03-14')).toEqual(['2027-03-14T07:00:00Z']);

    // 03:15 on the wall clock: 02:30 is past, and the day has closed.
    clock.set(new Date('2027-03-14T07:15:00Z'));
    const offered = await request('GET', `${MARKETPLACE}/availability/s_late1/timeslots?Date=2027-03-14`, { key: newYork.key });
    expect(offered.json.data).toEqual([]);
    const late = await request('POST', `${MARKETPLACE}/booking`, {
      key: newYork.key,
      body: { ActivityID: 's_late1', Date: '2027-03-14', Time: '00:00', Participants: 1, Customer: customer },
    });
    expect(late.status).toBe(422);
    expect(late.json.detail).toBe(
      "Field 'Time' The day 2027-03-14 has closed at 2027-03-14T03:00:00-04:00 (it is 2027-03-14T03:15:00-04:00 in America/New_York)",
    );
  });
});
