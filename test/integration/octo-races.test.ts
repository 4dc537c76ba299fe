import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { addDays } from '../../shared/core/calendar';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { availabilityId, octoClient, releaseHolds, type OctoClient } from '../support/octo';

/**
 * One capacity under races, through real HTTP: OCTo reservations take places
 * by the same conditional transaction as marketplace bookings, on the same
 * counters; moves between timeslots are one transaction each; a reseller's
 * uuid makes one booking however many requests carry it at once.
 */
const CAPACITY = 20;
const first = tomorrow();
let nextDay = 0;
/** Each test takes a day of its own. */
const freshDate = () => addDays(first, nextDay++);

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 810,
      ActivityID: 's_race1',
      Name: 'Harbour Sprint',
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 4,
      PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
      Units: [
        { UnitID: 'adult', Name: 'Adult', Type: 'ADULT', Price: { Amount: 1000, Currency: 'EUR' } },
        { UnitID: 'child', Name: 'Child', Type: 'CHILD', Price: { Amount: 500, Currency: 'EUR' } },
      ],
      Schedules: [
        {
          From: first,
          To: addDays(first, 9),
          Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          Times: ['10:00', '12:00'],
          Capacity: CAPACITY,
        },
      ],
    },
  ],
};

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let octo: OctoClient;

beforeAll(async () => {
  operator = await createTestOperator(catalog);
  host = await startTestHost();
  request = httpClient(host);
  octo = octoClient(request, operator.key);
});

afterAll(async () => {
  await releaseHolds(octo, first, addDays(first, 9));
  await host.close();
});

const reserveBody = (date: string, time: string, units: string[], uuid?: string) => ({
  ...(uuid ? { uuid } : {}),
  productId: 's_race1',
  optionId: 'DEFAULT',
  availabilityId: availabilityId(date, time),
  unitItems: units.map((unitId) => ({ unitId })),
});

async function slot(date: string, time: string): Promise<{ Booked: number; Vacancies: number; Capacity: number }> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, 's_race1', date, time), ConsistentRead: true }),
  );
  return Item as { Booked: number; Vacancies: number; Capacity: number };
}

/** The operator's live bookings of a timeslot, as the table holds them. */
async function liveBookings(date: string, time: string): Promise<{ Participants: number; Status: string; UUID?: string }[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'OperatorID = :op AND Entity = :booking AND #date = :date AND #time = :time AND #status IN (:held, :confirmed)',
        ExpressionAttributeNames: { '#date': 'Date', '#time': 'Time', '#status': 'Status' },
        ExpressionAttributeValues: {
          ':op': operator.operatorId,
          ':booking': 'Booking',
          ':date': date,
          ':time': time,
          ':held': 'ON_HOLD',
          ':confirmed': 'CONFIRMED',
        },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return items as { Participants: number; Status: string; UUID?: string }[];
}

const placesOf = (bookings: { Participants: number }[]) => bookings.reduce((sum, booking) => sum + booking.Participants, 0);

test('100 simultaneous one-unit OCTo reservations on a 20-place availability: exactly 20 succeed, the rest are UNPROCESSABLE_ENTITY', async () => {
  const date = freshDate();
  const answers = await Promise.all(Array.from({ length: 100 }, () => octo('POST', '/bookings', reserveBody(date, '10:00', ['adult']))));
  const succeeded = answers.filter((answer) => answer.status === 200);
  expect(succeeded).toHaveLength(CAPACITY);
  expect(answers.filter((answer) => answer.status === 400).every((answer) => answer.json.error === 'UNPROCESSABLE_ENTITY')).toBe(true);
  expect(new Set(succeeded.map((answer) => answer.json.uuid)).size).toBe(CAPACITY);
  expect(await slot(date, '10:00')).toMatchObject({ Booked: CAPACITY, Vacancies: 0 });
  expect(placesOf(await liveBookings(date, '10:00'))).toBe(CAPACITY);
});

