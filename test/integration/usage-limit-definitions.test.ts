import type { LocalHost } from '../../lib/local/host';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { expectProblem } from '../support/problems';
import { LIMITS, limitsClient } from '../support/usage';

/**
 * Usage limits as an operator defines them, through the local host: create,
 * read, list, change (from the current period on), delete; every rule a bad
 * definition breaks named in a 422; the caps per meter and per operator,
 * under races too; another operator's limits do not exist.
 */
const clock = manualClock(new Date('2026-03-10T12:00:00Z'));
let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  configure({ ...config(), clock });
  host = await startTestHost({ clock });
  request = httpClient(host);
});

afterAll(() => host.close());

const monthly = { Meter: 'api-calls', Period: 'MONTH', Amount: 1000, Thresholds: [80, 50, 100], Enforcement: 'NONE' };

describe('one limit', () => {
  let operator: TestOperator;
  let limits: ReturnType<typeof limitsClient>;

  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'limits', timeZone: 'Europe/Lisbon' });
    limits = limitsClient(request, operator);
  });

  it("creates it in the operator's zone, reads and lists it, and changes it from the current period on", async () => {
    const created = await limits.put('monthly', monthly);
    expect(created.status).toBe(200);
    expect(created.json.data).toEqual({
      LimitID: 'monthly',
      Meter: 'api-calls',
      Period: 'MONTH',
      TimeZone: 'Europe/Lisbon',
      Amount: 1000,
      Thresholds: [50, 80, 100],
      Enforcement: 'NONE',
      AppliesFrom: Date.parse('2026-03-01T00:00:00Z') / 1000,
      CreatedAt: '2026-03-10T12:00:00.000Z',
      UpdatedAt: '2026-03-10T12:00:00.000Z',
    });
    expect((await limits.get('monthly')).json.data).toEqual(created.json.data);
    expect((await limits.list()).json.data).toEqual([created.json.data]);

    // The same definition again changes nothing.
    clock.advance(60_000);
    expect((await limits.put('monthly', { ...monthly, Thresholds: [50, 80, 100] })).json.data).toEqual(created.json.data);

    // In April (Lisbon is an hour ahead of UTC then), a new Amount applies from April on.
    clock.set(new Date('2026-04-02T08:00:00Z'));
    const changed = await limits.put('monthly', { ...monthly, Amount: 1500.25, Filter: {} });
    expect(changed.json.data).toMatchObject({
      Amount: 1500.25,
      AppliesFrom: Date.parse('2026-03-31T23:00:00Z') / 1000,
      CreatedAt: '2026-03-10T12:00:00.000Z',
      UpdatedAt: '2026-04-02T08:00:00.000Z',
    });
    expect(changed.json.data).not.toHaveProperty('Filter');
  });

  it('deletes it: 204, then 404 for it and its status', async () => {
    await limits.put('daily', { ...monthly, Period: 'DAY', TimeZone: 'America/New_York', Filter: { Plan: 'pro' } });
    expect((await limits.get('daily')).json.data).toMatchObject({ TimeZone: 'America/New_York', Filter: { Plan: 'pro' } });
    const removed = await limits.remove('daily');
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expectProblem(await limits.get('daily'), 404, { detail: /^Usage limit 'daily' does not exist$/, instance: `${LIMITS}/daily` });
    expectProblem(await limits.remove('daily'), 404);
    expectProblem(await request('GET', `${LIMITS}/daily/status`, { key: operator.key }), 404);
  });

  it("answers 404 for another operator's limit, whatever the route", async () => {
    await limits.put('mine', monthly);
    const other = limitsClient(request, await createTestOperator(undefined, { stem: 'limits-other' }));
    expectProblem(await other.get('mine'), 404);
    expectProblem(await request('GET', `${LIMITS}/mine/status`, { key: (await createTestOperator()).key }), 404);
    expectProblem(await other.remove('mine'), 404);
    expect((await other.list()).json.data).toEqual([]);
    expect((await limits.get('mine')).status).toBe(200);
  });

  it('takes the scopes: usage:write to change, usage:read to read', async () => {
    const reader = await operator.keyWith(['usage:read']);
    const writer = await operator.keyWith(['usage:write']);
    expectProblem(await request('PUT', `${LIMITS}/by-reader`, { key: reader, body: monthly }), 403, { octo: true });
    expectProblem(await request('DELETE', `${LIMITS}/mine`, { key: reader }), 403, { octo: true });
    expect((await request('GET', `${LIMITS}/mine`, { key: reader })).status).toBe(200);
    expect((await request('GET', `${LIMITS}/mine/status`, { key: reader })).status).toBe(200);
    expectProblem(await request('GET', LIMITS, { key: writer }), 403, { octo: true });
    expect((await request('PUT', `${LIMITS}/by-writer`, { key: writer, body: monthly })).status).toBe(200);
  });
});

