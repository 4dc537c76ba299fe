import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { createTestOperator } from '../support/fixtures';
import { availabilityId, octoWorld, reservation } from '../support/octo';
import { expectProblem } from '../support/problems';

/**
 * The operator changes its day through real HTTP (scope availability:write):
 * its view of an activity's day, capacity, closing and reopening one
 * timeslot or a whole date, and one-off timeslots; and what every channel
 * (the marketplace, OCTo, the operator's own sales, the manifest) makes of
 * a closed timeslot.
 */
const { world, day } = octoWorld();
const TIMESLOTS = '/api/v2/timeslots';
const BOOKING = '/api/v2/ota/marketplace/booking';
const customer = { FirstName: 'Rita', LastName: 'Costa', Email: 'rita@example.com' };

const call = (method: string, path: string, body?: unknown, key = world.operator.key) => world.request(method, path, { key, body });
const dayView = (activityId: string, date: string) => call('GET', `${TIMESLOTS}/${activityId}?date=${date}`);
const patch = (activityId: string, date: string, time: string, body: unknown) =>
  call('PATCH', `${TIMESLOTS}/${activityId}/${date}/${time}`, body);
const book = (date: string, time: string, participants: number, extra: object = {}) =>
  call('POST', BOOKING, { ActivityID: 's_walk1', Date: date, Time: time, Participants: participants, Customer: customer, ...extra });
const marketplaceTimes = async (activityId: string, date: string) =>
  (await call('GET', `/api/v2/ota/marketplace/availability/${activityId}/timeslots?Date=${date}`)).json.data.map(
    (slot: { Time: string }) => slot.Time,
  );
const keyId = async (key: string) => (await call('GET', '/api/v2/operator', undefined, key)).json.data.Key.KeyID as string;

describe("the operator's day", () => {
  it('shows every timeslot with its capacity, places booked and held, what is left and its status, hidden activities too', async () => {
    const date = day(1);
    expect((await book(date, '09:00', 3)).status).toBe(201);
    const hold = await book(date, '09:00', 2, { Hold: { ExpiresInMinutes: 30 } });
    expect(hold.status).toBe(201);
    const response = await dayView('s_walk1', date);
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual([
      {
        ActivityID: 's_walk1',
        Date: date,
        Time: '09:00',
        StartsAt: expect.stringMatching(new RegExp(`^${date}T09:00:00[+-]\\d\\d:\\d\\d$`)),
        Capacity: 20,
        Booked: 3,
        Held: 2,
        Vacancies: 15,
        Status: 'AVAILABLE',
        Closed: false,
      },
    ]);
    await call('POST', `${BOOKING}/${hold.json.data.BookingReference}/cancel`);
    expect((await dayView('s_hidden1', day(0))).json.data.map((slot: { Time: string }) => slot.Time)).toEqual(['10:00']);
    expect((await dayView('s_walk1', day(40))).json.data).toEqual([]);
  });

  it("is 404 for an unknown activity and for another operator's, 403 without availability:write, 422 without a date", async () => {
    expectProblem(await dayView('s_nothing1', day(1)), 404, { detail: /s_nothing1/ });
    const other = await createTestOperator();
    expectProblem(await call('GET', `${TIMESLOTS}/s_walk1?date=${day(1)}`, undefined, other.key), 404);
    expectProblem(await call('PATCH', `${TIMESLOTS}/s_walk1/${day(1)}/09:00`, { Closed: true }, other.key), 404, {
      detail: /has no timeslot/,
    });
    expect((await dayView('s_walk1', day(1))).json.data[0].Closed).toBe(false);
    const readOnly = await world.operator.keyWith(['bookings:read', 'bookings:write', 'ota']);
    expectProblem(await call('GET', `${TIMESLOTS}/s_walk1?date=${day(1)}`, undefined, readOnly), 403, { octo: true });
    expectProblem(await call('PATCH', `${TIMESLOTS}/s_walk1/${day(1)}/09:00`, { Closed: true }, readOnly), 403, { octo: true });
    expectProblem(await call('GET', `${TIMESLOTS}/s_walk1`), 422, { detail: /^Query parameter 'date' is required/ });
  });
});

