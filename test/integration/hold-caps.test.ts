import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { createApiKey, MAX_KEY_LIMITS } from '../../shared/accounts/api-keys';
import { HOLD_LIFE_MINUTES } from '../../shared/booking/constants';
import { expireDueHolds } from '../../shared/booking/holds';
import { addDays } from '../../shared/core/calendar';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as holdKeys from '../../shared/db/hold-keys';
import * as keys from '../../shared/db/keys';
import { tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { availabilityId, octoCatalog, octoClient, releaseHolds, reservation } from '../support/octo';
import { expectProblem } from '../support/problems';

/**
 * No partner can squat capacity with holds: a hold lives at most
 * HOLD_LIFE_MINUTES from when it was made, however often it is extended, and
 * a key holds at most so many places at once, on one timeslot and in all,
 * counted exactly in the transactions that take and give back the places.
 * Through real HTTP, both APIs, with a clock the tests move.
 */
const BOOKING = '/api/v2/ota/marketplace/booking';
const start = tomorrow();
const day = (offset: number) => addDays(start, offset);
const clock = manualClock(new Date());
const CAPS = { perTimeslot: 5, total: 8 };
let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;

beforeAll(async () => {
  configure({ ...config(), clock });
  operator = await createTestOperator(octoCatalog({ start, days: 10, capacity: 40 }));
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

/** A key of the operator's with the hold caps given (the defaults when none), its ID and its secret. */
async function partnerKey(caps?: { perTimeslot: number; total: number }) {
  const { record, secret } = await createApiKey(operator.operatorId, ['ota', 'bookings:read'], 'holds', MAX_KEY_LIMITS, caps);
  return { keyId: record.KeyID, secret, octo: octoClient(request, secret) };
}

const marketplaceHold = (secret: string, date: string, time: string, participants: number) =>
  request('POST', BOOKING, {
    key: secret,
    body: { ActivityID: 's_boat1', Date: date, Time: time, Participants: participants, Hold: { ExpiresInMinutes: 30 } },
  });

/** The places a key's counters say it holds: on one timeslot, and in all. */
async function counted(keyId: string, date: string, time: string) {
  const read = async (key: { PK: string; SK: string }) =>
    ((await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item?.Places as number) ?? 0;
  const [timeslot, total] = await Promise.all([
    read(holdKeys.timeslot(operator.operatorId, keyId, 's_boat1', date, time)),
    read(holdKeys.total(operator.operatorId, keyId)),
  ]);
  return { timeslot, total };
}

const units = (count: number) => Array.from({ length: count }, () => 'adult');

describe("a hold's life", () => {
  test(`is at most ${HOLD_LIFE_MINUTES} minutes from when it was made: extending past it is refused, naming what is left`, async () => {
    const { octo } = await partnerKey();
    // Made on a whole second, so that OCTo's instants (whole seconds) are the domain's.
    clock.set(new Date(Math.floor(Date.now() / 1000) * 1000));
    const held = (await octo('POST', '/bookings', reservation(day(0), '10:00', ['adult'], { expirationMinutes: 60 }))).json;
    const made = Date.parse(held.utcCreatedAt);
    // OCTo's instants are whole seconds; the domain's messages say them to the millisecond.
    const iso = (ms: number) => new Date(ms).toISOString();
    const octoInstant = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
    const lifeEnds = octoInstant(made + HOLD_LIFE_MINUTES * 60_000);
    try {
      // Extended every 25 minutes by half an hour, as a squatter would: allowed while within its life.
      for (const minutes of [25, 50, 75, 100, 125, 150]) {
        clock.set(new Date(made + minutes * 60_000));
        const extended = await octo('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 30 });
        expect(extended.status).toBe(200);
        expect(extended.json.utcExpiresAt).toBe(octoInstant(made + (minutes + 30) * 60_000));
      }
      clock.set(new Date(made + 160 * 60_000));
      const refused = await octo('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 30 });
      expect(refused.status).toBe(400);
      expect(refused.json).toEqual({
        error: 'UNPROCESSABLE_ENTITY',
        errorMessage: `Field 'expirationMinutes' would hold booking '${held.supplierReference}' until ${iso(made + 190 * 60_000)}, past ${iso(made + HOLD_LIFE_MINUTES * 60_000)}: a hold lasts at most ${HOLD_LIFE_MINUTES} minutes from when it was made (${iso(made)}); ask for at most 20 minutes, or confirm it`,
      });
      // The same refusal for a change of its expiry by PATCH; what is left is still granted.
      expect((await octo('PATCH', `/bookings/${held.uuid}`, { expirationMinutes: 30 })).json.error).toBe('UNPROCESSABLE_ENTITY');
      expect((await octo('POST', `/bookings/${held.uuid}/extend`, { expirationMinutes: 20 })).json.utcExpiresAt).toBe(lifeEnds);
      clock.set(new Date(Date.parse(lifeEnds)));
      expect(await expireDueHolds(clock())).toBeGreaterThanOrEqual(1);
      expect((await octo('GET', `/bookings/${held.uuid}`)).json.status).toBe('EXPIRED');
    } finally {
      clock.set(new Date());
    }
  });
});

describe('the places a key holds at once', () => {
  test('are capped per timeslot and in all, in both APIs, with a clear refusal; confirming, cancelling and expiring give room back', async () => {
    const partner = await partnerKey(CAPS);
    const { octo, secret, keyId } = partner;
    expect((await marketplaceHold(secret, day(1), '10:00', 3)).status).toBe(201);
    const octoHold = (await octo('POST', '/bookings', reservation(day(1), '10:00', units(2)))).json;
    expect(await counted(keyId, day(1), '10:00')).toEqual({ timeslot: 5, total: 5 });

    // A sixth place on that timeslot: refused in the marketplace's words and in OCTo's, nothing written.
    const overTimeslot = await marketplaceHold(secret, day(1), '10:00', 1);
    expectProblem(overTimeslot, 409);
    expect(overTimeslot.json).toMatchObject({
      type: expect.stringMatching(/\/hold-cap-reached$/),
      detail: `API key ${keyId} already holds 5 place(s) on ${day(1)} 10:00 of s_boat1, and may hold at most 5 there at once (1 more asked for): confirm or cancel its holds first, or ask the operator for a higher cap`,
    });
    const octoRefusal = await octo('POST', '/bookings', reservation(day(1), '10:00', ['adult']));
    expect(octoRefusal.status).toBe(400);
    expect(octoRefusal.json.error).toBe('UNPROCESSABLE_ENTITY');
    expect(octoRefusal.json.errorMessage).toContain('may hold at most 5 there at once');
    // Booking without a hold takes no held places: not capped.
    expect(
      (
        await request('POST', BOOKING, {
          key: secret,
          body: {
            ActivityID: 's_boat1',
            Date: day(1),
            Time: '10:00',
            Participants: 2,
            Customer: { FirstName: 'Rui', LastName: 'Costa', Email: 'rui@example.com' },
          },
        })
      ).status,
    ).toBe(201);

    // Other timeslots, until the total: 8.
    expect((await marketplaceHold(secret, day(1), '15:00', 3)).status).toBe(201);
    const overTotal = await marketplaceHold(secret, day(2), '10:00', 1);
    expectProblem(overTotal, 409);
    expect(overTotal.json).toMatchObject({
      type: expect.stringMatching(/\/hold-cap-reached$/),
      detail: `API key ${keyId} already holds 8 place(s) in all, and may hold at most 8 at once (1 more asked for): confirm or cancel its holds first, or ask the operator for a higher cap`,
    });
    expect(await counted(keyId, day(2), '10:00')).toEqual({ timeslot: 0, total: 8 });

    // Another key of the same operator has caps of its own.
    const other = await partnerKey(CAPS);
    expect((await marketplaceHold(other.secret, day(1), '10:00', 4)).status).toBe(201);

    // Confirming the OCTo hold gives its 2 places back to the key's holds (they stay booked).
    await octo('POST', `/bookings/${octoHold.uuid}/confirm`, { contact: { fullName: 'Ana Silva', emailAddress: 'ana@example.com' } });
    expect(await counted(keyId, day(1), '10:00')).toEqual({ timeslot: 3, total: 6 });
    expect((await marketplaceHold(secret, day(1), '10:00', 2)).status).toBe(201);
    expect(await counted(keyId, day(1), '10:00')).toEqual({ timeslot: 5, total: 8 });

    expect(await counted(keyId, day(1), '15:00')).toEqual({ timeslot: 3, total: 8 });

    // The sweep expiring every hold gives every place back: the counters are exact.
    clock.set(new Date(Date.now() + 31 * 60_000));
    try {
      await expireDueHolds(clock());
    } finally {
      clock.set(new Date());
    }
    expect(await counted(keyId, day(1), '10:00')).toEqual({ timeslot: 0, total: 0 });
    expect(await counted(keyId, day(1), '15:00')).toEqual({ timeslot: 0, total: 0 });
  });

  test('follow a held booking moved to another timeslot, or given other units, in the same transaction, and refuse a move past a cap', async () => {
    const { octo, keyId } = await partnerKey(CAPS);
    const held = (await octo('POST', '/bookings', reservation(day(3), '10:00', units(3)))).json;
    await octo('POST', '/bookings', reservation(day(3), '15:00', units(4)));
    const moved = await octo('PATCH', `/bookings/${held.uuid}`, {
      availabilityId: availabilityId(day(3), '15:00'),
      unitItems: [{ unitId: 'adult' }],
    });
    expect(moved.status).toBe(200);
    expect(await counted(keyId, day(3), '10:00')).toEqual({ timeslot: 0, total: 5 });
    expect((await counted(keyId, day(3), '15:00')).timeslot).toBe(5);
    // Two more units on that timeslot would hold 6 there: refused, nothing moves.
    const refused = await octo('PATCH', `/bookings/${held.uuid}`, { unitItems: units(3).map((unitId) => ({ unitId })) });
    expect(refused.json).toMatchObject({ error: 'UNPROCESSABLE_ENTITY' });
    expect(refused.json.errorMessage).toContain('may hold at most 5 there at once');
    expect((await octo('GET', `/bookings/${held.uuid}`)).json.unitItems).toHaveLength(1);
    await octo('POST', `/bookings/${held.uuid}/cancel`, { reason: 'Plans changed' });
    expect(await counted(keyId, day(3), '15:00')).toEqual({ timeslot: 4, total: 4 });
    await releaseHolds(octo, day(3), day(3));
    expect(await counted(keyId, day(3), '15:00')).toEqual({ timeslot: 0, total: 0 });
  });

  test('are exact under a race: 30 one-place holds at once against a cap of 5 make exactly 5, and the counters say 5', async () => {
    const { octo, keyId, secret } = await partnerKey(CAPS);
    const attempts = await Promise.all(
      Array.from({ length: 30 }, (_, index) =>
        index % 2
          ? marketplaceHold(secret, day(4), '10:00', 1)
          : octo('POST', '/bookings', reservation(day(4), '10:00', ['adult'], { uuid: randomUUID() })),
      ),
    );
    const made = attempts.filter((answer) => answer.status === 200 || answer.status === 201);
    expect(made).toHaveLength(CAPS.perTimeslot);
    expect(attempts.filter((answer) => answer.status === 409 || answer.json?.error === 'UNPROCESSABLE_ENTITY')).toHaveLength(
      30 - CAPS.perTimeslot,
    );
    expect(await counted(keyId, day(4), '10:00')).toEqual({ timeslot: CAPS.perTimeslot, total: CAPS.perTimeslot });
    const { Item: timeslot } = await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.timeslot(operator.operatorId, 's_boat1', day(4), '10:00'), ConsistentRead: true }),
    );
    expect(timeslot?.Booked).toBe(CAPS.perTimeslot);
    // Released at once, from both sides: the counters go back to exactly nothing.
    await releaseHolds(octo, day(4), day(4));
    const marketplaceHolds = made.filter((answer) => answer.status === 201).map((answer) => answer.json.data.BookingReference as string);
    await Promise.all(marketplaceHolds.map((reference) => request('POST', `${BOOKING}/${reference}/cancel`, { key: secret })));
    expect(await counted(keyId, day(4), '10:00')).toEqual({ timeslot: 0, total: 0 });
  });

  test('are exact under a race on many timeslots: 24 holds at once over three timeslots against a cap of 8 in all make exactly 8', async () => {
    const { keyId, secret } = await partnerKey(CAPS);
    const times = ['10:00', '15:00'];
    const slots = [...times.map((time) => [day(5), time]), [day(6), '10:00']];
    const attempts = await Promise.all(
      Array.from({ length: 24 }, (_, index) => marketplaceHold(secret, slots[index % 3][0], slots[index % 3][1], 1)),
    );
    expect(attempts.filter((answer) => answer.status === 201)).toHaveLength(CAPS.total);
    expect(attempts.filter((answer) => answer.status === 409)).toHaveLength(24 - CAPS.total);
    const perSlot = await Promise.all(slots.map(([date, time]) => counted(keyId, date, time)));
    expect(perSlot.map((count) => count.total)).toEqual([CAPS.total, CAPS.total, CAPS.total]);
    expect(perSlot.reduce((sum, count) => sum + count.timeslot, 0)).toBe(CAPS.total);
    for (const count of perSlot) expect(count.timeslot).toBeLessThanOrEqual(CAPS.perTimeslot);
  });
});
