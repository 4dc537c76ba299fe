import { randomUUID } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { BookingItem } from '../../shared/booking/model';
import { emailHash } from '../../shared/booking/personal-data';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import * as webhookKeys from '../../shared/db/webhook-keys';
import { BOOKING, ERASURE, erasureWorld, itemsMentioning, uniqueCustomer } from '../support/erasure';
import { availabilityId } from '../support/octo';
import { expectProblem } from '../support/problems';
import { HOSTILE_JSON_VALUES, HOSTILE_STRINGS, PROTOTYPE_NAMES } from '../../scripts/fuzz/hostile-values';

/**
 * Erasure of a customer's personal data through the operator's route, on
 * real HTTP and DynamoDB Local: by booking reference or by the customer's
 * email, the booking and every copy of it (the stored answer of its
 * Idempotency-Key, its webhook deliveries' payloads, the indexes that list
 * it, the item that finds it by email) lose the customer, contact, notes and
 * waiver answers, and keep what the operator's accounts need. A table of its
 * own, so that a scan of it can say no copy is left anywhere.
 */
const { world, day } = erasureWorld('ota-usage-erasure-test');

const answers = [
  { QuestionID: 'q_name', Value: 'Lead walker: Ana' },
  { QuestionID: 'q_doc', Value: 'https://files.partner.example/waivers/ana.pdf' },
];

const readItem = async (reference: string, operatorId = world.operator.operatorId) =>
  (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: bookingKeys.booking(operatorId, reference), ConsistentRead: true }),
    )
  ).Item as (BookingItem & Record<string, unknown>) | undefined;

/** The references the item beside each booking finds by a customer's email (its SHA-256), read as the erasure reads them. */
async function bookingsFoundBy(email: string): Promise<string[]> {
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': bookingKeys.customerPrefix(world.operator.operatorId, emailHash(email)).PK },
      ConsistentRead: true,
    }),
  );
  return (Items ?? []).map((item) => item.BookingReference as string);
}

const erase = (body: unknown, key = world.operator.key) => world.request('POST', ERASURE, { key, body });

/** A marketplace hold with an Idempotency-Key, confirmed: its answer stored, and a delivery of its confirmation written. */
async function marketplaceBooking(customer: ReturnType<typeof uniqueCustomer>, date = day(1)) {
  const idempotencyKey = randomUUID();
  const body = {
    ActivityID: 's_walk1',
    Date: date,
    Time: '09:00',
    Participants: 2,
    Customer: customer,
    Answers: answers,
    PaymentReference: 'pay_8841',
    Hold: { ExpiresInMinutes: 30 },
  };
  const made = await world.request('POST', BOOKING, { key: world.operator.key, body, headers: { 'Idempotency-Key': idempotencyKey } });
  expect(made.status).toBe(201);
  const reference = made.json.data.BookingReference as string;
  expect((await world.request('POST', `${BOOKING}/${reference}/confirm`, { key: world.operator.key, body: {} })).status).toBe(200);
  return { reference, idempotencyKey, body };
}

/** An OCTo reservation with a contact, notes and a reseller reference, confirmed. */
async function octoBooking(customer: ReturnType<typeof uniqueCustomer>, emailAddress = customer.Email) {
  const uuid = randomUUID();
  const contact = {
    fullName: `${customer.FirstName} ${customer.LastName}`,
    emailAddress,
    phoneNumber: customer.Phone,
    postalCode: '1100-148',
  };
  const held = await world.octo('POST', '/bookings', {
    uuid,
    productId: 's_boat1',
    optionId: 'DEFAULT',
    availabilityId: availabilityId(day(2), '10:00'),
    unitItems: [{ unitId: 'adult' }, { unitId: 'child' }],
    contact,
    notes: `Allergic to nuts, ask for ${customer.FirstName}`,
    resellerReference: `RES-${uuid.slice(0, 8)}`,
  });
  expect(held.status).toBe(200);
  const confirmed = await world.octo('POST', `/bookings/${uuid}/confirm`, {
    contact: { firstName: customer.FirstName, lastName: customer.LastName },
  });
  expect(confirmed.status).toBe(200);
  return { uuid, reference: confirmed.json.supplierReference as string };
}

const personal = (customer: ReturnType<typeof uniqueCustomer>) => [customer.Email, customer.FirstName, customer.LastName, customer.Phone];

