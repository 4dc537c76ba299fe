import type { LocalHost } from '../../lib/local/host';
import { recordOperatorBooking } from '../../shared/booking/operator-bookings';
import { encodeCursor } from '../../shared/booking/list';
import { ValidationError } from '../../shared/core/errors';
import { wallClock } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { expectProblem } from '../support/problems';

const LIST = '/api/v2/bookings';
const TIME_ZONE = 'Asia/Tokyo';

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
const start = tomorrow(TIME_ZONE);

const customer = { FirstName: 'Kenji', LastName: 'Sato', Email: 'kenji@example.com' };
const booking = (overrides: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: start,
  Time: '09:00',
  Participants: 1,
  Customer: customer,
  ...overrides,
});

/** Bookings the operator recorded, created at chosen instants: [channel, created at (UTC)]. */
const recorded: [string, string][] = [
  ['online', '2025-03-01T02:00:00.000Z'], // 11:00 on 1 March in Tokyo
  ['pos', '2025-03-01T16:30:00.000Z'], // 01:30 on 2 March in Tokyo
  ['online', '2025-03-02T03:00:00.000Z'],
  ['pos', '2025-03-02T05:00:00.000Z'],
  ['online', '2025-03-03T01:00:00.000Z'],
];
const references = new Map<string, string>();

beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ start, days: 3, capacity: 20 }), { timeZone: TIME_ZONE });
  host = await startTestHost();
  request = httpClient(host);
  for (const [channel, createdAt] of recorded) {
    const made = await recordOperatorBooking(
      operator.operatorId,
      booking({ Channel: channel, PaymentReference: `till-${createdAt}` }),
      new Date(createdAt),
    );
    references.set(createdAt, made.BookingReference);
  }
});

afterAll(() => host.close());

const list = (query: string, key = operator.key) => request('GET', `${LIST}?${query}`, { key });
const refsOf = (response: Awaited<ReturnType<HttpClient>>) =>
  response.json.data.Bookings.map((item: { BookingReference: string }) => item.BookingReference);
const ref = (createdAt: string) => references.get(createdAt) as string;

