import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { expireDueHolds } from '../../shared/booking/holds';
import { addDays, zonedIso } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as keys from '../../shared/db/keys';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { availabilityId, octoCatalog, octoClient, releaseHolds, reservation, type OctoClient } from '../support/octo';

/**
 * OCTo bookings are the service's bookings: the same capacity counters, the
 * hold sweep, the operator's list, manifest and cancellation, the partner's
 * key as the reseller. Through real HTTP, with a clock the tests move.
 */
const start = tomorrow();
const day = (offset: number) => addDays(start, offset);
const clock = manualClock(new Date());
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
let octo: OctoClient;

beforeAll(async () => {
  configure({ ...config(), clock });
  operator = await createTestOperator(octoCatalog({ start, days: 12, capacity: 10 }));
  host = await startTestHost();
  request = httpClient(host);
  octo = octoClient(request, operator.key);
});

afterAll(async () => {
  await releaseHolds(octo, day(0), day(12));
  await host.close();
});

async function booked(activityId: string, date: string, time: string): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, activityId, date, time), ConsistentRead: true }),
  );
  return Item?.Booked as number;
}

const minutesBetween = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 60_000;

describe('reservations', () => {
  test('hold their places for 15 minutes by default, at most 60, with lower-case uuids for the booking and each unit item', async () => {
    const held = (await octo('POST', '/bookings', reservation(day(0), '10:00', ['adult', 'child']))).json;
    expect(held).toMatchObject({ status: 'ON_HOLD', utcConfirmedAt: null, cancellation: null, cancellable: true });
    expect(minutesBetween(held.utcCreatedAt, held.utcExpiresAt)).toBe(15);
    expect(held.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(held.unitItems.map((item: { uuid: string }) => item.uuid)).size).toBe(2);
    expect(held.availability).toMatchObject({ id: availabilityId(day(0), '10:00'), localDateTimeStart: availabilityId(day(0), '10:00') });
    expect(await booked('s_boat1', day(0), '10:00')).toBe(2);
    const long = (await octo('POST', '/bookings', reservation(day(0), '10:00', ['adult'], { expirationMinutes: 600 }))).json;
    expect(minutesBetween(long.utcCreatedAt, long.utcExpiresAt)).toBe(60);
  });

  test('a repeated uuid answers its booking even once the availability is full; another request with it is refused', async () => {
    const uuid = '1d2c3b4a-5e6f-4a0b-8c9d-0e1f2a3b4c5d';
    const body = reservation(day(1), '15:00', ['adult', 'adult'], { uuid });
    const first = await octo('POST', '/bookings', body);
    // Fill the availability: 8 more places of 10.
    for (let index = 0; index < 2; index += 1) {
      expect((await octo('POST', '/bookings', reservation(day(1), '15:00', ['adult', 'adult', 'adult', 'adult']))).status).toBe(200);
    }
    const again = await octo('POST', '/bookings', { ...body, uuid: uuid.toUpperCase() });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id: first.json.id, uuid });
    expect(await booked('s_boat1', day(1), '15:00')).toBe(10);
    const other = await octo('POST', '/bookings', { ...body, notes: 'another request' });
    expect(other.json).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid });
    expect((await octo('POST', '/bookings', reservation(day(1), '15:00', ['adult']))).json.error).toBe('UNPROCESSABLE_ENTITY');
  });

  test('a unit over its limits, a party over the activity maximum and an infant alone are UNPROCESSABLE_ENTITY, and write nothing', async () => {
    const before = await booked('s_boat1', day(2), '10:00');
    for (const units of [['child', 'child', 'child', 'child', 'child', 'adult'], Array(9).fill('adult'), ['infant']]) {
      const response = await octo('POST', '/bookings', reservation(day(2), '10:00', units));
      expect(response.json).toMatchObject({ error: 'UNPROCESSABLE_ENTITY', errorMessage: expect.stringMatching(/\S/) });
    }
    expect(await booked('s_boat1', day(2), '10:00')).toBe(before);
  });

  test('the hold sweep expires them like any hold and gives their places back', async () => {
    const held = (await octo('POST', '/bookings', reservation(day(3), '10:00', ['adult', 'adult']))).json;
    expect(await booked('s_boat1', day(3), '10:00')).toBe(2);
    clock.advance(16 * 60_000);
    try {
      expect(await expireDueHolds()).toBeGreaterThanOrEqual(1);
    } finally {
      clock.advance(-16 * 60_000);
    }
    const expired = (await octo('GET', `/bookings/${held.uuid}`)).json;
    expect(expired).toMatchObject({
      status: 'EXPIRED',
      cancellable: false,
      cancellation: { refund: 'FULL' },
      utcExpiresAt: held.utcExpiresAt,
    });
    expect(await booked('s_boat1', day(3), '10:00')).toBe(0);
    expect((await octo('POST', `/bookings/${held.uuid}/confirm`, {})).json.error).toBe('UNPROCESSABLE_ENTITY');
  });

  test('extend moves the expiry to now plus the minutes asked, at most 60', async () => {
    const held = (await octo('POST', '/bookings', reservation(day(3), '15:00', ['adult']))).json;
    clock.advance(60_000);
    const extended = (await octo('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 31 })).json;
    expect(minutesBetween(held.utcCreatedAt, extended.utcExpiresAt)).toBe(32);
    const capped = (await octo('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 500 })).json;
    expect(minutesBetween(held.utcCreatedAt, capped.utcExpiresAt)).toBe(61);
  });
});

describe('confirmation and changes', () => {
  test('confirming with other unit items takes or gives back the difference in the same transaction', async () => {
    const held = (await octo('POST', '/bookings', reservation(day(4), '10:00', ['adult', 'adult']))).json;
    const confirmed = await octo('POST', `/bookings/${held.uuid}/confirm`, {
      resellerReference: 'RES-42',
      contact: { firstName: 'Ana', lastName: 'Silva', emailAddress: 'ana@example.com', notes: 'Vegetarian' },
      unitItems: [{ unitId: 'adult', uuid: held.unitItems[0].uuid }, { unitId: 'adult' }, { unitId: 'child' }],
    });
    expect(confirmed.json).toMatchObject({
      status: 'CONFIRMED',
      resellerReference: 'RES-42',
      utcExpiresAt: null,
      contact: { fullName: 'Ana Silva', firstName: 'Ana', emailAddress: 'ana@example.com', notes: 'Vegetarian', locales: [] },
      voucher: { deliveryOptions: [{ deliveryFormat: 'QRCODE', deliveryValue: held.id }] },
    });
    expect(confirmed.json.unitItems[0].uuid).toBe(held.unitItems[0].uuid);
    expect(await booked('s_boat1', day(4), '10:00')).toBe(3);
    // Again with nothing new: the same booking; with something new: PATCH is the way.
    expect((await octo('POST', `/bookings/${held.uuid}/confirm`, {})).json.utcUpdatedAt).toBe(confirmed.json.utcUpdatedAt);
    expect((await octo('POST', `/bookings/${held.uuid}/confirm`, { resellerReference: 'OTHER' })).json.error).toBe('UNPROCESSABLE_ENTITY');
  });

  test('PATCH moves a booking to another availability and product, places and all, and keeps its status', async () => {
    const { uuid } = (await octo('POST', '/bookings', reservation(day(5), '10:00', ['adult', 'child']))).json;
    await octo('POST', `/bookings/${uuid}/confirm`, {});
    const moved = (await octo('PATCH', `/bookings/${uuid}`, { availabilityId: availabilityId(day(6), '15:00') })).json;
    expect(moved).toMatchObject({ status: 'CONFIRMED', availabilityId: availabilityId(day(6), '15:00') });
    expect([await booked('s_boat1', day(5), '10:00'), await booked('s_boat1', day(6), '15:00')]).toEqual([0, 2]);
    const museum = (
      await octo('PATCH', `/bookings/${uuid}`, {
        productId: 's_museum1',
        optionId: 'DEFAULT',
        availabilityId: availabilityId(day(6), '00:00'),
        unitItems: [{ unitId: 'senior' }],
      })
    ).json;
    expect(museum).toMatchObject({
      productId: 's_museum1',
      availability: {
        allDay: true,
        openingHours: [{ from: '10:00', to: '18:00' }],
        localDateTimeEnd: zonedIso(day(7), '00:00', 'Europe/Lisbon'),
      },
    });
    expect([await booked('s_boat1', day(6), '15:00'), await booked('s_museum1', day(6), '00:00')]).toEqual([0, 1]);
    // A new product needs its availability and units.
    expect((await octo('PATCH', `/bookings/${uuid}`, { productId: 's_boat1' })).json.error).toBe('BAD_REQUEST');
    // A reservation's expiry is a reservation's only.
    expect((await octo('PATCH', `/bookings/${uuid}`, { expirationMinutes: 5 })).json.error).toBe('BAD_REQUEST');
  });

  test('PATCH to a full availability is UNPROCESSABLE_ENTITY and moves nothing', async () => {
    const { uuid } = (await octo('POST', '/bookings', reservation(day(7), '10:00', ['adult', 'adult']))).json;
    for (let index = 0; index < 2; index += 1)
      await octo('POST', '/bookings', reservation(day(7), '15:00', ['adult', 'adult', 'adult', 'adult', 'adult']));
    const refused = await octo('PATCH', `/bookings/${uuid}`, { availabilityId: availabilityId(day(7), '15:00') });
    expect(refused.json.error).toBe('UNPROCESSABLE_ENTITY');
    expect([await booked('s_boat1', day(7), '10:00'), await booked('s_boat1', day(7), '15:00')]).toEqual([2, 10]);
  });
});

describe('one set of bookings', () => {
  test("an OCTo booking is the operator's: in its list and manifest (channel ota, the reseller's reference), cancelled by it with a reason", async () => {
    const held = (await octo('POST', '/bookings', reservation(day(8), '10:00', ['adult']))).json;
    await octo('POST', `/bookings/${held.uuid}/confirm`, {
      resellerReference: 'RES-77',
      contact: { firstName: 'Rui', lastName: 'Costa', emailAddress: 'rui@example.com' },
    });
    const manifest = await request('GET', `/api/v2/bookings?date=${day(8)}`, { key: operator.key });
    const listed = manifest.json.data.Timeslots.flatMap((slot: { Bookings: unknown[] }) => slot.Bookings);
    expect(listed).toContainEqual(
      expect.objectContaining({
        BookingReference: held.id,
        Channel: 'ota',
        Status: 'CONFIRMED',
        ResellerReference: 'RES-77',
        Customer: { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' },
        Units: [{ UnitID: 'adult', Quantity: 1, UnitPrice: { Amount: 4000, Currency: 'EUR' } }],
      }),
    );
    const cancelled = await request('POST', `/api/v2/bookings/${held.id}/cancel`, { key: operator.key, body: { Reason: 'Storm' } });
    expect(cancelled.json.data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator' });
    expect((await octo('GET', `/bookings/${held.uuid}`)).json).toMatchObject({ status: 'CANCELLED', cancellation: { reason: 'Storm' } });
    expect(await booked('s_boat1', day(8), '10:00')).toBe(0);
  });

  test("a contact is held to the marketplace's rule of a customer: a control character is refused by both APIs, an address that is not an email makes no Customer", async () => {
    const contact = { firstName: 'Ana\u0007', lastName: 'Silva', emailAddress: 'ana@example.com' };
    const refused = await octo('POST', '/bookings', reservation(day(8), '15:00', ['adult'], { contact }));
    expect({ status: refused.status, body: refused.json }).toEqual({
      status: 400,
      body: {
        error: 'BAD_REQUEST',
        errorMessage: "Field 'contact.firstName' must be text of at most 100 characters without control characters, or null",
      },
    });
    const customer = { FirstName: 'Ana\u0007', LastName: 'Silva', Email: 'ana@example.com' };
    const marketplace = await request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: { ActivityID: 's_boat1', Date: day(8), Time: '15:00', Participants: 1, Customer: customer },
    });
    expect({ status: marketplace.status, detail: marketplace.json.detail }).toEqual({
      status: 422,
      detail: "Field 'Customer.FirstName' must be 1 to 100 characters, not all blank, without control characters",
    });
    const customerOf = async (emailAddress: string) => {
      const held = (
        await octo(
          'POST',
          '/bookings',
          reservation(day(8), '15:00', ['adult'], { contact: { ...contact, firstName: 'Ana', emailAddress } }),
        )
      ).json;
      return (await request('GET', `/api/v2/ota/marketplace/booking/${held.id}`, { key: operator.key })).json.data.Customer;
    };
    expect(await customerOf('ana@example')).toBeUndefined();
    expect(await customerOf('ana@example.com')).toEqual({ FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com' });
  });

  test("a reseller's cancellation reason is kept, and a booking is another key's or operator's to nobody else", async () => {
    const held = (await octo('POST', '/bookings', reservation(day(9), '10:00', ['adult']))).json;
    const otherKey = octoClient(request, await operator.keyWith(['ota']));
    expect((await otherKey('GET', `/bookings/${held.uuid}`)).json).toMatchObject({ error: 'INVALID_BOOKING_UUID', uuid: held.uuid });
    const otherOperator = await createTestOperator(octoCatalog({ start, days: 2 }));
    const stranger = octoClient(request, otherOperator.key);
    expect((await stranger('GET', `/bookings/${held.uuid}`)).json.error).toBe('INVALID_BOOKING_UUID');
    const cancelled = (await octo('POST', `/bookings/${held.uuid}/cancel`, { reason: 'Customer changed plans' })).json;
    expect(cancelled).toMatchObject({
      status: 'CANCELLED',
      cancellable: false,
      cancellation: { refund: 'FULL', reason: 'Customer changed plans' },
    });
    const marketplace = await request('GET', `/api/v2/ota/marketplace/booking/${held.id}`, { key: operator.key });
    expect(marketplace.json.data).toMatchObject({ CancelledBy: 'partner', CancellationReason: 'Customer changed plans' });
    // Cancelling again answers it unchanged.
    expect((await octo('DELETE', `/bookings/${held.uuid}`)).json.utcUpdatedAt).toBe(cancelled.utcUpdatedAt);
  });

  test('GET /bookings lists by supplier reference, reseller reference and days, optionally of one product', async () => {
    const boat = (await octo('POST', '/bookings', reservation(day(10), '10:00', ['adult'], { resellerReference: 'LIST-1' }))).json;
    const museum = (
      await octo('POST', '/bookings', {
        productId: 's_museum1',
        optionId: 'DEFAULT',
        availabilityId: availabilityId(day(10), '00:00'),
        unitItems: [{ unitId: 'adult' }],
        resellerReference: 'LIST-1',
      })
    ).json;
    const ids = (response: { json: { id: string }[] }) => response.json.map((booking) => booking.id);
    expect(ids(await octo('GET', `/bookings?supplierReference=${boat.id}`))).toEqual([boat.id]);
    expect(ids(await octo('GET', `/bookings?supplierReference=${boat.id.toLowerCase()}`))).toEqual([boat.id]);
    expect(ids(await octo('GET', '/bookings?resellerReference=LIST-1'))).toEqual([museum.id, boat.id]);
    expect(ids(await octo('GET', `/bookings?localDate=${day(10)}`))).toEqual([museum.id, boat.id]);
    expect(ids(await octo('GET', `/bookings?localDateStart=${day(10)}&localDateEnd=${day(11)}&productId=s_boat1`))).toEqual([boat.id]);
    expect(ids(await octo('GET', `/bookings?resellerReference=LIST-1&productId=s_museum1`))).toEqual([museum.id]);
    expect((await octo('GET', `/bookings?localDateStart=${day(9)}`)).json.error).toBe('BAD_REQUEST');
    expect(ids(await octoClient(request, await operator.keyWith(['ota']))('GET', '/bookings?resellerReference=LIST-1'))).toEqual([]);
  });
});

describe('day tickets (OPENING_HOURS)', () => {
  test('one availability a day at 00:00, sold until closing, in OCTo and in the marketplace alike', async () => {
    const [ticket] = (await octo('POST', '/availability', { productId: 's_museum1', optionId: 'DEFAULT', localDate: day(11) })).json;
    expect(ticket).toMatchObject({
      id: availabilityId(day(11), '00:00'),
      allDay: true,
      openingHours: [{ from: '10:00', to: '18:00' }],
      utcCutoffAt: new Date(`${zonedIso(day(11), '18:00', 'Europe/Lisbon')}`).toISOString().slice(0, 19) + 'Z',
    });
    const product = (await octo('GET', '/products/s_museum1')).json;
    expect(product).toMatchObject({ availabilityType: 'OPENING_HOURS', options: [{ availabilityLocalStartTimes: [] }] });
    const timeslots = await request('GET', `/api/v2/ota/marketplace/availability/s_museum1/timeslots?Date=${day(11)}`, {
      key: operator.key,
    });
    expect(timeslots.json.data).toEqual([
      expect.objectContaining({
        Time: '00:00',
        StartsAt: zonedIso(day(11), '00:00', 'Europe/Lisbon'),
        OpeningHours: [{ From: '10:00', To: '18:00' }],
      }),
    ]);
    const sold = await request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: {
        ActivityID: 's_museum1',
        Date: day(11),
        Time: '00:00',
        Participants: 3,
        Units: [
          { UnitID: 'adult', Quantity: 1 },
          { UnitID: 'senior', Quantity: 2 },
        ],
        Customer: { FirstName: 'Eva', LastName: 'Lima', Email: 'eva@example.com' },
      },
    });
    expect(sold.status).toBe(201);
    expect(sold.json.data).toMatchObject({ Participants: 3, TotalPrice: { Amount: 3500, Currency: 'EUR' } });
    const products = await request('GET', '/api/v2/ota/marketplace/products', { key: operator.key });
    expect(products.json.data.find((item: { ActivityID: string }) => item.ActivityID === 's_museum1')).toMatchObject({
      AvailabilityType: 'OPENING_HOURS',
      Units: [expect.objectContaining({ UnitID: 'adult' }), expect.objectContaining({ UnitID: 'senior' })],
    });
    // Units that do not add up to Participants are refused, naming the field.
    const mismatch = await request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: {
        ActivityID: 's_museum1',
        Date: day(11),
        Time: '00:00',
        Participants: 2,
        Units: [{ UnitID: 'adult', Quantity: 1 }],
        Customer: { FirstName: 'Eva', LastName: 'Lima', Email: 'eva@example.com' },
      },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.json.detail).toMatch(/^Field 'Participants'/);
  });

  test("an availability ID with another offset than the date's is not one", async () => {
    const wrong = `${day(11)}T00:00:00+09:00`;
    const response = await octo('POST', '/availability', { productId: 's_museum1', optionId: 'DEFAULT', availabilityIds: [wrong] });
    expect(response.json).toMatchObject({ error: 'INVALID_AVAILABILITY_ID', availabilityId: wrong });
  });
});