describe('erasure by booking reference', () => {
  test("blanks the booking and every copy of it, and keeps what the operator's accounts need", async () => {
    const customer = uniqueCustomer();
    const { reference, idempotencyKey, body } = await marketplaceBooking(customer);
    const before = (await world.request('GET', `${BOOKING}/${reference}`, { key: world.operator.key })).json.data;
    // Every copy holds the customer before: the booking (and its index entries), its stored answer, its delivery.
    const copies = await itemsMentioning(personal(customer));
    expect(new Set(copies.map((item) => item.Entity))).toEqual(new Set(['Booking', 'IdempotencyRecord', 'WebhookDelivery']));
    expect(new Set(copies.map((item) => item.index))).toEqual(new Set(['table', 'GSI1', 'GSI2', 'GSI3']));
    // And the item that finds it by the SHA-256 of the customer's email.
    expect(await bookingsFoundBy(customer.Email)).toEqual([reference]);

    const erased = await erase({ BookingReference: reference.toLowerCase() });
    expect(erased.status).toBe(200);
    const [record] = erased.json.data.Bookings;
    expect(erased.json.data).toEqual({ Bookings: [record], More: false });
    // What the operator's accounts need stays as it was: reference, product, date, party, price, payment, status and their instants.
    const { Customer: _customer, Answers: _answers, ...kept } = before;
    expect(record).toEqual({ ...kept, ErasedAt: expect.any(String) });
    expect(kept).toMatchObject({
      BookingReference: reference,
      Participants: 2,
      TotalPrice: { Amount: 4000, Currency: 'EUR' },
      Status: 'CONFIRMED',
    });

    // Nothing anywhere in the table or its indexes names the customer any more, nor finds the booking by the email.
    expect(await itemsMentioning(personal(customer))).toEqual([]);
    expect(await bookingsFoundBy(customer.Email)).toEqual([]);
    const item = await readItem(reference);
    expect(item).toMatchObject({ ErasedBy: 'operator', ErasedAt: record.ErasedAt, Status: 'CONFIRMED', PaymentReference: 'pay_8841' });
    expect(item?.GSI3PK).toBeUndefined();

    // The Idempotency-Key still answers its booking, as it now is stored: without the customer.
    const replayed = await world.request('POST', BOOKING, {
      key: world.operator.key,
      body,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.json.data).toMatchObject({ BookingReference: reference, ErasedAt: record.ErasedAt });
    expect(replayed.json.data.Customer).toBeUndefined();
    // The confirmation's delivery still goes out, with the same webhook-id, its booking without the customer.
    const [deliveryId] = item?.DeliveryIDs as string[];
    const { Item: delivery } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(world.operator.operatorId, deliveryId) }),
    );
    expect(delivery).toMatchObject({ Status: 'PENDING', EventType: 'booking.confirmed' });
    expect(JSON.parse(delivery?.Payload as string)).toMatchObject({
      type: 'booking.confirmed',
      data: { BookingReference: reference, Status: 'CONFIRMED' },
    });
  });

  test('is idempotent: erasing an erased booking answers it as it is and changes nothing', async () => {
    const { reference } = await marketplaceBooking(uniqueCustomer());
    const first = (await erase({ BookingReference: reference })).json.data.Bookings[0];
    const version = (await readItem(reference))?.Version;
    const again = await erase({ BookingReference: reference });
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual({ Bookings: [first], More: false });
    expect((await readItem(reference))?.Version).toBe(version);
  });

  test("leaves another operator's booking untouched: it is not found", async () => {
    const customer = uniqueCustomer();
    const { reference } = await marketplaceBooking(customer);
    const refused = await erase({ BookingReference: reference }, world.other.key);
    expectProblem(refused, 404, { detail: new RegExp(`No booking has reference '${reference}'`) });
    expect((await erase({ Email: customer.Email }, world.other.key)).json.data).toEqual({ Bookings: [], More: false });
    expect((await readItem(reference))?.Customer).toEqual(customer);
  });

  test('keeps an erased booking listed, on its manifest and cancellable, by the operator and by its partner', async () => {
    const customer = uniqueCustomer();
    const { reference } = await marketplaceBooking(customer, day(3));
    await erase({ BookingReference: reference });
    const manifest = (await world.request('GET', `/api/v2/bookings?date=${day(3)}`, { key: world.operator.key })).json.data;
    const listed = manifest.Timeslots.flatMap((slot: { Bookings: { BookingReference: string }[] }) => slot.Bookings);
    expect(listed.find((booking: { BookingReference: string }) => booking.BookingReference === reference)).toMatchObject({
      ErasedAt: expect.any(String),
    });
    const cancelled = await world.request('POST', `/api/v2/bookings/${reference}/cancel`, {
      key: world.operator.key,
      body: { Reason: 'Storm' },
    });
    expect(cancelled.json.data).toMatchObject({ BookingReference: reference, Status: 'CANCELLED', CancelledBy: 'operator' });
    expect(cancelled.json.data.Customer).toBeUndefined();
    // Its cancellation's delivery is made from the booking as it is: nothing personal in it either.
    expect(await itemsMentioning(personal(customer))).toEqual([]);
    const item = await readItem(reference);
    expect(item?.DeliveryIDs).toHaveLength(2);
  });
});

