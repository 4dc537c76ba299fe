// Long because it is the partner booking route end to end (validation, capacity, idempotency, races, cancellation) over one shared catalogue.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { cancelPartnerBooking, createPartnerBooking } from '../../shared/booking/partner-bookings';
import * as referenceModule from '../../shared/booking/reference';
import { REFERENCE_ALPHABET } from '../../shared/booking/constants';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { hashIdempotencyKey } from '../../shared/core/idempotency';
import { documentClient, tableName } from '../../shared/db/client';
import { bookingKeys, keys } from '../../shared/db/keys';
import { addDays, wallClock } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';

const BOOKING = '/api/v2/ota/marketplace/booking';

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
const start = tomorrow();
/** Each test books its own date of the catalogue, so that tests do not share capacity. */
let nextDay = 0;
const freshDate = () => addDays(start, nextDay++);

beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ start, days: 40, capacity: 10 }));
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' };
const answers = [
  { QuestionID: 'q_name', Value: 'Ana Silva' },
  { QuestionID: 'q_doc', Value: 'https://files.partner.example/waivers/123.pdf' },
];

const bookingBody = (date: string, overrides: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: date,
  Time: '09:00',
  Participants: 2,
  Customer: customer,
  ...overrides,
});

const book = (body: unknown, options: { key?: string; headers?: Record<string, string> } = {}) =>
  request('POST', BOOKING, { key: options.key ?? operator.key, body, headers: options.headers });

async function vacancies(date: string, time = '09:00', key = operator.key): Promise<number> {
  const response = await request('GET', `/api/v2/ota/marketplace/availability/s_walk1/timeslots?Date=${date}`, { key });
  return response.json.data.find((slot: { Time: string }) => slot.Time === time)?.Vacancies ?? 0;
}

async function booked(date: string, time = '09:00'): Promise<number> {
  const { Item } = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, 's_walk1', date, time) }),
  );
  return Item?.Booked as number;
}

/** References of the operator's bookings created today or tomorrow (whatever the zone), read through the operator's list. */
async function storedReferences(): Promise<string[]> {
  const today = wallClock('Europe/Lisbon').date;
  const response = await request('GET', `/api/v2/bookings?from=${addDays(today, -1)}&to=${addDays(today, 1)}&limit=200`, {
    key: operator.key,
  });
  return response.json.data.Bookings.map((booking: { BookingReference: string }) => booking.BookingReference);
}