describe('bad definitions', () => {
  let limits: ReturnType<typeof limitsClient>;
  let operator: TestOperator;

  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'limits-bad' });
    limits = limitsClient(request, operator);
  });

  const refused = async (body: unknown, field: string, detail: RegExp) => {
    const answer = await limits.put('bad', body);
    expectProblem(answer, 422, { detail: new RegExp(`^Field '${field.replace(/[[\]]/g, '\\$&')}' .*${detail.source}`) });
    return answer;
  };

  it.each([
    [{ ...monthly, Amount: 0 }, 'Amount', /must be a number greater than 0/],
    [{ ...monthly, Amount: 1.0000001 }, 'Amount', /with at most 6 decimal places/],
    [{ ...monthly, Amount: 1e16 }, 'Amount', /at most 1000000000000000/],
    [{ ...monthly, Amount: '10' }, 'Amount', /must be a number/],
    [{ ...monthly, Thresholds: [50, 50] }, 'Thresholds', /must be a list of at most 10 different percentages/],
    [{ ...monthly, Thresholds: [50, 33.333] }, 'Thresholds[1]', /must be a percentage of the Amount/],
    [{ ...monthly, Thresholds: [0] }, 'Thresholds[0]', /must be a percentage of the Amount greater than 0/],
    [{ ...monthly, Thresholds: [1000.5] }, 'Thresholds[0]', /at most 1000/],
    [{ ...monthly, Enforcement: 'REFUSE', Thresholds: [80, 120] }, 'Thresholds[1]', /must be at most 100 when Enforcement is REFUSE/],
    [{ ...monthly, Meter: 'order-completed', Enforcement: 'REFUSE' }, 'Enforcement', /must be 'NONE' for the built-in meter/],
    [{ ...monthly, Period: 'WEEK' }, 'Period', /must be 'DAY' or 'MONTH'/],
    [{ ...monthly, Enforcement: 'HARD' }, 'Enforcement', /must be 'NONE' or 'REFUSE'/],
    [{ ...monthly, TimeZone: 'Mars/Olympus_Mons' }, 'TimeZone', /must be an IANA time zone name/],
    [{ ...monthly, TimeZone: 'Asia/Kolkata' }, 'TimeZone', /is Asia\/Kolkata, which does not start its days on whole UTC hours/],
    [{ ...monthly, Filter: { 'Re-gion': 'eu' } }, 'Filter.Re-gion', /must be a dimension key/],
    [{ ...monthly, Filter: { Region: '' } }, 'Filter.Region', /must be a string of 1 to 100 characters/],
    [{ ...monthly, Meter: 'api#calls' }, 'Meter', /must be 1 to 128 characters/],
    [{ ...monthly, Extra: true }, 'Extra', /is not allowed/],
  ])('refuses %j naming %s', async (body, field, detail) => {
    await refused(body, field, detail);
    expectProblem(await limits.get('bad'), 404);
  });

  it('names every rule broken at once', async () => {
    const answer = await limits.put('bad', {
      ...monthly,
      Amount: 1.0000001,
      Thresholds: [150],
      Enforcement: 'REFUSE',
      TimeZone: 'Asia/Kathmandu',
    });
    expect(answer.status).toBe(422);
    expect(answer.json.errors.map((error: { field: string }) => error.field)).toEqual(['Amount', 'Thresholds[0]', 'TimeZone']);
  });

  it("refuses a limit without TimeZone when the operator's zone cannot be counted", async () => {
    const kolkata = limitsClient(request, await createTestOperator(undefined, { timeZone: 'Asia/Kolkata' }));
    const answer = await kolkata.put('daily', { ...monthly, Period: 'DAY' });
    expectProblem(answer, 422, { detail: /^Field 'TimeZone' is not given, and the operator's zone Asia\/Kolkata does not start its days/ });
    expect((await kolkata.put('daily', { ...monthly, Period: 'DAY', TimeZone: 'Asia/Dubai' })).status).toBe(200);
  });

  it('answers 400 for a LimitID that is not one', async () => {
    expectProblem(await limits.put('x'.repeat(65), monthly), 400, { detail: /^Path parameter 'LimitID' must be 1 to 64 letters/ });
    expectProblem(await limits.get('a.b'), 400);
  });
});

describe('caps', () => {
  it('takes 5 limits per meter, under a race of 12 as one by one, and refuses the next naming Meter', async () => {
    const limits = limitsClient(request, await createTestOperator(undefined, { stem: 'limits-meter' }));
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => limits.put(`race-${i}`, monthly)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    for (const answer of answers.filter((one) => one.status !== 200)) {
      expectProblem(answer, 422, { detail: /^Field 'Meter' names the meter 'api-calls', which has 5 limits, the most a meter may have/ });
    }
    expect((await limits.list()).json.data).toHaveLength(5);
    // Another meter is not full; moving a limit onto a full meter is refused.
    expect((await limits.put('other', { ...monthly, Meter: 'storage-gb' })).status).toBe(200);
    expect((await limits.put('other', monthly)).status).toBe(422);
    // A limit of the meter may change.
    const raced = (await limits.list()).json.data.find((limit: { Meter: string }) => limit.Meter === 'api-calls');
    expect((await limits.put(raced.LimitID, { ...monthly, Amount: 5 })).status).toBe(200);
  });

  it('takes 50 limits per operator and refuses the 51st, then takes one again after a delete', async () => {
    const limits = limitsClient(request, await createTestOperator(undefined, { stem: 'limits-operator' }));
    for (let i = 0; i < 10; i += 1) {
      const puts = await Promise.all(Array.from({ length: 5 }, (_, j) => limits.put(`l-${i}-${j}`, { ...monthly, Meter: `meter-${i}` })));
      expect(puts.map((put) => put.status)).toEqual([200, 200, 200, 200, 200]);
    }
    const over = await limits.put('one-more', { ...monthly, Meter: 'meter-x' });
    expectProblem(over, 422, { detail: /^This operator has 50 usage limits, the most it may have/ });
    expect((await limits.remove('l-3-3')).status).toBe(204);
    expect((await limits.put('one-more', { ...monthly, Meter: 'meter-x' })).status).toBe(200);
    expect((await limits.list()).json.data).toHaveLength(50);
  });
});