describe('capacity', () => {
  it('is raised and lowered in one write, never below the places taken: that is 409 naming them, and nothing changes', async () => {
    const date = day(2);
    expect((await book(date, '09:00', 4)).status).toBe(201);
    expect((await book(date, '09:00', 2, { Hold: { ExpiresInMinutes: 30 } })).status).toBe(201);
    const raised = await patch('s_walk1', date, '09:00', { Capacity: 30 });
    expect(raised.status).toBe(200);
    expect(raised.json.data).toMatchObject({ Capacity: 30, Booked: 4, Held: 2, Vacancies: 24, Status: 'AVAILABLE', Closed: false });
    expect(raised.json.data).toMatchObject({ CapacityChangedBy: await keyId(world.operator.key), CapacityChangedAt: expect.any(String) });

    const refused = await patch('s_walk1', date, '09:00', { Capacity: 5 });
    expectProblem(refused, 409, {
      detail: new RegExp(
        `^Field 'Capacity' is 5, below the 6 place\\(s\\) already taken \\(held or booked\\) on ${date} 09:00; nothing was changed$`,
      ),
    });
    expect(refused.json).toMatchObject({ type: expect.stringMatching(/\/capacity-below-taken$/), taken: 6 });
    expect((await dayView('s_walk1', date)).json.data[0]).toMatchObject({ Capacity: 30, Vacancies: 24 });

    const lowered = await patch('s_walk1', date, '09:00', { Capacity: 6 });
    expect(lowered.json.data).toMatchObject({ Capacity: 6, Vacancies: 0, Status: 'SOLD_OUT' });
    expect(await marketplaceTimes('s_walk1', date)).toEqual([]);
    expectProblem(await book(date, '09:00', 1), 409, { detail: /has 0 place\(s\) left; 1 were requested/ });
  });

  it.each([
    ['{"Capacity":0}', /^Field 'Capacity' must be an integer from 1 to 10000/],
    ['{"Capacity":10001}', /^Field 'Capacity' must be an integer from 1 to 10000/],
    ['{"Capacity":2.5}', /^Field 'Capacity' must be an integer from 1 to 10000/],
    ['{"Capacity":"12"}', /^Field 'Capacity' must be an integer from 1 to 10000/],
    ['{"Capacity":1e400}', /^Field 'Capacity' must be an integer from 1 to 10000/],
    ['{"Closed":"yes"}', /^Field 'Closed' must be true \(close: nothing more is sold\) or false \(reopen\)/],
    ['{}', /^Field 'Closed' is required, or Capacity: the request body changes nothing/],
    ['[]', /^The request body must be a JSON object/],
    ['{"Reason":"Storm"}', /^Field 'Reason' is given only with Closed: true/],
    ['{"Closed":false,"Reason":"Storm"}', /^Field 'Reason' is given only with Closed: true/],
    ['{"Closed":true,"Reason":""}', /^Field 'Reason' must be 1 to 500 characters/],
    [JSON.stringify({ Closed: true, Reason: 'x'.repeat(501) }), /^Field 'Reason' must be 1 to 500 characters/],
    ['{"Capacity":5,"Extra":1}', /^Field 'Extra' is not allowed/],
    ['{"__proto__":{"Capacity":1},"Closed":true}', /^Field '__proto__' is not allowed/],
    ['{"constructor":{"Capacity":1},"Closed":true}', /^Field 'constructor' is not allowed/],
  ])('refuses %s with 422, changing nothing', async (rawBody, detail) => {
    const date = day(3);
    const response = await world.request('PATCH', `${TIMESLOTS}/s_walk1/${date}/09:00`, {
      key: world.operator.key,
      rawBody,
      headers: { 'Content-Type': 'application/json' },
    });
    expectProblem(response, 422, { detail });
    const [slot] = (await dayView('s_walk1', date)).json.data;
    expect(slot).toMatchObject({ Capacity: 20, Closed: false });
    expect(slot.CapacityChangedAt).toBeUndefined();
  });

  it('is 404 for a timeslot the activity does not have, and 400 for a malformed date or time', async () => {
    expectProblem(await patch('s_walk1', day(3), '11:00', { Capacity: 5 }), 404, {
      detail: /^Activity s_walk1 has no timeslot on .* at 11:00$/,
    });
    expectProblem(await patch('s_walk1', '2026-02-30', '09:00', { Capacity: 5 }), 400, { detail: /^Path parameter 'Date'/ });
    expectProblem(await patch('s_walk1', day(3), '9:00', { Capacity: 5 }), 400, { detail: /^Path parameter 'Time'/ });
    expectProblem(await patch('walk', day(3), '09:00', { Capacity: 5 }), 400, { detail: /^Path parameter 'ActivityID'/ });
  });
});

