import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { findActiveKey, revokeApiKey } from '../../shared/accounts/api-keys';
import { systemClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { revokePartnerKey } from '../../shared/webhooks/key-revocation';
import { LANES_PER_PARTNER } from '../../shared/webhooks/partner-lanes';
import { DELIVERY_WINDOW_MS } from '../../shared/webhooks/schedule';
import type { HttpClient } from '../support/fixtures';
import { startWebhookReceiver } from '../support/webhook-receiver';
import { BOOKING, event, WEBHOOK, webhookWorld } from '../support/webhooks';

/**
 * Webhooks to partners through real HTTP: registration and the SSRF rule,
 * signed deliveries verified with the `standardwebhooks` package on a local
 * receiver, exactly one event per change, retries to a receiver that was
 * down, and booking requests that never wait on a world.receiver. The local host
 * reads the table's stream for the sender when told to (`settle`); the
 * tests move the clock and run the one-minute sweeps themselves.
 */
const { world, clock, partnerWithEndpoint, book, settle, operatorCancel, receivedAt, sweepAfter } = webhookWorld('ota-usage-webhooks-test');
const request: HttpClient = (...args) => world.request(...args);

describe('registering an endpoint', () => {
  it('shows the secret once, reads the endpoint back without it, issues a new secret on replacing, and removes it', async () => {
    const key = await world.operator.keyWith(['ota']);
    const first = await request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/first') } });
    expect(first.status).toBe(200);
    const bookingEvents = ['booking.confirmed', 'booking.cancelled', 'hold.expired'];
    expect(first.json.data).toEqual({
      Url: world.receiver.url('/first'),
      EventTypes: bookingEvents,
      Secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      CreatedAt: clock().toISOString(),
      Status: 'ACTIVE',
    });
    const read = await request('GET', WEBHOOK, { key });
    expect(read.json.data).toEqual({
      Url: world.receiver.url('/first'),
      EventTypes: bookingEvents,
      CreatedAt: clock().toISOString(),
      Status: 'ACTIVE',
    });
    const replaced = await request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/second') } });
    expect(replaced.json.data.Secret).not.toBe(first.json.data.Secret);
    expect((await request('GET', WEBHOOK, { key })).json.data.Url).toBe(world.receiver.url('/second'));
    const removed = await request('DELETE', WEBHOOK, { key });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await request('GET', WEBHOOK, { key })).status).toBe(404);
    expect((await request('DELETE', WEBHOOK, { key })).status).toBe(404);
  });

  it.each([
    ['https://10.0.0.5/hooks', 'must not point to a private, loopback, link-local or reserved address'],
    ['http://10.0.0.5/hooks', 'must be an https URL'],
    ['https://169.254.169.254/latest/meta-data', 'must not point to a private, loopback, link-local or reserved address'],
    ['https://[fd00::1]/hooks', 'must not point to a private, loopback, link-local or reserved address'],
    ['https://[::169.254.169.254]/latest/meta-data', 'must not point to a private, loopback, link-local or reserved address'],
    ['https://[64:ff9b::a9fe:a9fe]/latest/meta-data', 'must not point to a private, loopback, link-local or reserved address'],
    ['https://[2002:a9fe:a9fe::1]/hooks', 'must not point to a private, loopback, link-local or reserved address'],
    ['https://partner.example.com:8443/hooks', 'must use port 443'],
    ['http://partner.example.com/hooks', 'must be an https URL'],
    ['https://localhost/hooks', 'must name a public host'],
    ['https://metadata.google.internal/', 'must name a public host'],
    ['https://user:secret@partner.example.com/hooks', 'must not carry a user name or password'],
    ['not a url', 'must be an absolute https URL'],
  ])('refuses %s (422), whatever the local setting', async (url, rule) => {
    const key = await world.operator.keyWith(['ota']);
    const response = await request('PUT', WEBHOOK, { key, body: { Url: url } });
    expect(response.status).toBe(422);
    expect(response.json.detail).toBe(`Field 'Url' ${rule}`);
    expect((await request('GET', WEBHOOK, { key })).status).toBe(404);
  });

  const partnerTypes = 'booking.confirmed, booking.cancelled, hold.expired, availability.changed, product.changed';
  it.each([
    [['usage.threshold.crossed'], `Field 'EventTypes[0]' must be one of ${partnerTypes}`],
    [['hold.expired', 'hold.expired'], `Field 'EventTypes' must be a list of distinct event types, each one of ${partnerTypes}`],
    [[], `Field 'EventTypes' must be a list of distinct event types, each one of ${partnerTypes}`],
    ['hold.expired', `Field 'EventTypes' must be a list of distinct event types, each one of ${partnerTypes}`],
  ])('refuses EventTypes %j (422) naming the partner events, registering nothing', async (eventTypes, detail) => {
    const key = await world.operator.keyWith(['ota']);
    const response = await request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/typed'), EventTypes: eventTypes } });
    expect(response.status).toBe(422);
    expect(response.json.detail).toBe(detail);
    expect((await request('GET', WEBHOOK, { key })).status).toBe(404);
  });

  it('refuses http://127.0.0.1 unless the configuration allows loopback receivers, as it never does on AWS', async () => {
    const key = await world.operator.keyWith(['ota']);
    configure({ ...config(), webhookTargets: 'public-https' });
    try {
      const refused = await request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/local') } });
      expect(refused.status).toBe(422);
      expect(refused.json.detail).toBe("Field 'Url' must be an https URL");
      expect((await request('PUT', WEBHOOK, { key, body: { Url: 'https://127.0.0.1/hooks' } })).json.detail).toBe(
        "Field 'Url' must not point to a private, loopback, link-local or reserved address",
      );
    } finally {
      configure({ ...config(), webhookTargets: 'loopback-http' });
    }
    expect((await request('PUT', WEBHOOK, { key, body: { Url: world.receiver.url('/local') } })).status).toBe(200);
  });
});