describe('GET /api/v2/bookings', () => {
  it('lists bookings created in the days from..to of the operator time zone, newest first', async () => {
    const second = await list('from=2025-03-02&to=2025-03-02');
    expect(second.status).toBe(200);
    expect(refsOf(second)).toEqual([ref('2025-03-02T05:00:00.000Z'), ref('2025-03-02T03:00:00.000Z'), ref('2025-03-01T16:30:00.000Z')]);
    expect(second.json.data.NextCursor).toBeNull();
    expect(refsOf(await list('from=2025-03-01&to=2025-03-01'))).toEqual([ref('2025-03-01T02:00:00.000Z')]);
    expect(refsOf(await list('from=2025-02-01&to=2025-02-28'))).toEqual([]);
  });

  it('shows OTA bookings next to online and point-of-sale bookings, with channel, partner and payment reference', async () => {
    const ota = await request('POST', '/api/v2/ota/marketplace/booking', {
      key: operator.key,
      body: booking({ Time: '14:00', PaymentReference: 'ota-pay-1' }),
    });
    expect(ota.status).toBe(201);
    const today = wallClock(TIME_ZONE).date;
    const all = await list(`from=2025-03-01&to=${today}`);
    expect(all.json.data.Bookings.map((item: { Channel: string }) => item.Channel)).toEqual([
      'ota',
      'online',
      'pos',
      'online',
      'pos',
      'online',
    ]);
    expect(all.json.data.Bookings[0]).toEqual(ota.json.data);
    expect(all.json.data.Bookings[0]).toMatchObject({ PartnerKeyID: expect.stringMatching(/^key_/), PaymentReference: 'ota-pay-1' });
    expect(all.json.data.Bookings[1]).toMatchObject({
      BookingReference: ref('2025-03-03T01:00:00.000Z'),
      Channel: 'online',
      PaymentReference: 'till-2025-03-03T01:00:00.000Z',
      CreatedAt: '2025-03-03T01:00:00.000Z',
      Status: 'CONFIRMED',
    });
    expect(all.json.data.Bookings[1]).not.toHaveProperty('PartnerKeyID');
    expect(refsOf(await list(`from=2025-03-01&to=${today}&channel=pos`))).toEqual([
      ref('2025-03-02T05:00:00.000Z'),
      ref('2025-03-01T16:30:00.000Z'),
    ]);
    expect(refsOf(await list(`from=2025-03-01&to=${today}&channel=ota`))).toEqual([ota.json.data.BookingReference]);
  });

  it('pages with an opaque cursor, with and without a channel filter, without gaps or repeats', async () => {
    const today = wallClock(TIME_ZONE).date;
    for (const [filter, limit] of ['', '&channel=online', '&channel=pos', '&channel=ota'].flatMap((f) =>
      [1, 2, 3, 4].map((l) => [f, l] as const),
    )) {
      const range = `from=2025-03-01&to=${today}${filter}`;
      const everything = refsOf(await list(range));
      const paged: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const response: Awaited<ReturnType<HttpClient>> = await list(`${range}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(response.json.data.Bookings.length).toBeLessThanOrEqual(limit);
        paged.push(...refsOf(response));
        cursor = response.json.data.NextCursor;
        pages += 1;
      } while (cursor);
      expect(paged).toEqual(everything);
      if (everything.length > limit) expect(pages).toBeGreaterThan(1);
    }
  });

  it('keeps its place when a filtered page fills up in the middle of a read', async () => {
    const other = await createTestOperator(testCatalog({ start, days: 3 }), { timeZone: TIME_ZONE });
    // Newest first: pos, online, online, online. With limit 2 the second read returns two online bookings for one free spot.
    const made: string[] = [];
    for (const [channel, createdAt] of [
      ['online', '2025-05-01T01:00:00.000Z'],
      ['online', '2025-05-01T02:00:00.000Z'],
      ['online', '2025-05-01T03:00:00.000Z'],
      ['pos', '2025-05-01T04:00:00.000Z'],
    ]) {
      made.push((await recordOperatorBooking(other.operatorId, booking({ Channel: channel }), new Date(createdAt))).BookingReference);
    }
    const first = await list('from=2025-05-01&to=2025-05-01&channel=online&limit=2', other.key);
    expect(refsOf(first)).toEqual([made[2], made[1]]);
    const second = await list(`from=2025-05-01&to=2025-05-01&channel=online&limit=2&cursor=${first.json.data.NextCursor}`, other.key);
    expect(refsOf(second)).toEqual([made[0]]);
    expect(second.json.data.NextCursor).toBeNull();
  });

  it('answers 422 for bad parameters and for a cursor it did not issue', async () => {
    expectProblem(await list('to=2025-03-02'), 422, { detail: /'from' is required/ });
    expectProblem(await list('from=2025-03-02'), 422, { detail: /'to' is required/ });
    expectProblem(await list('from=2025-03-02&to=2025-03-01'), 422, { detail: /'to' must not be before 'from'/ });
    expectProblem(await list('from=0999-01-01&to=1000-01-02'), 422, { detail: /'from' must be a real calendar date/ });
    expectProblem(await list('from=2025-03-01&to=2025-03-02&channel=phone'), 422, { detail: /'channel' must be one of ota, online, pos/ });
    for (const limit of ['0', '201', '9999', '10000', 'ten', '1.5'])
      expectProblem(await list(`from=2025-03-01&to=2025-03-02&limit=${limit}`), 422, { detail: /'limit'/ });
    const outside = encodeCursor(`2025-04-01T00:00:00.000Z#${ref('2025-03-02T03:00:00.000Z')}`, { from: '2025-03-01', to: '2025-03-02' });
    const garbage = Buffer.from('{"PK":"OP#someone-else"}').toString('base64url');
    for (const cursor of [outside, garbage, 'AAAA', 'not+base64']) {
      expectProblem(await list(`from=2025-03-01&to=2025-03-02&cursor=${encodeURIComponent(cursor)}`), 422, { detail: /'cursor'/ });
    }
  });

  it('answers 422 for a cursor issued for another range or channel, as for one it did not issue', async () => {
    // A cursor of the first page of 1..3 March, one booking a page: its position (3 March) lies in 2..3 March as well.
    const issued = (await list('from=2025-03-01&to=2025-03-03&limit=1')).json.data.NextCursor;
    expect((await list(`from=2025-03-01&to=2025-03-03&limit=1&cursor=${issued}`)).status).toBe(200);
    for (const other of [
      'from=2025-03-02&to=2025-03-03',
      'from=2025-03-01&to=2025-03-04',
      'from=2025-03-01&to=2025-03-03&channel=online',
    ]) {
      expectProblem(await list(`${other}&cursor=${issued}`), 422, { detail: /^Query parameter 'cursor' .*another range or channel/ });
    }
    const online = (await list('from=2025-03-01&to=2025-03-03&channel=online&limit=1')).json.data.NextCursor;
    for (const other of ['channel=pos&', '']) {
      expectProblem(await list(`from=2025-03-01&to=2025-03-03&${other}cursor=${online}`), 422, { detail: /another range or channel/ });
    }
  });

  it('shows an operator its own bookings only, whatever cursor it sends', async () => {
    const other = await createTestOperator(testCatalog({ start, days: 3 }), { timeZone: TIME_ZONE });
    const theirs = await list('from=2025-03-01&to=2025-03-03', other.key);
    expect(theirs.json.data).toEqual({ Bookings: [], NextCursor: null });
    const ourCursor = (await list('from=2025-03-01&to=2025-03-03&limit=1')).json.data.NextCursor;
    const withOurCursor = await list(`from=2025-03-01&to=2025-03-03&cursor=${ourCursor}`, other.key);
    expect(withOurCursor.json.data.Bookings).toEqual([]);
  });

  it('needs the bookings:read scope', async () => {
    expectProblem(await list('from=2025-03-01&to=2025-03-02', await operator.keyWith(['ota'])), 403, { octo: true });
    expect((await list('from=2025-03-01&to=2025-03-02', await operator.keyWith(['bookings:read']))).status).toBe(200);
  });
});

describe('bookings the operator records (online, pos)', () => {
  it('take places like partner bookings, and may book hidden activities', async () => {
    const hidden = await recordOperatorBooking(operator.operatorId, {
      Channel: 'pos',
      ActivityID: 's_hidden1',
      Date: start,
      Time: '10:00',
      Participants: 5,
      Customer: customer,
    });
    expect(hidden).toMatchObject({
      Channel: 'pos',
      Status: 'CONFIRMED',
      ActivityName: 'Staff Only Tour',
      TotalPrice: { Amount: 5000, Currency: 'EUR' },
    });
    await expect(
      recordOperatorBooking(operator.operatorId, {
        Channel: 'pos',
        ActivityID: 's_hidden1',
        Date: start,
        Time: '10:00',
        Participants: 1,
        Customer: customer,
      }),
    ).rejects.toThrow(/0 place\(s\) left/);
  });

  it('refuses the ota channel and bad input before writing anything', async () => {
    await expect(recordOperatorBooking(operator.operatorId, booking({ Channel: 'ota' }))).rejects.toThrow(ValidationError);
    await expect(recordOperatorBooking(operator.operatorId, booking({ Channel: 'online', Participants: 0 }))).rejects.toThrow(
      expect.objectContaining({ field: 'Participants' }),
    );
    await expect(recordOperatorBooking(operator.operatorId, booking({ Channel: 'online', Time: '12:00' }))).rejects.toThrow(
      /not a timeslot/,
    );
    await expect(recordOperatorBooking('no-such-operator', booking({ Channel: 'online' }))).rejects.toThrow(/does not exist/);
    const timeslots = await request('GET', `/api/v2/ota/marketplace/availability/s_walk1/timeslots?Date=${start}`, { key: operator.key });
    // 5 recorded bookings of one place each took 09:00 down to 15; the refused ones took nothing.
    expect(timeslots.json.data.find((slot: { Time: string }) => slot.Time === '09:00').Vacancies).toBe(15);
  });
});
