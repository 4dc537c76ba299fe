import { Webhook } from 'standardwebhooks';
import { announcementWorld, storedChange, type Change } from '../support/announcements';
import { createTestOperator } from '../support/fixtures';
import type { CatalogFile } from '../../shared/catalog/import-catalog';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { octoClient } from '../support/octo';
import { COALESCING_WINDOW_MS } from '../../shared/changes/model';
import { addDays, zonedIso } from '../../shared/core/calendar';
import { tomorrow } from '../support/catalog';

/**
 * availability.changed through real HTTP: a partner chooses the event, every
 * change of a timeslot reaches it from the table's stream, coalesced per
 * timeslot (the first change of a quiet timeslot at once, later ones at the
 * end of the window, the last state always), in Sequence order, never for a
 * hidden product and never to another operator's partners. The tests move
 * the clock and hand the stream and the queue over themselves.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const WEBHOOK = '/api/v2/ota/webhook';
const date = tomorrow();

const catalog: CatalogFile = {
  Products: [
    {
      ProductID: 810,
      ActivityID: 's_boat1',
      Name: 'Harbour Boat Trip',
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 10,
      PricePerParticipant: { Amount: 3000, Currency: 'EUR' },
      Schedules: [
        {
          From: date,
          To: addDays(date, 2),
          Weekdays: ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'],
          Times: ['10:00', '15:00'],
          Capacity: 20,
        },
      ],
    },
    {
      ProductID: 811,
      ActivityID: 's_crew1',
      Name: 'Crew Training',
      Visible: false,
      DurationMinutes: 60,
      MaxParticipantsPerBooking: 10,
      PricePerParticipant: { Amount: 1000, Currency: 'EUR' },
      Timeslots: [{ Date: date, Time: '08:00', Capacity: 8 }],
    },
  ],
};

const { world, settle } = announcementWorld('ota-usage-announcements-test', catalog);
const { clock } = world;

const changesAt = (path: string) =>
  world.receiver.received
    .filter((entry) => entry.path === path)
    .map((entry) => JSON.parse(entry.body) as { type: string; data: Change })
    .filter((event) => event.type === 'availability.changed')
    .map((event) => event.data);

async function listener(path: string, eventTypes = ['availability.changed']) {
  const key = await world.operator.keyWith(['ota']);
  const registered = await world.request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url(path), EventTypes: eventTypes } });
  expect(registered.status).toBe(200);
  return { key, secret: registered.json.data.Secret as string };
}

async function book(key: string, time: string, participants = 1, day = date): Promise<string> {
  const response = await world.request('POST', BOOKING, {
    key,
    body: {
      ActivityID: 's_boat1',
      Date: day,
      Time: time,
      Participants: participants,
      Customer: { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' },
    },
  });
  expect(response.status).toBe(201);
  return response.json.data.BookingReference;
}

const stored = (time: string) => storedChange(world.operator.operatorId, 's_boat1', date, time);

describe('availability.changed', () => {
  it('is chosen with EventTypes and answered back; an endpoint registered without them keeps the booking events', async () => {
    const key = await world.operator.keyWith(['ota']);
    await world.request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/plain') } });
    expect((await world.request('GET', WEBHOOK, { key })).json.data.EventTypes).toEqual([
      'booking.confirmed',
      'booking.cancelled',
      'hold.expired',
    ]);
    const chosen = ['availability.changed', 'booking.cancelled'];
    await world.request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/plain'), EventTypes: chosen } });
    expect((await world.request('GET', WEBHOOK, { key })).json.data.EventTypes).toEqual(chosen);
  });

  it('tells the first change of a quiet timeslot at once, signed, with its state and Sequence', async () => {
    clock.advance(60_000);
    const partner = await listener('/first');
    await book(partner.key, '10:00', 2);
    await world.host.tableStream.idle();
    await world.host.tableStream.idle();
    const [change] = changesAt('/first');
    expect(change).toEqual({
      ActivityID: 's_boat1',
      Date: date,
      Time: '10:00',
      StartsAt: zonedIso(date, '10:00', 'Europe/Lisbon'),
      ChangedAt: clock().toISOString(),
      ...(await stored('10:00')),
    });
    expect(change).toMatchObject({ Status: 'AVAILABLE', Vacancies: 18, Capacity: 20 });
    const delivery = world.receiver.received.find((entry) => entry.path === '/first')!;
    expect(new Webhook(partner.secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject({
      type: 'availability.changed',
    });
  });

  it('coalesces the changes that follow within the window into one, the last state, at the window’s end', async () => {
    clock.advance(60_000);
    await listener('/burst');
    const seller = await world.operator.keyWith(['ota']);
    await book(seller, '15:00');
    await settle();
    expect(changesAt('/burst')).toHaveLength(1);
    for (let n = 0; n < 4; n += 1) {
      clock.advance(500);
      await book(seller, '15:00', 2);
    }
    await settle();
    expect(changesAt('/burst')).toHaveLength(1);
    clock.advance(COALESCING_WINDOW_MS);
    await settle();
    const changes = changesAt('/burst');
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({ ...(await stored('15:00')), Vacancies: 11 });
  });

  it('tells each change the operator makes: a capacity, a closure as CLOSED with no places for sale, a reopening, an added timeslot, a cancelled one', async () => {
    clock.advance(60_000);
    const { key: partner } = await listener('/operator');
    const key = await world.operator.keyWith(['availability:write']);
    const day = addDays(date, 1);
    const slot = `/api/v2/timeslots/s_boat1/${day}/10:00`;
    const steps: [string, string, unknown][] = [
      ['PATCH', slot, { Capacity: 12 }],
      ['PATCH', slot, { Closed: true, Reason: 'Storm' }],
      ['PATCH', slot, { Closed: false }],
      ['POST', '/api/v2/timeslots/s_boat1', { Timeslots: [{ Date: day, Time: '18:30', Capacity: 6 }] }],
    ];
    for (const [method, path, body] of steps) {
      // Each a first change of a quiet timeslot: told at once.
      clock.advance(COALESCING_WINDOW_MS);
      expect((await world.request(method, path, { key, body })).status).toBeLessThan(300);
      await settle();
    }
    await book(partner, '18:30', 5, day);
    clock.advance(COALESCING_WINDOW_MS);
    await settle();
    clock.advance(COALESCING_WINDOW_MS);
    const cancelled = await world.request('POST', `/api/v2/timeslots/s_boat1/${day}/18:30/cancel`, {
      key,
      body: { Reason: 'Engine failure' },
    });
    expect(cancelled.status).toBe(200);
    await settle();
    const told = changesAt('/operator').map(({ Time, Status, Vacancies, Capacity }) => ({ Time, Status, Vacancies, Capacity }));
    expect(told).toEqual([
      { Time: '10:00', Status: 'AVAILABLE', Vacancies: 12, Capacity: 12 },
      { Time: '10:00', Status: 'CLOSED', Vacancies: 0, Capacity: 12 },
      { Time: '10:00', Status: 'AVAILABLE', Vacancies: 12, Capacity: 12 },
      { Time: '18:30', Status: 'AVAILABLE', Vacancies: 6, Capacity: 6 },
      { Time: '18:30', Status: 'LIMITED', Vacancies: 1, Capacity: 6 },
      { Time: '18:30', Status: 'CLOSED', Vacancies: 0, Capacity: 6 },
    ]);
  });

  it('never tells of a hidden product, nor another operator’s partners of anything', async () => {
    clock.advance(60_000);
    await listener('/hidden');
    // An operator of its own, with nothing that changes: whatever its partner heard would be this operator's.
    const other = await createTestOperator();
    const outsiderKey = await other.keyWith(['ota']);
    await world.request('PUT', WEBHOOK, {
      key: outsiderKey,
      body: { Url: world.receiver.url('/outsider'), EventTypes: ['availability.changed'] },
    });
    await importCatalog(world.operator.operatorId, {
      Products: [catalog.Products[0], { ...catalog.Products[1], Timeslots: [{ Date: date, Time: '08:00', Capacity: 9 }] }],
    });
    await book(await world.operator.keyWith(['ota']), '10:00');
    await settle();
    clock.advance(COALESCING_WINDOW_MS);
    await settle();
    expect(changesAt('/hidden').filter((change) => change.ActivityID === 's_crew1')).toEqual([]);
    expect(changesAt('/hidden').length).toBeGreaterThan(0);
    expect(world.receiver.received.filter((entry) => entry.path === '/outsider')).toEqual([]);
  });
});

describe('product.changed', () => {
  const productEvents = (path: string) =>
    world.receiver.received
      .filter((entry) => entry.path === path)
      .map((entry) => JSON.parse(entry.body) as { type: string; data: Record<string, unknown> })
      .filter((event) => event.type === 'product.changed')
      .map((event) => event.data);

  it('tells a change of name, price, units or visibility, and nothing of an import that changes nothing', async () => {
    await listener('/products', ['product.changed']);
    await importCatalog(world.operator.operatorId, catalog);
    await settle();
    expect(productEvents('/products')).toEqual([]);
    const boat = catalog.Products[0];
    await importCatalog(world.operator.operatorId, {
      Products: [{ ...boat, PricePerParticipant: { Amount: 3500, Currency: 'EUR' } }, catalog.Products[1]],
    });
    await settle();
    expect(productEvents('/products')).toEqual([
      expect.objectContaining({
        ActivityID: 's_boat1',
        PricePerParticipant: { Amount: 3500, Currency: 'EUR' },
        Visible: true,
        Sequence: expect.any(Number),
      }),
    ]);
    await importCatalog(world.operator.operatorId, { Products: [{ ...boat, Visible: false }, catalog.Products[1]] });
    await settle();
    expect(productEvents('/products').at(-1)).toEqual({
      ProductID: 810,
      ActivityID: 's_boat1',
      Visible: false,
      ChangedAt: clock().toISOString(),
      Sequence: expect.any(Number),
    });
    await importCatalog(world.operator.operatorId, catalog);
    await settle();
    expect(productEvents('/products').map((event) => event.Visible)).toEqual([true, false, true]);
    const sequences = productEvents('/products').map((event) => event.Sequence as number);
    expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  });
});

describe('OCTo notifications', () => {
  it('POSTs each subscription its types with the headers it set: availability of the operator, only its own key’s bookings', async () => {
    clock.advance(60_000);
    const key = await world.operator.keyWith(['ota']);
    const octo = octoClient(world.request, key);
    const created = await octo('POST', '/notifications/subscriptions', {
      url: world.receiver.url('/octo'),
      notificationTypes: ['AVAILABILITY_UPDATE', 'BOOKING_UPDATE'],
      headers: { 'Api-Key': 'reseller-secret' },
    });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      id: expect.any(String),
      url: world.receiver.url('/octo'),
      notificationTypes: ['AVAILABILITY_UPDATE', 'BOOKING_UPDATE'],
      headers: { 'Api-Key': 'reseller-secret' },
    });
    const other = await world.operator.keyWith(['ota']);
    const time = '15:00';
    const day = addDays(date, 2);
    const reserve = (client: typeof octo) =>
      client('POST', '/bookings', {
        productId: 's_boat1',
        optionId: 'DEFAULT',
        availabilityId: zonedIso(day, time, 'Europe/Lisbon'),
        unitItems: [{ unitId: 'adult' }],
      });
    const own = await reserve(octo);
    const theirs = await reserve(octoClient(world.request, other));
    expect([own.status, theirs.status]).toEqual([200, 200]);
    await settle();
    const notifications = world.receiver.received.filter((entry) => entry.path === '/octo');
    expect(notifications.every((entry) => entry.headers['api-key'] === 'reseller-secret')).toBe(true);
    const bodies = notifications.map((entry) => JSON.parse(entry.body));
    expect(bodies.filter((body) => body.type === 'BOOKING_UPDATE').map((body) => body.data)).toEqual([{ uuid: own.json.uuid }]);
    expect(bodies.filter((body) => body.type === 'AVAILABILITY_UPDATE').map((body) => body.data)).toContainEqual({
      productId: 's_boat1',
      optionId: 'DEFAULT',
      localDateStart: day,
      localDateEnd: day,
    });
  });
});