describe('closing and reopening', () => {
  it('closes a timeslot on every channel, keeps its bookings, shows who closed it and why, and reopens it', async () => {
    const date = day(4);
    const kept = await book(date, '09:00', 2);
    const closed = await patch('s_walk1', date, '09:00', { Closed: true, Reason: 'Guide ill' });
    expect(closed.status).toBe(200);
    const by = await keyId(world.operator.key);
    expect(closed.json.data).toMatchObject({
      Status: 'CLOSED',
      Closed: true,
      ClosedReason: 'Guide ill',
      ClosedBy: by,
      ClosedAt: expect.any(String),
      Booked: 2,
      Vacancies: 18,
    });

    // The marketplace leaves it out like a full one, dates and timeslots alike; a booking is its 409 of no capacity.
    expect(await marketplaceTimes('s_walk1', date)).toEqual([]);
    const dates = await call('GET', `/api/v2/ota/marketplace/availability/s_walk1/dates?StartDate=${date}&EndDate=${date}`);
    expect(dates.json.data).toEqual([]);
    expectProblem(await book(date, '09:00', 1), 409, { detail: new RegExp(`^The timeslot ${date} 09:00 is closed for sale$`) });
    expect((await call('GET', `${BOOKING}/${kept.json.data.BookingReference}`)).json.data.Status).toBe('CONFIRMED');

    // OCTo shows it CLOSED and refuses a reservation with its own error; the operator's own sale is refused too.
    const availability = await world.octo('POST', '/availability', {
      productId: 's_walk1',
      optionId: 'DEFAULT',
      localDateStart: date,
      localDateEnd: date,
      units: [{ id: 'adult', quantity: 1 }],
    });
    expect(availability.json).toEqual([expect.objectContaining({ status: 'CLOSED', available: false, vacancies: 0, capacity: 20 })]);
    const reserve = await world.octo('POST', '/bookings', {
      productId: 's_walk1',
      optionId: 'DEFAULT',
      availabilityId: availabilityId(date, '09:00'),
      unitItems: [{ unitId: 'adult' }],
    });
    expect(reserve.status).toBe(400);
    expect(reserve.json).toEqual({ error: 'UNPROCESSABLE_ENTITY', errorMessage: `The timeslot ${date} 09:00 is closed for sale` });
    await expect(
      recordOperatorBooking(world.operator.operatorId, {
        Channel: 'pos',
        ActivityID: 's_walk1',
        Date: date,
        Time: '09:00',
        Participants: 1,
        Customer: customer,
      }),
    ).rejects.toThrow(`The timeslot ${date} 09:00 is closed for sale`);

    // The manifest of the day carries the closing.
    const manifest = await call('GET', `/api/v2/bookings?date=${date}&activity=s_walk1`);
    expect(manifest.json.data.Timeslots).toEqual([
      expect.objectContaining({
        Time: '09:00',
        Status: 'CLOSED',
        Closed: true,
        ClosedReason: 'Guide ill',
        ClosedBy: by,
        ClosedAt: closed.json.data.ClosedAt,
      }),
    ]);

    const reopened = await patch('s_walk1', date, '09:00', { Closed: false });
    expect(reopened.json.data).toMatchObject({ Status: 'AVAILABLE', Closed: false, ReopenedBy: by, ReopenedAt: expect.any(String) });
    expect(reopened.json.data.ClosedReason).toBeUndefined();
    expect(await marketplaceTimes('s_walk1', date)).toEqual(['09:00']);
    expect((await book(date, '09:00', 1)).status).toBe(201);
  });

  it('refuses to move an OCTo booking onto a closed timeslot, and lets a booking on it shrink or leave', async () => {
    const [from, to] = [day(5), day(6)];
    const made = await world.octo('POST', '/bookings', reservation(from, '10:00', ['adult', 'adult']));
    expect(made.status).toBe(200);
    await patch('s_boat1', to, '10:00', { Closed: true });
    const moved = await world.octo('PATCH', `/bookings/${made.json.uuid}`, { availabilityId: availabilityId(to, '10:00') });
    expect(moved.json).toEqual({ error: 'UNPROCESSABLE_ENTITY', errorMessage: `The timeslot ${to} 10:00 is closed for sale` });
    await patch('s_boat1', from, '10:00', { Closed: true });
    const fewer = await world.octo('PATCH', `/bookings/${made.json.uuid}`, { unitItems: [{ unitId: 'adult' }] });
    expect(fewer.status).toBe(200);
    expect((await dayView('s_boat1', from)).json.data[0]).toMatchObject({ Held: 1, Vacancies: 19 });
    expect((await world.octo('POST', `/bookings/${made.json.uuid}/cancel`, {})).status).toBe(200);
  });

  it('closes and reopens every timeslot of a date, with a reason', async () => {
    const date = day(7);
    const closed = await call('PATCH', `${TIMESLOTS}/s_boat1/${date}`, { Closed: true, Reason: 'Storm' });
    expect(closed.status).toBe(200);
    expect(closed.json.data.map((slot: any) => [slot.Time, slot.Status, slot.ClosedReason])).toEqual([
      ['10:00', 'CLOSED', 'Storm'],
      ['15:00', 'CLOSED', 'Storm'],
    ]);
    expect(await marketplaceTimes('s_boat1', date)).toEqual([]);
    const reopened = await call('PATCH', `${TIMESLOTS}/s_boat1/${date}`, { Closed: false });
    expect(reopened.json.data.map((slot: any) => slot.Status)).toEqual(['AVAILABLE', 'AVAILABLE']);
    expect(await marketplaceTimes('s_boat1', date)).toEqual(['10:00', '15:00']);
    expectProblem(await call('PATCH', `${TIMESLOTS}/s_boat1/${day(60)}`, { Closed: true }), 404, { detail: /has no timeslot on/ });
    expectProblem(await call('PATCH', `${TIMESLOTS}/s_boat1/${date}`, { Capacity: 4 }), 422, {
      detail: /^Field 'Closed' is required \(and 1 more: Capacity; see errors\)$/,
    });
    expectProblem(await call('PATCH', `${TIMESLOTS}/s_boat1/${date}`, {}), 422, { detail: /^Field 'Closed' is required/ });
  });
});

