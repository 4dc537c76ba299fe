import type { LocalHost } from '../../lib/local/host';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { limitsClient, usageClient } from '../support/usage';

/**
 * A limit's status, the entitlement check: what a summary of the same meter,
 * filter and period answers, to the millionth, entries recorded before the
 * limit included; its period is the day or month of its zone (the
 * operator's unless it names one), edges and DST days included, and a
 * REFUSE limit's gates are those periods too.
 */
const clock = manualClock(new Date('2026-03-15T12:00:00Z'));
let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  configure({ ...config(), clock });
  host = await startTestHost({ clock });
  request = httpClient(host);
});

afterAll(() => host.close());

const unix = (iso: string) => Date.parse(iso) / 1000;
const micros = (value: number) => Math.round(value * 1e6);

async function subject(stem: string, timeZone: string) {
  const operator: TestOperator = await createTestOperator(undefined, { stem, timeZone });
  return { operator, usage: usageClient(request, operator), limits: limitsClient(request, operator) };
}

describe('equal to a summary', () => {
  it('answers what a summary of the same meter, filter and period answers, to the millionth, entries before the limit included', async () => {
    clock.set(new Date('2026-03-15T12:00:00Z'));
    const { usage, limits } = await subject('status-summary', 'America/New_York');
    const amounts = [0.000001, 0.1, 0.2, 1.999999, 12.345678, 0.3];
    const regions = ['eu', 'us', undefined];
    // Entries of March in New York, its edges on both sides, with and without dimensions, before any limit exists.
    const times = ['2026-03-01T04:59:59Z', '2026-03-01T05:00:00Z', '2026-03-10T12:00:00Z', '2026-04-01T03:59:59Z', '2026-04-01T04:00:00Z'];
    const entries = times.flatMap((time, i) =>
      amounts.map((Usage, j) => {
        const Region = regions[(i + j) % regions.length];
        return { Meter: 'api-calls', Usage, OccurredAt: unix(time), ...(Region ? { Dimensions: { Region, Plan: 'pro' } } : {}) };
      }),
    );
    expect((await usage.batch(entries)).status).toBe(201);
    await limits.put('all', { Meter: 'api-calls', Period: 'MONTH', Amount: 1000, Thresholds: [50], Enforcement: 'NONE' });
    await limits.put('eu', {
      Meter: 'api-calls',
      Filter: { Region: 'eu' },
      Period: 'MONTH',
      Amount: 50,
      Thresholds: [],
      Enforcement: 'REFUSE',
    });
    const march = 'from=2026-03-01&to=2026-03-31&tz=America/New_York&meter=api-calls';
    const whole = await usage.summary(march);
    const filtered = await usage.summary(`${march}&filter[Region]=eu`);
    const all = await limits.status('all');
    const eu = await limits.status('eu');
    expect(micros(all.Used)).toBe(micros(whole.Meters[0].TotalUsage));
    expect(micros(eu.Used)).toBe(micros(filtered.Meters[0].TotalUsage));
    // Three of the five times fall in March in New York: 3 × (0.000001 + 0.1 + 0.2 + 1.999999 + 12.345678 + 0.3).
    expect(all.Used).toBe(44.837034);
    expect(all).toEqual({
      LimitID: 'all',
      Meter: 'api-calls',
      Used: 44.837034,
      Remaining: 955.162966,
      Amount: 1000,
      PeriodStart: unix('2026-03-01T05:00:00Z'),
      ResetsAt: unix('2026-04-01T04:00:00Z'),
      Allowed: true,
      Thresholds: [{ Percent: 50, Crossed: false }],
    });

    // Written through the limits since: still the summary's answer.
    await usage.record({ Meter: 'api-calls', Usage: 0.123457, Dimensions: { Region: 'eu' }, OccurredAt: unix('2026-03-31T12:00:00Z') });
    await usage.record({ Meter: 'api-calls', Usage: 7.654321, OccurredAt: unix('2026-03-02T12:00:00Z') });
    expect(micros((await limits.status('all')).Used)).toBe(micros((await usage.summary(march)).Meters[0].TotalUsage));
    expect(micros((await limits.status('eu')).Used)).toBe(micros((await usage.summary(`${march}&filter[Region]=eu`)).Meters[0].TotalUsage));
  });

  it('answers Used 0 and the whole Amount for a period without entries, and Remaining 0, not below, once Used is past a lowered Amount', async () => {
    clock.set(new Date('2026-03-15T12:00:00Z'));
    const { usage, limits } = await subject('status-empty', 'UTC');
    const limit = { Meter: 'api-calls', Period: 'DAY', Amount: 5, Thresholds: [100], Enforcement: 'NONE' };
    await limits.put('daily', limit);
    expect(await limits.status('daily')).toMatchObject({
      Used: 0,
      Remaining: 5,
      Allowed: true,
      Thresholds: [{ Percent: 100, Crossed: false }],
    });
    await usage.record({ Meter: 'api-calls', Usage: 4 });
    await limits.put('daily', { ...limit, Amount: 3 });
    expect(await limits.status('daily')).toMatchObject({
      Used: 4,
      Remaining: 0,
      Amount: 3,
      Allowed: false,
      Thresholds: [{ Percent: 100, Crossed: true }],
    });
  });
});