test('marketplace bookings and OCTo reservations racing on one availability never oversell it', async () => {
  const date = freshDate();
  const marketplace = (index: number) =>
    request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: {
        ActivityID: 's_race1',
        Date: date,
        Time: '10:00',
        Participants: 2,
        Customer: { FirstName: 'Guest', LastName: `No${index}`, Email: `guest${index}@example.com` },
      },
    });
  const answers = await Promise.all(
    Array.from({ length: 40 }, (_, index) =>
      index % 2 ? marketplace(index) : octo('POST', '/bookings', reserveBody(date, '10:00', ['adult', 'child'])),
    ),
  );
  const taken = answers.filter((answer) => answer.status === 200 || answer.status === 201).length * 2;
  expect(taken).toBe(CAPACITY);
  expect(answers.filter((answer) => answer.status === 201).length).toBeGreaterThan(0);
  expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(0);
  const refused = answers.filter((answer) => answer.status >= 400);
  expect(refused.every((answer) => answer.status === 409 || answer.json.error === 'UNPROCESSABLE_ENTITY')).toBe(true);
  expect(await slot(date, '10:00')).toMatchObject({ Booked: CAPACITY, Vacancies: 0 });
  expect(placesOf(await liveBookings(date, '10:00'))).toBe(CAPACITY);
});

test('ten simultaneous PATCHes moving bookings between two availabilities leave both counters exact', async () => {
  const date = freshDate();
  const at = { '10:00': availabilityId(date, '10:00'), '12:00': availabilityId(date, '12:00') };
  const made = await Promise.all(
    Array.from({ length: 10 }, (_, index) =>
      octo('POST', '/bookings', reserveBody(date, index % 2 ? '12:00' : '10:00', index % 3 ? ['adult'] : ['adult', 'child'])),
    ),
  );
  expect(made.every((answer) => answer.status === 200)).toBe(true);
  // Each booking to the other slot, and half of them back again, all at once; a booking's own moves race each other too.
  const moves = made.flatMap((answer, index) => {
    const other = answer.json.availabilityId === at['10:00'] ? at['12:00'] : at['10:00'];
    const there = octo('PATCH', `/bookings/${answer.json.uuid}`, { availabilityId: other });
    return index % 2 ? [there, octo('PATCH', `/bookings/${answer.json.uuid}`, { availabilityId: answer.json.availabilityId })] : [there];
  });
  const answers = await Promise.all(moves);
  expect(answers.every((answer) => answer.status === 200)).toBe(true);
  for (const time of ['10:00', '12:00'] as const) {
    const live = await liveBookings(date, time);
    expect(await slot(date, time)).toMatchObject({ Booked: placesOf(live), Vacancies: CAPACITY - placesOf(live) });
  }
  const total = placesOf(await liveBookings(date, '10:00')) + placesOf(await liveBookings(date, '12:00'));
  expect(total).toBe(made.reduce((sum, answer) => sum + answer.json.unitItems.length, 0));
});

test('a cancellation racing PATCHes of the same booking gives back its places once, from wherever the booking is', async () => {
  const date = freshDate();
  const { uuid } = (await octo('POST', '/bookings', reserveBody(date, '10:00', ['adult', 'adult', 'child']))).json;
  await Promise.all([
    octo('PATCH', `/bookings/${uuid}`, { availabilityId: availabilityId(date, '12:00') }),
    octo('POST', `/bookings/${uuid}/cancel`, { reason: 'Changed plans' }),
    octo('PATCH', `/bookings/${uuid}`, { unitItems: [{ unitId: 'adult' }] }),
  ]);
  expect((await octo('GET', `/bookings/${uuid}`)).json.status).toBe('CANCELLED');
  expect(await slot(date, '10:00')).toMatchObject({ Booked: 0, Vacancies: CAPACITY });
  expect(await slot(date, '12:00')).toMatchObject({ Booked: 0, Vacancies: CAPACITY });
});

test('two reservations with one uuid sent at once make one booking, and take its places once', async () => {
  const date = freshDate();
  const uuid = 'c0ffee00-1234-4abc-8def-000000000001';
  const answers = await Promise.all(
    Array.from({ length: 2 }, () => octo('POST', '/bookings', reserveBody(date, '10:00', ['adult', 'child'], uuid))),
  );
  expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
  expect(answers[0].json.id).toBe(answers[1].json.id);
  expect(answers[0].json.uuid).toBe(uuid);
  expect(await slot(date, '10:00')).toMatchObject({ Booked: 2 });
  expect((await liveBookings(date, '10:00')).filter((booking) => booking.UUID === uuid)).toHaveLength(1);
  // Eight more at once, in upper case too: still the one booking.
  const again = await Promise.all(
    Array.from({ length: 8 }, (_, index) =>
      octo('POST', '/bookings', reserveBody(date, '10:00', ['adult', 'child'], index % 2 ? uuid.toUpperCase() : uuid)),
    ),
  );
  expect(new Set(again.map((answer) => answer.json.id))).toEqual(new Set([answers[0].json.id]));
  expect(await slot(date, '10:00')).toMatchObject({ Booked: 2 });
});