describe('POST booking', () => {
  it('creates a confirmed booking: 201, a Location to read it back, and the places taken', async () => {
    const date = freshDate();
    const response = await book(bookingBody(date, { PaymentReference: 'pay_778899', Answers: answers }));
    expect(response.status).toBe(201);
    const data = response.json.data;
    expect(data).toEqual({
      BookingReference: expect.stringMatching(new RegExp(`^[${REFERENCE_ALPHABET}]{10}$`)),
      Status: 'CONFIRMED',
      Channel: 'ota',
      PartnerKeyID: expect.stringMatching(/^key_/),
      PaymentReference: 'pay_778899',
      ActivityID: 's_walk1',
      ProductID: 501,
      ActivityName: 'Harbour Walking Tour',
      Date: date,
      Time: '09:00',
      StartsAt: expect.stringMatching(new RegExp(`^${date}T09:00:00\\+0[01]:00$`)),
      Participants: 2,
      TotalPrice: { Amount: 4000, Currency: 'EUR' },
      Customer: customer,
      WaiverStatus: 'COMPLETE',
      Answers: answers,
      CreatedAt: expect.any(String),
    });
    expect(response.headers.get('location')).toBe(`${BOOKING}/${data.BookingReference}`);
    const readBack = await request('GET', response.headers.get('location') as string, { key: operator.key });
    expect(readBack.status).toBe(200);
    expect(readBack.json.data).toEqual(data);
    expect(await vacancies(date)).toBe(8);
  });

  it('accepts a customer without Phone, and a booking without Answers as waiver pending', async () => {
    const withoutPhone = { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' };
    const response = await book(bookingBody(freshDate(), { Customer: withoutPhone }));
    expect(response.status).toBe(201);
    expect(response.json.data.Customer).toEqual(withoutPhone);
    expect(response.json.data.WaiverStatus).toBe('PENDING');
    expect(response.json.data).not.toHaveProperty('Answers');
  });

  it('answers 422 naming the field for every kind of bad body, and writes nothing', async () => {
    const date = freshDate();
    const before = await storedReferences();
    const noEmail = { FirstName: 'Ana', LastName: 'Silva' };
    const cases: [unknown, RegExp][] = [
      [{ ...bookingBody(date), ActivityID: undefined }, /'ActivityID' is required/],
      [{ ...bookingBody(date), Date: undefined }, /'Date' is required/],
      [{ ...bookingBody(date), Time: undefined }, /'Time' is required/],
      [{ ...bookingBody(date), Participants: undefined }, /'Participants' is required/],
      [{ ...bookingBody(date), Customer: undefined }, /'Customer' is required/],
      [bookingBody(date, { Customer: noEmail }), /'Customer.Email' is required/],
      [bookingBody(date, { ActivityID: 42 }), /'ActivityID'/],
      [bookingBody(date, { Date: '2026-02-30' }), /'Date'/],
      [bookingBody(date, { Date: 20270101 }), /'Date'/],
      [bookingBody(date, { Time: '9am' }), /'Time'/],
      [bookingBody(date, { Participants: 0 }), /'Participants'/],
      [bookingBody(date, { Participants: -1 }), /'Participants'/],
      [bookingBody(date, { Participants: 1.5 }), /'Participants'/],
      [bookingBody(date, { Participants: '2' }), /'Participants'/],
      [bookingBody(date, { Participants: 11 }), /'Participants' is 11; .* at most 10/],
      [bookingBody(date, { Customer: { ...customer, Email: 'ana-at-example.com' } }), /'Customer.Email'/],
      [bookingBody(date, { Customer: { ...customer, Phone: '912 345 678' } }), /'Customer.Phone' must be in E.164/],
      [bookingBody(date, { Customer: { ...customer, FirstName: '   ' } }), /'Customer.FirstName'/],
      [bookingBody(date, { Customer: { ...customer, Nickname: 'A' } }), /'Customer.Nickname' is not allowed/],
      [bookingBody(date, { Coupon: 'FREE' }), /'Coupon' is not allowed/],
      [bookingBody(date, { Time: '10:30' }), /'Time' 10:30 is not a timeslot/],
      [bookingBody(addDays(start, 300)), /'Time' 09:00 is not a timeslot .* on /],
      [bookingBody(addDays(start, -2)), /'Date' .* is in the past/],
      [bookingBody(date, { PaymentReference: '' }), /'PaymentReference'/],
      [[bookingBody(date)], /The request body must be a JSON object/],
      [null, /The request body must be a JSON object/],
      [bookingBody(date, { Customer: { ...customer, LastName: 'Silva\u0000' } }), /'Customer.LastName' .*without control characters/],
      [bookingBody('2026-02-30'), /'Date' must be a real calendar date/],
    ];
    for (const [body, detail] of cases) expectProblem(await book(body), 422, { detail });
    expect(await booked(date)).toBe(0);
    expect(await storedReferences()).toEqual(before);
  });

  it('answers 400 for a malformed ActivityID and 404 for an unknown or hidden one', async () => {
    const date = freshDate();
    for (const bad of ['walk1', 's_', 's_bad-id'])
      expectProblem(await book(bookingBody(date, { ActivityID: bad })), 400, { detail: /'ActivityID'/ });
    expectProblem(await book(bookingBody(date, { ActivityID: 's_nothere' })), 404);
    expectProblem(await book(bookingBody(start, { ActivityID: 's_hidden1', Time: '10:00' })), 404);
  });

  it('answers a body that is not JSON, or not sent as JSON, with a 4xx problem', async () => {
    expectProblem(
      await request('POST', BOOKING, { key: operator.key, rawBody: '{"ActivityID": ', headers: { 'Content-Type': 'application/json' } }),
      400,
      { detail: /not valid JSON/ },
    );
    expectProblem(
      await request('POST', BOOKING, {
        key: operator.key,
        rawBody: JSON.stringify(bookingBody(freshDate())),
        headers: { 'Content-Type': 'text/plain' },
      }),
      415,
    );
    expectProblem(await request('POST', BOOKING, { key: operator.key, rawBody: JSON.stringify(bookingBody(freshDate())) }), 415);
    expectProblem(await request('POST', BOOKING, { key: operator.key, headers: { 'Content-Type': 'application/json' } }), 422);
  });

  it('takes the media type in any case and with parameters, as HTTP defines it', async () => {
    for (const contentType of ['APPLICATION/JSON', 'application/json; charset=utf-8', 'Application/Json;Charset=UTF-8']) {
      const response = await request('POST', BOOKING, {
        key: operator.key,
        rawBody: JSON.stringify(bookingBody(freshDate())),
        headers: { 'Content-Type': contentType },
      });
      expect(response.status).toBe(201);
    }
  });

  it('refuses a timeslot that has already started today, in the operator time zone', async () => {
    const date = freshDate();
    const caller = { operatorId: operator.operatorId, keyId: 'key_direct', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
    const at = (time: string) => new Date(`${date}T${time}:00Z`); // Lisbon is UTC+0 or UTC+1: 09:00 local is 08:00Z or 09:00Z.
    await expect(createPartnerBooking(caller, bookingBody(date), undefined, at('09:30'))).rejects.toThrow(
      expect.objectContaining({ field: 'Time', message: expect.stringMatching(/^09:00 has already started/) }),
    );
    await expect(createPartnerBooking(caller, bookingBody(date, { Time: '14:00' }), undefined, at('09:30'))).resolves.toMatchObject({
      booking: { Status: 'CONFIRMED' },
    });
    expect(await booked(date)).toBe(0);
  });

  it('answers 409 when the timeslot lacks capacity, and takes nothing', async () => {
    const date = freshDate();
    expect((await book(bookingBody(date, { Participants: 7 }))).status).toBe(201);
    const before = await storedReferences();
    expectProblem(await book(bookingBody(date, { Participants: 4 })), 409, { detail: /3 place\(s\) left; 4 were requested/ });
    expect(await booked(date)).toBe(7);
    expect(await storedReferences()).toEqual(before);
    expect((await book(bookingBody(date, { Participants: 3 }))).status).toBe(201);
    expectProblem(await book(bookingBody(date, { Participants: 1 })), 409);
    expect(await vacancies(date)).toBe(0);
  });
});

describe('waiver answers', () => {
  it('requires every required question once Answers is sent, naming the missing ones', async () => {
    const date = freshDate();
    const response = await book(bookingBody(date, { Answers: [{ QuestionID: 'q_diet', Value: 'none' }] }));
    expectProblem(response, 422, { detail: /'Answers' lacks required question\(s\): q_name, q_doc/ });
    expect(response.json.missingQuestions).toEqual(['q_name', 'q_doc']);
    expectProblem(await book(bookingBody(date, { Answers: [] })), 422, { detail: /q_name, q_doc/ });
    expect(await booked(date)).toBe(0);
  });

  it('checks each answer against its question', async () => {
    const date = freshDate();
    const cases: [unknown[], RegExp][] = [
      [[...answers, { QuestionID: 'q_unknown', Value: 'x' }], /'Answers\[2\].QuestionID' 'q_unknown' is not a question/],
      [[...answers, { QuestionID: 'q_name', Value: 'again' }], /'Answers\[2\].QuestionID' 'q_name' is answered twice/],
      [[answers[0], { QuestionID: 'q_doc', Value: 'waiver.pdf' }], /'Answers\[1\].Value' .*FILE_UPLOAD.* https URL/],
      [[answers[0], { QuestionID: 'q_doc', Value: 'http://files.example/w.pdf' }], /https URL/],
      [[{ QuestionID: 'q_name', Value: '  ' }, answers[1]], /'Answers\[0\].Value' .*must not be blank/],
      [[{ QuestionID: 'q_name' }, answers[1]], /'Answers\[0\].Value' is required/],
      [[{ ...answers[0], Extra: 1 }, answers[1]], /'Answers\[0\].Extra' is not allowed/],
    ];
    for (const [list, detail] of cases) expectProblem(await book(bookingBody(date, { Answers: list })), 422, { detail });
    expect(await booked(date)).toBe(0);
  });
});

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
    const otherPartner = await operator.keyWith(['ota']);
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
        Key: bookingKeys.idempotencyRecord(operator.operatorId, response.json.data.PartnerKeyID, hashIdempotencyKey(key)),
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
    const cancelled = await request('POST', `${BOOKING}/${reference}/cancel`, { key: operator.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json.data).toEqual({
      ...created.json.data,
      Status: 'CANCELLED',
      CancelledAt: expect.any(String),
      CancelledBy: 'partner',
    });
    expect(await vacancies(date)).toBe(10);
    const again = await request('POST', `${BOOKING}/${reference}/cancel`, { key: operator.key });
    expect(again.json.data).toEqual(cancelled.json.data);
    expect(await booked(date)).toBe(0);
    const rebooked = await book(bookingBody(date, { Participants: 10 }));
    expect(rebooked.status).toBe(201);
    expect(await vacancies(date)).toBe(0);
    expect((await request('GET', `${BOOKING}/${reference}`, { key: operator.key })).json.data.Status).toBe('CANCELLED');
  });

  it('gives places back once when the same booking is cancelled simultaneously', async () => {
    const date = freshDate();
    await book(bookingBody(date, { Participants: 3 }));
    const reference = (await book(bookingBody(date, { Participants: 4 }))).json.data.BookingReference;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => request('POST', `${BOOKING}/${reference}/cancel`, { key: operator.key })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
    expect(await booked(date)).toBe(3);
  });

  it('reads a reference case-insensitively, 400 for a malformed one and 404 for an unknown one', async () => {
    const reference = (await book(bookingBody(freshDate()))).json.data.BookingReference as string;
    expect((await request('GET', `${BOOKING}/${reference.toLowerCase()}`, { key: operator.key })).json.data.BookingReference).toBe(
      reference,
    );
    expectProblem(await request('GET', `${BOOKING}/ABC`, { key: operator.key }), 400, { detail: /'BookingReference'/ });
    expectProblem(await request('GET', `${BOOKING}/O0O0O0O0O0`, { key: operator.key }), 400);
    expectProblem(await request('GET', `${BOOKING}/AAAAAAAAAA`, { key: operator.key }), 404);
    expectProblem(await request('POST', `${BOOKING}/AAAAAAAAAA/cancel`, { key: operator.key }), 404);
  });

  it("shows and cancels a partner's own bookings only: not another partner's, not another operator's", async () => {
    const date = freshDate();
    const reference = (await book(bookingBody(date, { Participants: 5 }))).json.data.BookingReference;
    const otherPartner = await operator.keyWith(['ota']);
    const otherOperator = await createTestOperator(testCatalog({ start, days: 40 }));
    for (const key of [otherPartner, otherOperator.key]) {
      expectProblem(await request('GET', `${BOOKING}/${reference}`, { key }), 404);
      expectProblem(await request('POST', `${BOOKING}/${reference}/cancel`, { key }), 404);
    }
    expect((await request('GET', `${BOOKING}/${reference}`, { key: operator.key })).json.data.Status).toBe('CONFIRMED');
    expect(await booked(date)).toBe(5);
    // The other operator's catalogue has the same ActivityID, but its own timeslots.
    expect(await vacancies(date, '09:00', otherOperator.key)).toBe(10);
  });

  it('refuses to cancel once the timeslot has started (409), and changes nothing', async () => {
    const date = freshDate();
    const made = await book(bookingBody(date));
    const caller = { operatorId: operator.operatorId, keyId: made.json.data.PartnerKeyID, scopes: ['ota'], timeZone: 'Europe/Lisbon' };
    await expect(cancelPartnerBooking(caller, made.json.data.BookingReference, new Date(`${date}T12:00:00Z`))).rejects.toThrow(
      /can no longer be cancelled: its timeslot started/,
    );
    expect(await booked(date)).toBe(2);
  });

  it('needs the ota scope', async () => {
    const usageOnly = await operator.keyWith(['usage:read']);
    expectProblem(await book(bookingBody(freshDate()), { key: usageOnly }), 403, { octo: true });
  });
});