describe('erasure by email', () => {
  test("finds every booking of the customer, of both APIs, whatever the email's case, without a scan, and blanks them all", async () => {
    const customer = uniqueCustomer();
    const marketplace = await marketplaceBooking(customer);
    const octo = await octoBooking(customer, customer.Email.toUpperCase());
    const unrelated = await marketplaceBooking(uniqueCustomer());

    const erased = await erase({ Email: customer.Email.toUpperCase() });
    expect(erased.status).toBe(200);
    expect(erased.json.data.More).toBe(false);
    expect(erased.json.data.Bookings.map((booking: { BookingReference: string }) => booking.BookingReference).sort()).toEqual(
      [marketplace.reference, octo.reference].sort(),
    );
    expect(await itemsMentioning([...personal(customer), 'Allergic to nuts', '1100-148'])).toEqual([]);
    // OCTo: the reservation keeps its uuid, units, price and the reseller's reference; its contact and notes are gone.
    const read = (await world.octo('GET', `/bookings/${octo.uuid}`)).json;
    expect(read).toMatchObject({ uuid: octo.uuid, status: 'CONFIRMED', resellerReference: expect.stringMatching(/^RES-/), notes: null });
    expect(read.contact).toMatchObject({ fullName: null, emailAddress: null, phoneNumber: null, postalCode: null });
    expect(read.unitItems).toHaveLength(2);
    const listed = (await world.octo('GET', `/bookings?localDate=${day(2)}`)).json as {
      uuid: string;
      contact: { emailAddress: unknown };
    }[];
    expect(listed.find((booking) => booking.uuid === octo.uuid)?.contact.emailAddress).toBeNull();
    // Another customer's booking keeps its customer.
    expect((await readItem(unrelated.reference))?.Customer).toBeDefined();

    // Nothing is left to find by that email: the same request answers nothing more.
    expect((await erase({ Email: customer.Email })).json.data).toEqual({ Bookings: [], More: false });
    expect(await bookingsFoundBy(customer.Email)).toEqual([]);
  });

  test('erases at most a page of bookings a request, and says when more are left: the next request goes on', async () => {
    const customer = uniqueCustomer();
    const references = [];
    for (let index = 0; index < 3; index += 1) references.push((await marketplaceBooking(customer, day(4))).reference);
    const first = await world.request('POST', `${ERASURE}?limit=2`, { key: world.operator.key, body: { Email: customer.Email } });
    expect(first.status).toBe(200);
    expect(first.json.data).toMatchObject({ More: true });
    expect(first.json.data.Bookings).toHaveLength(2);
    const second = (await world.request('POST', `${ERASURE}?limit=2`, { key: world.operator.key, body: { Email: customer.Email } })).json
      .data;
    expect(second).toMatchObject({ More: false });
    expect(
      [...first.json.data.Bookings, ...second.Bookings].map((booking: { BookingReference: string }) => booking.BookingReference).sort(),
    ).toEqual(references.sort());
  });
});

describe('an erasure request', () => {
  test.each([
    [{}, 400, /Give exactly one of BookingReference and Email/],
    [{ BookingReference: 'K5DDMJMXFQ', Email: 'a@example.com' }, 400, /Give exactly one of BookingReference and Email/],
    [{ Email: 'not an email' }, 422, /Field 'Email' must be an email address/],
    [{ BookingReference: 'K5DD' }, 422, /Field 'BookingReference' must be the 10-character reference/],
    [{ Email: 'a@example.com', Name: 'Ana' }, 422, /Field 'Name' is not allowed/],
  ])('%j is refused with %i, naming what is wrong, and changes nothing', async (body, status, detail) => {
    expectProblem(await erase(body), status, { detail });
  });

  test('with hostile values in either field, or of the wrong shape, is refused with a problem, and erases nothing', async () => {
    const customer = uniqueCustomer();
    const { reference } = await marketplaceBooking(customer);
    const values: unknown[] = [
      ...HOSTILE_STRINGS,
      ...HOSTILE_JSON_VALUES,
      `${customer.Email}\u0000`,
      ` ${customer.Email}`,
      [customer.Email],
    ];
    const bodies = [
      ...values.flatMap((value) => [{ Email: value }, { BookingReference: value }]),
      ...PROTOTYPE_NAMES.map((name) => JSON.parse(`{"${name}": {"Email": "${customer.Email}"}}`)),
      [{ Email: customer.Email }],
      customer.Email,
      null,
    ];
    for (const body of bodies) {
      const answer = await erase(body);
      expect({ body, status: answer.status >= 400 && answer.status < 500 }).toEqual({ body, status: true });
      expectProblem(answer, answer.status);
    }
    const raw = await world.request('POST', ERASURE, {
      key: world.operator.key,
      rawBody: `{"Email":"${customer.Email}"`,
      headers: { 'Content-Type': 'application/json' },
    });
    expectProblem(raw, 400, { detail: /not valid JSON/ });
    expect((await readItem(reference))?.Customer).toEqual(customer);
  });

  test('needs bookings:write', async () => {
    const reader = await world.operator.keyWith(['bookings:read']);
    expect((await erase({ Email: 'a@example.com' }, reader)).status).toBe(403);
  });
});
