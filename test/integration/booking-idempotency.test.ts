// The partner booking route: safe retries with Idempotency-Key, and reading bookings back and cancelling them.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { cancelPartnerBooking } from '../../shared/booking/partner-bookings';
import { hashIdempotencyKey } from '../../shared/core/idempotency';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import { testCatalog } from '../support/catalog';
import { createTestOperator } from '../support/fixtures';
import { expectProblem } from '../support/problems';
import { BOOKING, bookingBody, customer, partnerBookingWorld } from '../support/partner-bookings';

const { world, start, freshDate, book, vacancies, booked, storedReferences } = partnerBookingWorld();

describe('Idempotency-Key', () => {
  it('replays the original 201 for the same key and body: same reference, places taken once', async () => {
    const date = freshDate();
    const headers = { 'Idempotency-Key': `retry-${date}` };
    const first = await book(bookingBody(date), { headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its fields in another order is the same request.
    const reordered = {
      Customer: { Phone: customer.Phone, Email: customer.Email, LastName: 'Silva', FirstName: 'Ana' },
      Participants: 2,
      Time: '09:00',
      Date: date,
      ActivityID: 's_walk1',
    };
    const again = await book(reordered, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.json).toEqual(first.json);
    expect(await booked(date)).toBe(2);
    expect((await storedReferences()).filter((reference) => reference === first.json.data.BookingReference)).toHaveLength(1);
  });

  it('answers 422 when the key comes back with a different body, and writes nothing', async () => {
    const date = freshDate();
    const headers = { 'Idempotency-Key': `change-${date}` };
    const first = await book(bookingBody(date), { headers });
    const changed = await book(bookingBody(date, { Participants: 3 }), { headers });
    expectProblem(changed, 422, {
      detail: new RegExp(`'Idempotency-Key' was already used for booking ${first.json.data.BookingReference} with a different request`),
    });
    expect(await booked(date)).toBe(2);
  });

  it('replays even after the timeslot has filled up', async () => {
    const date = freshDate();
    const headers = { 'Idempotency-Key': `full-${date}` };
    const first = await book(bookingBody(date, { Participants: 10 }), { headers });
    expect(first.status).toBe(201);
    const again = await book(bookingBody(date, { Participants: 10 }), { headers });
    expect(again.status).toBe(201);
    expect(again.json.data.BookingReference).toBe(first.json.data.BookingReference);
  });

  it('answers simultaneous requests with the same key with one booking', async () => {
    const date = freshDate();
    const headers = { 'Idempotency-Key': `race-${date}` };
    const responses = await Promise.all(Array.from({ length: 12 }, () => book(bookingBody(date), { headers })));
    expect(responses.map((response) => response.status)).toEqual(Array(12).fill(201));
    expect(new Set(responses.map((response) => response.json.data.BookingReference)).size).toBe(1);
    expect(await booked(date)).toBe(2);
  });

  it('keeps keys apart per partner key', async () => {
    const date = freshDate();
    const otherPartner = await world.operator.keyWith(['ota']);
    const headers = { 'Idempotency-Key': `shared-${date}` };
    const mine = await book(bookingBody(date), { headers });
    const theirs = await book(bookingBody(date, { Participants: 3 }), { headers, key: otherPartner });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.json.data.BookingReference).not.toBe(mine.json.data.BookingReference);
    expect(await booked(date)).toBe(5);
  });

  it('stores the record with an expiry, and rejects a malformed key', async () => {
    const date = freshDate();
    const key = `ttl-${date}`;
    const response = await book(bookingBody(date), { headers: { 'Idempotency-Key': key } });
    const { Item } = await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: bookingKeys.idempotencyRecord(world.operator.operatorId, response.json.data.PartnerKeyID, hashIdempotencyKey(key)),
      }),
    );
    const now = Math.floor(Date.now() / 1000);
    expect(Item?.BookingReference).toBe(response.json.data.BookingReference);
    expect(Item?.ExpiresAt).toBeGreaterThan(now + 23 * 3600);
    expect(Item?.ExpiresAt).toBeLessThanOrEqual(now + 24 * 3600 + 60);
    expectProblem(await book(bookingBody(date), { headers: { 'Idempotency-Key': 'x'.repeat(256) } }), 422, { detail: /'Idempotency-Key'/ });
    expect(await booked(date)).toBe(2);
  });
});