describe("periods in the limit's zone", () => {
  it("turns at the month's last second in the operator's zone (New York), for the status and for a REFUSE limit's gates", async () => {
    clock.set(new Date('2026-03-20T12:00:00Z'));
    const { usage, limits } = await subject('status-month-edge', 'America/New_York');
    await limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Amount: 10, Thresholds: [], Enforcement: 'REFUSE' });
    // 2026-03-31 23:59:59 in New York (EDT) is 2026-04-01T03:59:59Z: still March.
    const lastSecond = unix('2026-04-01T03:59:59Z');
    expect((await usage.record({ Meter: 'api-calls', Usage: 10, OccurredAt: lastSecond })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 1, OccurredAt: lastSecond })).status).toBe(409);
    expect((await usage.record({ Meter: 'api-calls', Usage: 10, OccurredAt: lastSecond + 1 })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 1, OccurredAt: lastSecond + 1 })).status).toBe(409);

    clock.set(new Date(lastSecond * 1000));
    expect(await limits.status('cap')).toMatchObject({
      Used: 10,
      PeriodStart: unix('2026-03-01T05:00:00Z'),
      ResetsAt: lastSecond + 1,
      Allowed: false,
    });
    clock.set(new Date((lastSecond + 1) * 1000));
    expect(await limits.status('cap')).toMatchObject({
      Used: 10,
      PeriodStart: lastSecond + 1,
      ResetsAt: unix('2026-05-01T04:00:00Z'),
      Allowed: false,
    });
  });

  it('counts a DST day of the named zone as its 23 or 25 hours (Europe/Lisbon, a limit named in another zone than the operator’s)', async () => {
    clock.set(new Date('2026-03-29T12:00:00Z'));
    const { usage, limits } = await subject('status-dst', 'Asia/Tokyo');
    await limits.put('daily', {
      Meter: 'api-calls',
      Period: 'DAY',
      TimeZone: 'Europe/Lisbon',
      Amount: 100,
      Thresholds: [],
      Enforcement: 'REFUSE',
    });
    expect((await limits.get('daily')).json.data.TimeZone).toBe('Europe/Lisbon');
    // 29 March 2026 in Lisbon: from 00:00 WET (00:00Z) to 00:00 WEST on the 30th (23:00Z), 23 hours.
    await usage.batch([
      { Meter: 'api-calls', Usage: 1, OccurredAt: unix('2026-03-28T23:59:59Z') },
      { Meter: 'api-calls', Usage: 2, OccurredAt: unix('2026-03-29T00:00:00Z') },
      { Meter: 'api-calls', Usage: 4, OccurredAt: unix('2026-03-29T22:59:59Z') },
      { Meter: 'api-calls', Usage: 8, OccurredAt: unix('2026-03-29T23:00:00Z') },
    ]);
    expect(await limits.status('daily')).toMatchObject({
      Used: 6,
      PeriodStart: unix('2026-03-29T00:00:00Z'),
      ResetsAt: unix('2026-03-29T23:00:00Z'),
    });
    const summary = await usage.summary('from=2026-03-29&to=2026-03-29&tz=Europe/Lisbon&meter=api-calls');
    expect(summary.Meters[0].TotalUsage).toBe(6);

    // 25 October 2026: from 00:00 WEST (24 Oct 23:00Z) to 00:00 WET on the 26th (26 Oct 00:00Z), 25 hours.
    clock.set(new Date('2026-10-25T12:00:00Z'));
    await usage.batch([
      { Meter: 'api-calls', Usage: 1, OccurredAt: unix('2026-10-24T22:59:59Z') },
      { Meter: 'api-calls', Usage: 2, OccurredAt: unix('2026-10-24T23:00:00Z') },
      { Meter: 'api-calls', Usage: 4, OccurredAt: unix('2026-10-25T23:59:59Z') },
      { Meter: 'api-calls', Usage: 8, OccurredAt: unix('2026-10-26T00:00:00Z') },
    ]);
    expect(await limits.status('daily')).toMatchObject({
      Used: 6,
      PeriodStart: unix('2026-10-24T23:00:00Z'),
      ResetsAt: unix('2026-10-26T00:00:00Z'),
    });
    // The day's gate is its 25 hours: 94 more fit, 95 do not.
    expect((await usage.record({ Meter: 'api-calls', Usage: 95, OccurredAt: unix('2026-10-25T01:30:00Z') })).status).toBe(409);
    expect((await usage.record({ Meter: 'api-calls', Usage: 94, OccurredAt: unix('2026-10-25T01:30:00Z') })).status).toBe(201);
  });
});
