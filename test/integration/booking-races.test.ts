// The partner booking route: the races its one transaction settles, and failures it cannot foresee.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { createPartnerBooking } from '../../shared/booking/partner-bookings';
import * as referenceModule from '../../shared/booking/reference';
import { importCatalog } from '../../shared/catalog/import-catalog';
import { documentClient, tableName } from '../../shared/db/client';
import { logsDuring } from '../support/logs';
import { expectProblem } from '../support/problems';
import { BOOKING, bookingBody, customer, partnerBookingWorld } from '../support/partner-bookings';
import { testCatalog } from '../support/catalog';

const { world, start, freshDate, book, booked, storedReferences } = partnerBookingWorld();

describe('races the transaction settles', () => {
  afterEach(() => jest.restoreAllMocks());

  const callerFor = (keyId: string) => ({ operatorId: world.operator.operatorId, keyId, scopes: ['ota'], timeZone: 'Europe/Lisbon' });

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
    interleave(() => importCatalog(world.operator.operatorId, catalog));
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
    expect((await world.request('GET', `${BOOKING}/${taken}`, { key: world.operator.key })).json.data).toEqual(first.json.data);
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

  it('answers 503 with Retry-After when the transaction keeps meeting conflicting transactions, and writes nothing', async () => {
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
    expectProblem(response, 503, { detail: /could not complete; it is safe to send it again after Retry-After$/ });
    expect(response.json.type).toMatch(/\/busy$/);
    expect(response.headers.get('retry-after')).toBe('1');
    jest.restoreAllMocks();
    expect(await booked(date)).toBe(0);
    // The request line says what the client is not told.
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'Request',
        route: 'create-booking',
        status: 503,
        error: expect.objectContaining({ name: 'ContentionError', message: 'The booking transaction did not settle in 8 attempts' }),
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