describe('reading back and cancelling', () => {
  it('cancels, gives the places back at once, and cancelling again is harmless', async () => {
    const date = freshDate();
    const created = await book(bookingBody(date, { Participants: 10 }));
    const reference = created.json.data.BookingReference;
    expectProblem(await book(bookingBody(date, { Participants: 1 })), 409);
    const cancelled = await world.request('POST', `${BOOKING}/${reference}/cancel`, { key: world.operator.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toEqual({
      ...created.json.data,
      Status: 'CANCELLED',
      CancelledAt: expect.any(String),
      CancelledBy: 'partner',
    });
    expect(await vacancies(date)).toBe(10);
    const again = await world.request('POST', `${BOOKING}/${reference}/cancel`, { key: world.operator.key });
    expect(again.json.data).toEqual(cancelled.json.data);
    expect(await booked(date)).toBe(0);
    const rebooked = await book(bookingBody(date, { Participants: 10 }));
    expect(rebooked.status).toBe(201);
    expect(await vacancies(date)).toBe(0);
    expect((await world.request('GET', `${BOOKING}/${reference}`, { key: world.operator.key })).json.data.Status).toBe('CANCELLED');
  });

  it('gives places back once when the same booking is cancelled simultaneously', async () => {
    const date = freshDate();
    await book(bookingBody(date, { Participants: 3 }));
    const reference = (await book(bookingBody(date, { Participants: 4 }))).json.data.BookingReference;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => world.request('POST', `${BOOKING}/${reference}/cancel`, { key: world.operator.key })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(await booked(date)).toBe(3);
  });

  it('reads a reference case-insensitively, 400 for a malformed one and 404 for an unknown one', async () => {
    const reference = (await book(bookingBody(freshDate()))).json.data.BookingReference as string;
    expect(
      (await world.request('GET', `${BOOKING}/${reference.toLowerCase()}`, { key: world.operator.key })).json.data.BookingReference,
    ).toBe(reference);
    expectProblem(await world.request('GET', `${BOOKING}/ABC`, { key: world.operator.key }), 400, { detail: /'BookingReference'/ });
    expectProblem(await world.request('GET', `${BOOKING}/O0O0O0O0O0`, { key: world.operator.key }), 400);
    expectProblem(await world.request('GET', `${BOOKING}/AAAAAAAAAA`, { key: world.operator.key }), 404);
    expectProblem(await world.request('POST', `${BOOKING}/AAAAAAAAAA/cancel`, { key: world.operator.key }), 404);
  });

  it("shows and cancels a partner's own bookings only: not another partner's, not another operator's", async () => {
    const date = freshDate();
    const reference = (await book(bookingBody(date, { Participants: 5 }))).json.data.BookingReference;
    const otherPartner = await world.operator.keyWith(['ota']);
    const otherOperator = await createTestOperator(testCatalog({ start, days: 40 }));
    for (const key of [otherPartner, otherOperator.key]) {
      expectProblem(await world.request('GET', `${BOOKING}/${reference}`, { key }), 404);
      expectProblem(await world.request('POST', `${BOOKING}/${reference}/cancel`, { key }), 404);
    }
    expect((await world.request('GET', `${BOOKING}/${reference}`, { key: world.operator.key })).json.data.Status).toBe('CONFIRMED');
    expect(await booked(date)).toBe(5);
    // The other operator's catalogue has the same ActivityID, but its own timeslots.
    expect(await vacancies(date, '09:00', otherOperator.key)).toBe(10);
  });

  it('refuses to cancel once the timeslot has started (409), and changes nothing', async () => {
    const date = freshDate();
    const made = await book(bookingBody(date));
    const caller = {
      operatorId: world.operator.operatorId,
      keyId: made.json.data.PartnerKeyID,
      scopes: ['ota'],
      timeZone: 'Europe/Lisbon',
    };
    await expect(cancelPartnerBooking(caller, made.json.data.BookingReference, new Date(`${date}T12:00:00Z`))).rejects.toThrow(
      /can no longer be cancelled: its timeslot started/,
    );
    expect(await booked(date)).toBe(2);
  });

  it('needs the ota scope', async () => {
    const usageOnly = await world.operator.keyWith(['usage:read']);
    expectProblem(await book(bookingBody(freshDate()), { key: usageOnly }), 403, { octo: true });
  });
});