describe('races the transaction settles', () => {
  afterEach(() => jest.restoreAllMocks());

  const callerFor = (keyId: string) => ({ operatorId: operator.operatorId, keyId, scopes: ['ota'], timeZone: 'Europe/Lisbon' });

  /** Runs `between` once, just before the first booking transaction is sent: as if it happened between the read and the write. */
  function interleave(between: () => Promise<unknown>) {
    const client = documentClient();
    const realSend = client.send.bind(client);
    let done = false;
    jest.spyOn(client, 'send').mockImplementation((async (command: { constructor: { name: string } }) => {
      if (!done && command.constructor.name === 'TransactWriteCommand') {
        done = true;
        await between();
      }
      return realSend(command as never);
    }) as never);
  }

  it('books against a capacity the catalogue changes while the request is in flight', async () => {
    const date = freshDate();
    const catalog = testCatalog({ start, days: 40, capacity: 10 });
    catalog.Products[0].Timeslots = [{ Date: date, Time: '09:00', Capacity: 3 }];
    interleave(() => importCatalog(operator.operatorId, catalog));
    await expect(createPartnerBooking(callerFor('key_a'), bookingBody(date, { Participants: 2 }))).resolves.toMatchObject({
      replayed: false,
    });
    expect(await booked(date)).toBe(2);
    await expect(createPartnerBooking(callerFor('key_a'), bookingBody(date, { Participants: 2 }))).rejects.toThrow(/1 place\(s\) left/);
  });

  it('never overwrites a booking whose reference is drawn again: the new booking gets another', async () => {
    const date = freshDate();
    const first = await book(bookingBody(date));
    const taken = first.json.data.BookingReference;
    jest.spyOn(referenceModule, 'newBookingReference').mockReturnValueOnce(taken);
    const second = await book(bookingBody(date, { Customer: { ...customer, FirstName: 'Beatriz' } }));
    expect(second.status).toBe(201);
    expect(second.json.data.BookingReference).not.toBe(taken);
    expect((await request('GET', `${BOOKING}/${taken}`, { key: operator.key })).json.data).toEqual(first.json.data);
    expect(await booked(date)).toBe(4);
  });

  it('answers as the first request did when one with the same key commits between the check and the write', async () => {
    const date = freshDate();
    const key = `between-${date}`;
    let winner: Awaited<ReturnType<typeof createPartnerBooking>> | undefined;
    interleave(async () => (winner = await createPartnerBooking(callerFor('key_b'), bookingBody(date), key)));
    const loser = await createPartnerBooking(callerFor('key_b'), bookingBody(date), key);
    expect(winner?.replayed).toBe(false);
    expect(loser).toEqual({ booking: winner?.booking, replayed: true });
    expect(await booked(date)).toBe(2);
  });

  it('answers 422 when a request with the same key and another body commits between the check and the write', async () => {
    const date = freshDate();
    const key = `between-other-${date}`;
    interleave(() => createPartnerBooking(callerFor('key_b'), bookingBody(date, { Participants: 3 }), key));
    await expect(createPartnerBooking(callerFor('key_b'), bookingBody(date), key)).rejects.toThrow(/already used for booking/);
    expect(await booked(date)).toBe(3);
  });

  it('retries a transaction that DynamoDB cancels for a conflicting transaction', async () => {
    const date = freshDate();
    const client = documentClient();
    const realSend = client.send.bind(client);
    let conflicts = 2;
    // DynamoDB Local serialises transactions, so AWS's TransactionConflict is simulated.
    jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand' && conflicts > 0) {
        conflicts -= 1;
        return Promise.reject(
          new TransactionCanceledException({
            message: 'Transaction cancelled',
            $metadata: {},
            CancellationReasons: [{ Code: 'TransactionConflict' }, { Code: 'None' }],
          }),
        );
      }
      return realSend(command as never);
    }) as never);
    const response = await book(bookingBody(date));
    expect(response.status).toBe(201);
    expect(conflicts).toBe(0);
    expect(await booked(date)).toBe(2);
  });
});