describe('one-off timeslots', () => {
  it('adds them all or none: 201 with each, sold at once; one that exists is 409 and nothing is added', async () => {
    const date = day(8);
    const added = await call('POST', `${TIMESLOTS}/s_boat1`, {
      Timeslots: [
        { Date: date, Time: '19:00', Capacity: 8 },
        { Date: day(9), Time: '07:30', Capacity: 4 },
      ],
    });
    expect(added.status).toBe(201);
    expect(added.json.data).toEqual([
      expect.objectContaining({
        Time: '19:00',
        Capacity: 8,
        Booked: 0,
        Held: 0,
        Vacancies: 8,
        Status: 'AVAILABLE',
        AddedAt: expect.any(String),
      }),
      expect.objectContaining({ Date: day(9), Time: '07:30', Capacity: 4 }),
    ]);
    expect(await marketplaceTimes('s_boat1', date)).toEqual(['10:00', '15:00', '19:00']);
    const product = await world.octo('GET', '/products/s_boat1');
    expect(product.json.options[0].availabilityLocalStartTimes).toEqual(['07:30', '10:00', '15:00', '19:00']);

    const again = await call('POST', `${TIMESLOTS}/s_boat1`, {
      Timeslots: [
        { Date: date, Time: '21:00', Capacity: 8 },
        { Date: date, Time: '15:00', Capacity: 8 },
      ],
    });
    expectProblem(again, 409, {
      detail: new RegExp(
        `^Field 'Timeslots\\[1\\]' is ${date} 15:00, a timeslot activity s_boat1 already has, so nothing was added; change it with PATCH$`,
      ),
    });
    expect(again.json.type).toMatch(/\/timeslot-exists$/);
    expect(await marketplaceTimes('s_boat1', date)).toEqual(['10:00', '15:00', '19:00']);
  });

  it('takes opening hours for a day ticket, and refuses what does not fit the product or the clock', async () => {
    const date = day(20);
    const ticket = await call('POST', `${TIMESLOTS}/s_museum1`, {
      Timeslots: [{ Date: date, OpeningHours: [{ From: '09:00', To: '13:00' }], Capacity: 50 }],
    });
    expect(ticket.status).toBe(201);
    expect(ticket.json.data[0]).toMatchObject({ Time: '00:00', OpeningHours: [{ From: '09:00', To: '13:00' }], Capacity: 50 });
    const refusals: [string, unknown, RegExp][] = [
      ['s_museum1', { Timeslots: [{ Date: date, Time: '10:00', Capacity: 5 }] }, /^Field 'Timeslots\[0\]\.OpeningHours' is required/],
      ['s_boat1', { Timeslots: [{ Date: date, Capacity: 5 }] }, /^Field 'Timeslots\[0\]\.Time' is required/],
      [
        's_boat1',
        { Timeslots: [{ Date: '2027-03-28', Time: '01:30', Capacity: 5 }] },
        /^Field 'Timeslots\[0\]\.Time' is 01:30, a time that does not exist on 2027-03-28 in Europe\/Lisbon/,
      ],
      [
        's_boat1',
        {
          Timeslots: [
            { Date: date, Time: '19:00', Capacity: 5 },
            { Date: date, Time: '19:00', Capacity: 6 },
          ],
        },
        /^Field 'Timeslots\[1\]' is the timeslot .* 19:00 again \(as Timeslots\[0\]\)/,
      ],
      [
        's_boat1',
        { Timeslots: [{ Date: date, Time: '19:00', Capacity: 0 }] },
        /^Field 'Timeslots\[0\]\.Capacity' must be an integer from 1 to 10000/,
      ],
      ['s_boat1', { Timeslots: [] }, /^Field 'Timeslots' must be a list of 1 to 25 timeslots/],
      [
        's_boat1',
        { Timeslots: Array.from({ length: 26 }, (_, index) => ({ Date: day(21 + index), Time: '19:00', Capacity: 1 })) },
        /^Field 'Timeslots' must be a list of 1 to 25 timeslots/,
      ],
    ];
    for (const [activityId, body, detail] of refusals)
      expectProblem(await call('POST', `${TIMESLOTS}/${activityId}`, body), 422, { detail });
    expect(await marketplaceTimes('s_boat1', date)).toEqual([]);
    expectProblem(await call('POST', `${TIMESLOTS}/s_nothing1`, { Timeslots: [{ Date: date, Time: '19:00', Capacity: 5 }] }), 404);
  });
});