describe('deliveries', () => {
  it('signs as Standard Webhooks specifies: the standardwebhooks package verifies a real delivery, and refuses it tampered', async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/signed');
    const reference = await book(partner.key, { hold: true });
    const confirmed = await request('POST', `${BOOKING}/${reference}/confirm`, { key: partner.key, body: {} });
    await settle();
    const [delivery] = receivedAt('/signed');
    const headers = delivery.headers as Record<string, string>;
    const verified = new Webhook(partner.secret).verify(delivery.body, headers);
    expect(verified).toEqual({ type: 'booking.confirmed', timestamp: clock().toISOString(), data: confirmed.json.data });
    expect(headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{24}$/);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(clock().getTime() / 1000)));
    const tampered = delivery.body.replace('"Participants":1', '"Participants":9');
    expect(tampered).not.toBe(delivery.body);
    expect(() => new Webhook(partner.secret).verify(tampered, headers)).toThrow(WebhookVerificationError);
    const otherSecret = (await partnerWithEndpoint('/other')).secret;
    expect(() => new Webhook(otherSecret).verify(delivery.body, headers)).toThrow(WebhookVerificationError);
  });

  it("carries nothing of the operator's or of any API key: only the body, its signature and plain HTTP headers", async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/headers');
    const reference = await book(partner.key);
    await operatorCancel(reference);
    await settle();
    const [delivery] = receivedAt('/headers');
    expect(Object.keys(delivery.headers).sort()).toEqual(
      ['connection', 'content-length', 'content-type', 'host', 'user-agent', 'webhook-id', 'webhook-signature', 'webhook-timestamp'].sort(),
    );
    const wire = JSON.stringify(delivery);
    for (const secret of [partner.key, world.operator.key, partner.secret, partner.secret.slice('whsec_'.length)])
      expect(wire).not.toContain(secret);
    expect(wire).not.toContain(world.operator.operatorId);
  });

  it('sends exactly one booking.cancelled per operator cancellation to the partner who sold the booking, and nothing to others', async () => {
    const [north, south] = [await partnerWithEndpoint('/north'), await partnerWithEndpoint('/south')];
    const silent = await world.operator.keyWith(['ota']);
    const [northBooking, southBooking, silentBooking] = [await book(north.key), await book(south.key), await book(silent)];
    const ownCancel = await book(north.key);
    await request('POST', `${BOOKING}/${ownCancel}/cancel`, { key: north.key });
    const cancellations = await Promise.all(
      [northBooking, southBooking, silentBooking, northBooking].map((reference) => operatorCancel(reference)),
    );
    expect(cancellations.map((response) => response.status)).toEqual([200, 200, 200, 200]);
    await settle();
    await sweepAfter(2 * 60_000);
    const northEvents = receivedAt('/north').map(event);
    const southEvents = receivedAt('/south').map(event);
    expect(northEvents.map((entry) => [entry.type, entry.data.BookingReference])).toEqual([['booking.cancelled', northBooking]]);
    expect(southEvents.map((entry) => [entry.type, entry.data.BookingReference])).toEqual([['booking.cancelled', southBooking]]);
    expect(northEvents[0].data).toMatchObject({ Status: 'CANCELLED', CancelledBy: 'operator', CancellationReason: 'Storm warning' });
  });

  it('tells the partner when its hold expires', async () => {
    const partner = await partnerWithEndpoint('/expiry');
    const reference = await book(partner.key, { hold: true });
    await sweepAfter(5 * 60_000);
    expect(
      receivedAt('/expiry')
        .map(event)
        .map((entry) => [entry.type, entry.data.BookingReference, entry.data.Status]),
    ).toEqual([['hold.expired', reference, 'EXPIRED']]);
  });

  it('never makes a booking request wait on a slow receiver', async () => {
    const partner = await partnerWithEndpoint('/slow');
    const reference = await book(partner.key, { hold: true });
    world.receiver.answer('hold');
    const before = world.receiver.received.length;
    const confirmed = await request('POST', `${BOOKING}/${reference}/confirm`, { key: partner.key, body: {} });
    // The confirmation has been answered; the receiver has not answered its delivery, and cannot until released.
    expect(confirmed.status).toBe(200);
    await world.receiver.waitFor(before + 1);
    world.receiver.answer(204);
    world.receiver.release();
    await settle();
    await sweepAfter(2 * 60_000);
    expect(
      receivedAt('/slow')
        .map(event)
        .map((entry) => entry.type),
    ).toEqual(['booking.confirmed']);
  });

  it('retries a receiver that is down with the same webhook-id, delivers once it is back, and then stops', async () => {
    const partner = await partnerWithEndpoint('/down');
    const reference = await book(partner.key);
    await world.receiver.stop();
    await operatorCancel(reference);
    await settle();
    await sweepAfter(30_000);
    expect(receivedAt('/down')).toHaveLength(0);
    await world.receiver.start();
    // The first retry is due a minute after the failed attempt.
    await sweepAfter(30_000);
    const [delivery] = receivedAt('/down');
    expect(event(delivery)).toMatchObject({ type: 'booking.cancelled', data: { BookingReference: reference } });
    await sweepAfter(60 * 60_000);
    expect(receivedAt('/down')).toHaveLength(1);
  });

  it('keeps one webhook-id and body over every retry for 24 hours, then gives up', async () => {
    const partner = await partnerWithEndpoint('/failing');
    const reference = await book(partner.key);
    world.receiver.answer(500);
    try {
      await operatorCancel(reference);
      await settle();
      const firstAttempt = clock().getTime();
      const key = webhookKeys.delivery(world.operator.operatorId, receivedAt('/failing')[0].headers['webhook-id'] as string);
      const deliveryNow = async () => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }))).Item!;
      // A sweep the moment each retry is due, for as long as the delivery is pending.
      for (let delivery = await deliveryNow(), sweeps = 0; delivery.Status === 'PENDING' && sweeps < 20; sweeps += 1) {
        await sweepAfter(Date.parse(delivery.NextAttemptAt as string) - clock().getTime());
        delivery = await deliveryNow();
      }
      await sweepAfter(2 * 3_600_000);
      const attempts = receivedAt('/failing');
      expect(attempts.length).toBeGreaterThanOrEqual(7);
      expect(new Set(attempts.map((attempt) => attempt.headers['webhook-id'])).size).toBe(1);
      expect(new Set(attempts.map((attempt) => attempt.body)).size).toBe(1);
      const lastAttempt = Number(attempts.at(-1)!.headers['webhook-timestamp']) * 1000;
      expect(lastAttempt - firstAttempt).toBeLessThanOrEqual(DELIVERY_WINDOW_MS);
      expect(lastAttempt - firstAttempt).toBeGreaterThan(DELIVERY_WINDOW_MS - 8 * 3_600_000);
      expect(await deliveryNow()).toMatchObject({ Status: 'FAILED', Attempts: attempts.length, LastError: 'answered 500' });
    } finally {
      world.receiver.answer(204);
    }
  });
});