describe('unexpected failures', () => {
  afterEach(() => jest.restoreAllMocks());

  it('answers 500 when the transaction keeps meeting conflicting transactions, and writes nothing', async () => {
    const date = freshDate();
    const client = documentClient();
    const realSend = client.send.bind(client);
    jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) =>
      command.constructor.name === 'TransactWriteCommand'
        ? Promise.reject(
            new TransactionCanceledException({
              message: 'Transaction cancelled',
              $metadata: {},
              CancellationReasons: [{ Code: 'TransactionConflict' }],
            }),
          )
        : realSend(command as never)) as never);
    const { result: response, lines } = await logsDuring(() => book(bookingBody(date)), 'ERROR');
    expectProblem(response, 500, { detail: /safe to retry/ });
    jest.restoreAllMocks();
    expect(await booked(date)).toBe(0);
    // The request line says what the client is not told.
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'Request',
        route: 'create-booking',
        status: 500,
        error: expect.objectContaining({ message: 'The booking transaction did not settle in 8 attempts' }),
      }),
    ]);
  });

  it('answers 500 with a generic detail when DynamoDB is unreachable, and writes nothing', async () => {
    const date = freshDate();
    const client = documentClient();
    const realSend = client.send.bind(client);
    jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
      if (command.constructor.name === 'TransactWriteCommand') {
        return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }));
      }
      return realSend(command as never);
    }) as never);
    const { result: response, lines } = await logsDuring(
      () => book(bookingBody(date), { headers: { 'Idempotency-Key': `down-${date}` } }),
      'ERROR',
    );
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        status: 500,
        error: expect.objectContaining({ message: 'connect ECONNREFUSED 10.0.0.1:443' }),
      }),
    ]);
    expectProblem(response, 500);
    expect(response.json.detail).toBe('The server could not complete the request; it is safe to retry');
    expect(response.text).not.toMatch(/ECONNREFUSED|stack/);
    jest.restoreAllMocks();
    expect(await booked(date)).toBe(0);
  });

  it('leaves nothing half-written when DynamoDB cancels the transaction after the first items would have succeeded', async () => {
    const date = freshDate();
    const before = await storedReferences();
    const client = documentClient();
    const realSend = client.send.bind(client);
    // A last item that DynamoDB refuses: the timeslot update and the booking Put before it must not survive.
    jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string }; input: { TransactItems: unknown[] } }) => {
      if (command.constructor.name === 'TransactWriteCommand') {
        command.input.TransactItems.push({
          ConditionCheck: { TableName: tableName(), Key: { PK: 'NOTHING', SK: 'NOTHING' }, ConditionExpression: 'attribute_exists(PK)' },
        });
      }
      return realSend(command as never);
    }) as never);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const key = `half-${date}`;
    const response = await book(bookingBody(date), { headers: { 'Idempotency-Key': key } });
    jest.restoreAllMocks();
    expectProblem(response, 500);
    expect(await booked(date)).toBe(0);
    expect(await storedReferences()).toEqual(before);
    const retried = await book(bookingBody(date), { headers: { 'Idempotency-Key': key } });
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await booked(date)).toBe(2);
  });
});
