import type { LocalHost } from '../../lib/local/host';
import { shardOf } from '../../shared/usage/ids';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { recordUsage } from '../../shared/usage/record-usage';
import { getEntry } from '../../shared/usage/repository';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator } from '../support/fixtures';
import { at, expectSummaryInvariants, usageClient, voidPath } from '../support/usage';

let host: LocalHost;
let request: HttpClient;

beforeAll(async () => {
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

describe('POST /api/v2/usage/meters/{ID}/void', () => {
  let operator: TestOperator;
  let usage: ReturnType<typeof usageClient>;
  beforeAll(async () => {
    operator = await createTestOperator(undefined, { stem: 'usage-void' });
    usage = usageClient(request, operator);
  });

  it('takes the entry out of every total at once, keeps it marked, and answers a second void unchanged', async () => {
    const day = '2026-06-10';
    const { json } = await usage.batch([
      { Meter: 'calls', Usage: 0.1, OccurredAt: at(day, '09:15:00') },
      { Meter: 'calls', Usage: 0.2, OccurredAt: at(day, '10:15:00') },
      { Meter: 'storage', Usage: 5, OccurredAt: at(day, '11:00:00') },
    ]);
    const [first, second] = json.data.Entries;
    const before = Math.floor(Date.now() / 1000);
    const voided = await usage.voidEntry(second.ID);
    expect(voided.status).toBe(200);
    expect(voided.json.data).toEqual({
      ID: second.ID,
      Meter: 'calls',
      Usage: 0.2,
      OccurredAt: at(day, '10:15:00'),
      VoidedAt: expect.any(Number),
    });
    expect(voided.json.data.VoidedAt).toBeGreaterThanOrEqual(before);

    for (const query of [
      `from=${day}&to=${day}`,
      `from=${day}&to=${day}&granularity=hour`,
      `from=2026-06-01&to=2026-07-31&granularity=month`,
      `from=2025-07-01&to=2026-06-30`,
    ]) {
      const summary = await usage.summary(query);
      expect(summary.Meters.map((meter: any) => [meter.Meter, meter.TotalUsage, meter.EventCount])).toEqual([
        ['storage', 5, 1],
        ['calls', 0.1, 1],
      ]);
      expectSummaryInvariants(summary);
    }
    const hourly = (await usage.summary(`from=${day}&to=${day}&granularity=hour`)).Meters.find((meter: any) => meter.Meter === 'calls');
    expect(hourly.Hours.filter((hour: any) => hour.Events).map((hour: any) => [hour.Start, hour.Usage])).toEqual([
      [`${day}T09:00:00+00:00`, 0.1],
    ]);

    const again = await usage.voidEntry(second.ID);
    expect(again.status).toBe(200);
    expect(again.json.data).toEqual(voided.json.data);
    expect((await usage.summary(`from=${day}&to=${day}`)).Totals).toEqual({ Usage: 5.1, Events: 2 });
    expect(first.ID).not.toBe(second.ID);
  });

  it('voids once when the same entry is voided many times at the same moment', async () => {
    const day = '2026-06-11';
    const { json } = await usage.batch([
      { Meter: 'race', Usage: 1.25, OccurredAt: at(day) },
      { Meter: 'race', Usage: 2.5, OccurredAt: at(day) },
    ]);
    const responses = await Promise.all(Array.from({ length: 10 }, () => usage.voidEntry(json.data.Entries[0].ID)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(new Set(responses.map((response) => response.json.data.VoidedAt)).size).toBe(1);
    expect((await usage.summary(`from=${day}&to=${day}`)).Meters).toEqual([{ Meter: 'race', TotalUsage: 2.5, EventCount: 1 }]);
  });

  it('keeps every invariant through recording, voiding and recording again', async () => {
    const day = '2026-06-12';
    const usages = [0.1, 0.2, 0.3, 0.000001, 7, 123456.789012, 0.7];
    const meters = ['alpha', 'beta', 'gamma'];
    const recorded = (
      await usage.batch(
        usages.flatMap((amount, i) =>
          meters.map((meter, j) => ({
            Meter: meter,
            Usage: amount,
            OccurredAt: at(day, `${String((i * 3 + j) % 24).padStart(2, '0')}:05:00`),
          })),
        ),
      )
    ).json.data.Entries;
    // Void every beta entry and the gamma entries of 0.1 and 7; record beta's 0.3 again.
    const toVoid = recorded.filter((entry: any) => entry.Meter === 'beta' || (entry.Meter === 'gamma' && [0.1, 7].includes(entry.Usage)));
    for (const entry of toVoid) expect((await usage.voidEntry(entry.ID)).status).toBe(200);
    const again = await usage.record({ Meter: 'beta', Usage: 0.3, OccurredAt: at(day, '23:00:00') });
    expect(again.status).toBe(201);

    const summary = await usage.summary(`from=${day}&to=${day}&granularity=day`);
    expect(summary.Meters.map((meter: any) => [meter.Meter, meter.TotalUsage, meter.EventCount])).toEqual([
      ['alpha', 123465.089013, 7],
      ['gamma', 123457.989013, 5],
      ['beta', 0.3, 1],
    ]);
    expect(summary.Totals).toEqual({ Usage: 246923.378026, Events: 13 });
    expectSummaryInvariants(summary);
    const betaHours = (await usage.summary(`from=${day}&to=${day}&granularity=hour`)).Meters.find(
      (meter: any) => meter.Meter === 'beta',
    ).Hours;
    expect(betaHours.filter((hour: any) => hour.Events).map((hour: any) => hour.Start)).toEqual([`${day}T23:00:00+00:00`]);
    // Voiding beta's new entry too leaves beta with nothing: it disappears from the summary.
    expect((await usage.voidEntry(again.json.data.ID)).status).toBe(200);
    const without = await usage.summary(`from=${day}&to=${day}&granularity=month`);
    expect(without.Meters.map((meter: any) => meter.Meter)).toEqual(['alpha', 'gamma']);
    expect(without.Totals).toEqual({ Usage: 246923.078026, Events: 12 });
    expectSummaryInvariants(without);
  });

  it('refuses to void an entry of a built-in meter (403 built-in-entry), and changes nothing', async () => {
    const day = '2026-06-13';
    const { entry } = await recordUsage(
      operator.operatorId,
      { Meter: 'order-completed', Usage: 1, OccurredAt: at(day) },
      { builtIn: true, idempotencyKey: 'evt-void-1' },
    );
    const before = await usage.summary(`from=${day}&to=${day}&granularity=hour`);
    expect(before.Meters).toMatchObject([{ Meter: 'order-completed', TotalUsage: 1, EventCount: 1 }]);
    // Twice, and at once: no attempt takes it out.
    const refusals = await Promise.all([usage.voidEntry(entry.ID), usage.voidEntry(entry.ID), usage.voidEntry(entry.ID)]);
    for (const refused of refusals) {
      expect(refused.status).toBe(403);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.json).toMatchObject({
        type: '/problems/built-in-entry',
        title: 'Forbidden',
        status: 403,
        instance: voidPath(entry.ID),
        detail: `Usage entry ${entry.ID} is of the built-in meter 'order-completed', recorded from a platform event: only the admin CLI voids it (void-usage-entry); nothing was changed`,
      });
    }
    expect(await usage.summary(`from=${day}&to=${day}&granularity=hour`)).toEqual(before);
    const stored = await getEntry(operator.operatorId, shardOf(entry.ID, AGGREGATE_SHARDS), entry.ID);
    expect(stored?.VoidedAt).toBeUndefined();
  });

  it('answers 404 for an unknown entry or another operator’s, 400 for a malformed ID, 403 without usage:write', async () => {
    const stranger = await createTestOperator(undefined, { stem: 'usage-void-other' });
    const theirs = (await usageClient(request, stranger).batch([{ Meter: 'theirs', Usage: 1, OccurredAt: at('2026-06-14') }])).json.data
      .Entries[0];
    for (const id of [theirs.ID, 1, 9_007_199_254_740_991, '9007199254740993', '9999999999999999']) {
      const response = await usage.voidEntry(id);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.json.detail).toBe(`Usage entry ${id} does not exist`);
    }
    expect((await usageClient(request, stranger).summary('from=2026-06-14&to=2026-06-14')).Totals.Events).toBe(1);
    for (const id of ['abc', '-1', '1.5', '12345678901234567']) {
      const response = await usage.voidEntry(id);
      expect(response.status).toBe(400);
      expect(response.json.detail).toMatch(/Path parameter 'ID' must be the integer ID of a usage entry/);
    }
    const readOnly = await operator.keyWith(['usage:read']);
    expect((await request('POST', voidPath(theirs.ID), { key: readOnly })).status).toBe(403);
  });
});