describe('a revoked key', () => {
  const keyIdOf = async (key: string) => (await findActiveKey(key))!.KeyID;
  const readItem = async (key: { PK: string; SK: string }) =>
    (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }))).Item;

  it('loses its endpoint and its pending deliveries when revoked: nothing more is sent to it, however long it is retried', async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/revoked');
    const reference = await book(partner.key);
    const keyId = await keyIdOf(partner.key);
    world.receiver.answer(500);
    try {
      await operatorCancel(reference);
      await settle();
    } finally {
      world.receiver.answer(204);
    }
    const [failed] = receivedAt('/revoked');
    const deliveryId = failed.headers['webhook-id'] as string;
    expect(await readItem(webhookKeys.delivery(world.operator.operatorId, deliveryId))).toMatchObject({ Status: 'PENDING', Attempts: 1 });

    expect(await revokePartnerKey(world.operator.operatorId, keyId, clock())).toEqual({ givenUp: 1 });
    expect(await readItem(webhookKeys.endpoint(world.operator.operatorId, keyId))).toBeUndefined();
    const delivery = await readItem(webhookKeys.delivery(world.operator.operatorId, deliveryId));
    expect(delivery).toMatchObject({ Status: 'FAILED', Attempts: 1, LastError: 'the API key was revoked' });
    expect(delivery).not.toHaveProperty('NextAttemptAt');
    for (let elapsed = 0; elapsed < 2 * 3_600_000; elapsed += 15 * 60_000) await sweepAfter(15 * 60_000);
    expect(receivedAt('/revoked')).toHaveLength(1);
  });

  it('is sent nothing by the sender, though its endpoint is still registered', async () => {
    clock.set(new Date());
    const partner = await partnerWithEndpoint('/revoked-still-registered');
    const reference = await book(partner.key);
    const keyId = await keyIdOf(partner.key);
    // The key alone, as if its endpoint were registered again in the minute cached authorizations still allow it.
    await revokeApiKey(world.operator.operatorId, keyId);
    expect(await readItem(webhookKeys.endpoint(world.operator.operatorId, keyId))).toBeDefined();
    expect((await operatorCancel(reference)).status).toBe(200);
    await settle();
    await sweepAfter(2 * 60_000);
    expect(receivedAt('/revoked-still-registered')).toHaveLength(0);
    const [deliveryId] = (await readItem(bookingKeys.booking(world.operator.operatorId, reference)))!.DeliveryIDs as string[];
    expect(await readItem(webhookKeys.delivery(world.operator.operatorId, deliveryId))).toMatchObject({
      Status: 'FAILED',
      Attempts: 1,
      LastError: 'the API key was revoked',
    });
  });
});

describe('a receiver that accepts and never answers', () => {
  const deliveriesOf = async (references: string[]) =>
    Promise.all(
      references.map(async (reference) => {
        const booking = await documentClient().send(
          new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(world.operator.operatorId, reference) }),
        );
        const [deliveryId] = booking.Item!.DeliveryIDs as string[];
        return (
          await documentClient().send(
            new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(world.operator.operatorId, deliveryId) }),
          )
        ).Item!;
      }),
    );

  it(`takes a burst through its ${LANES_PER_PARTNER} lanes when it answers, if slowly: none of its events waits for the retry sweep`, async () => {
    clock.set(new Date());
    const busy = await partnerWithEndpoint('/answers-slowly');
    const bookings: string[] = [];
    for (let count = 0; count < 8; count += 1) bookings.push(await book(busy.key));
    // A quarter of the second after which a receiver counts as slow: the rest is for each attempt's own reads and writes, however busy the machine.
    world.receiver.answer({ status: 204, afterMs: 250 });
    // Time runs, as in production: how long a lane's request has been out is then the same to every attempt, whenever each began.
    configure({ ...config(), clock: systemClock });
    try {
      const cancelled = await Promise.all(bookings.map((reference) => operatorCancel(reference)));
      expect(cancelled.map((response) => response.status)).toEqual(Array(8).fill(200));
      await settle();
      expect((await deliveriesOf(bookings)).map((delivery) => [delivery.Status, delivery.Attempts])).toEqual(
        Array(8).fill(['DELIVERED', 1]),
      );
      expect(receivedAt('/answers-slowly')).toHaveLength(8);
    } finally {
      configure({ ...config(), clock });
      world.receiver.answer(204);
    }
  });

  it(`holds at most ${LANES_PER_PARTNER} delivery lanes: its other events wait for the retry sweep, and another partner's are delivered meanwhile`, async () => {
    clock.set(new Date());
    const slow = await partnerWithEndpoint('/never-answers');
    const other = await startWebhookReceiver();
    try {
      const otherKey = await world.operator.keyWith(['ota']);
      expect((await request('PUT', WEBHOOK, { key: otherKey, body: { Url: other.url('/other') } })).status).toBe(200);
      const slowBookings: string[] = [];
      for (let count = 0; count < 5; count += 1) slowBookings.push(await book(slow.key));
      const otherBooking = await book(otherKey);
      world.receiver.answer('hold');
      const cancelled = await Promise.all([...slowBookings, otherBooking].map((reference) => operatorCancel(reference)));
      expect(cancelled.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);

      // The other partner is told while the slow receiver holds its lanes; the slow one's other events are put off, none attempted.
      await other.waitFor(1);
      let deferred: Record<string, unknown>[] = [];
      for (let tries = 0; deferred.length < 5 - LANES_PER_PARTNER && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        deferred = (await deliveriesOf(slowBookings)).filter((delivery) => delivery.Status === 'PENDING' && !delivery.QueuedAt);
      }
      expect(deferred.map((delivery) => delivery.Attempts)).toEqual(Array(5 - LANES_PER_PARTNER).fill(0));
      expect(receivedAt('/never-answers')).toHaveLength(LANES_PER_PARTNER);

      world.receiver.answer(204);
      world.receiver.release(204);
      await settle();
      await sweepAfter(60_000);
      const received = receivedAt('/never-answers').map((entry) => entry.headers['webhook-id']);
      expect(received).toHaveLength(5);
      expect(new Set(received).size).toBe(5);
      expect((await deliveriesOf(slowBookings)).map((delivery) => delivery.Status)).toEqual(Array(5).fill('DELIVERED'));
      expect(other.received).toHaveLength(1);
    } finally {
      world.receiver.answer(204);
      world.receiver.release(204);
      await other.stop();
    }
  });
});
