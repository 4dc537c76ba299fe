import type { LocalHost } from '../../lib/local/host';
import { manualClock } from '../../shared/core/clock';
import { config, configure } from '../../shared/core/config';
import type * as ConfigModule from '../../shared/core/config';
import type * as RecordUsageModule from '../../shared/usage/record-usage';
import { createTestOperator, httpClient, startTestHost, type HttpClient } from '../support/fixtures';
import { expectProblem } from '../support/problems';
import { at, limitsClient, METERS, usageClient } from '../support/usage';

/**
 * Hard limits (Enforcement REFUSE) through the local host on DynamoDB Local:
 * an entry that would take Used past the Amount is refused with a 409 of its
 * own type, naming the limit and what remains, and nothing of it is
 * written; a batch refuses only what does not fit and says which; entries
 * recorded before the limit count; under 50 concurrent writers the total
 * never passes the Amount by a millionth, and every entry that fits is taken.
 */
let host: LocalHost;
let request: HttpClient;
/** Noon on the 15th of this month, standing still: the month's limits and the summaries' days hold however long the file runs, past midnight or a month's end. */
const now = new Date();
const clock = manualClock(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 15, 12)));

beforeAll(async () => {
  configure({ ...config(), clock });
  host = await startTestHost({ clock });
  request = httpClient(host);
});

afterAll(() => host.close());

const today = clock().toISOString().slice(0, 10);
const month = today.slice(0, 7);

async function setUp(stem: string, limit: Record<string, unknown>) {
  const operator = await createTestOperator(undefined, { stem, timeZone: 'UTC' });
  const usage = usageClient(request, operator);
  const limits = limitsClient(request, operator);
  const put = await limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Thresholds: [], Enforcement: 'REFUSE', ...limit });
  expect(put.status).toBe(200);
  return { operator, usage, limits };
}

const monthTotal = async (usage: ReturnType<typeof usageClient>, meter = 'api-calls', extra = '') => {
  const summary = await usage.summary(`from=${month}-01&to=${today}&meter=${meter}${extra}`);
  return summary.Meters[0]?.TotalUsage ?? 0;
};

describe('single entries', () => {
  it('takes entries up to the Amount exactly and refuses the next with what remains, writing nothing of it', async () => {
    const { usage, limits } = await setUp('refuse-single', { Amount: 10 });
    expect((await usage.record({ Meter: 'api-calls', Usage: 4 })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 4 })).status).toBe(201);
    const refused = await usage.record({ Meter: 'api-calls', Usage: 3 }, { 'Idempotency-Key': 'over' });
    expectProblem(refused, 409, {
      detail:
        /^Usage 3 of meter 'api-calls' would take usage limit 'cap' past its Amount of 10 for the MONTH from \d{4}-\d{2}-01 \(UTC\): 2 remains; nothing was recorded$/,
      instance: METERS,
    });
    expect(refused.json).toMatchObject({ type: '/problems/usage-limit-reached', LimitID: 'cap', Remaining: 2, Amount: 10 });
    expect(refused.json.ResetsAt).toBeGreaterThan(refused.json.PeriodStart);
    expect(await monthTotal(usage)).toBe(8);

    // Exactly up to the Amount is taken; past it, by a millionth, is not.
    expect((await usage.record({ Meter: 'api-calls', Usage: 2 })).status).toBe(201);
    const millionth = await usage.record({ Meter: 'api-calls', Usage: 0.000001 });
    expectProblem(millionth, 409);
    expect(millionth.json.Remaining).toBe(0);
    expect(await limits.status('cap')).toMatchObject({ Used: 10, Remaining: 0, Allowed: false });

    // The refused key was not spent: with room again (a higher Amount), it records.
    expect(
      (await limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Thresholds: [], Enforcement: 'REFUSE', Amount: 13 })).status,
    ).toBe(200);
    const again = await usage.record({ Meter: 'api-calls', Usage: 3 }, { 'Idempotency-Key': 'over' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(await monthTotal(usage)).toBe(13);
  });

  it('counts the entries recorded before the limit existed, only those its filter matches, and other meters not at all', async () => {
    const operator = await createTestOperator(undefined, { stem: 'refuse-before', timeZone: 'UTC' });
    const usage = usageClient(request, operator);
    await usage.batch([
      { Meter: 'api-calls', Usage: 6, Dimensions: { Plan: 'pro' } },
      { Meter: 'api-calls', Usage: 100, Dimensions: { Plan: 'free' } },
      { Meter: 'api-calls', Usage: 100 },
      { Meter: 'storage-gb', Usage: 100, Dimensions: { Plan: 'pro' } },
    ]);
    const limits = limitsClient(request, operator);
    await limits.put('pro', {
      Meter: 'api-calls',
      Filter: { Plan: 'pro' },
      Period: 'MONTH',
      Amount: 10,
      Thresholds: [],
      Enforcement: 'REFUSE',
    });
    expect(await limits.status('pro')).toMatchObject({ Used: 6, Remaining: 4 });

    const over = await usage.record({ Meter: 'api-calls', Usage: 5, Dimensions: { Plan: 'pro', Region: 'eu' } });
    expectProblem(over, 409);
    expect(over.json).toMatchObject({ LimitID: 'pro', Remaining: 4 });
    expect((await usage.record({ Meter: 'api-calls', Usage: 500, Dimensions: { Plan: 'free' } })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 500 })).status).toBe(201);
    expect((await usage.record({ Meter: 'storage-gb', Usage: 500, Dimensions: { Plan: 'pro' } })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 4, Dimensions: { Plan: 'pro' } })).status).toBe(201);
    expect(await monthTotal(usage, 'api-calls', '&filter[Plan]=pro')).toBe(10);
  });

  it('frees room when an entry is voided, and counts a void of an entry recorded before the limit', async () => {
    const operator = await createTestOperator(undefined, { stem: 'refuse-void', timeZone: 'UTC' });
    const usage = usageClient(request, operator);
    const before = (await usage.record({ Meter: 'api-calls', Usage: 3 })).json.data.ID;
    const limits = limitsClient(request, operator);
    await limits.put('cap', { Meter: 'api-calls', Period: 'MONTH', Amount: 5, Thresholds: [], Enforcement: 'REFUSE' });
    const after = (await usage.record({ Meter: 'api-calls', Usage: 2 })).json.data.ID;
    expectProblem(await usage.record({ Meter: 'api-calls', Usage: 1 }), 409);
    expect((await usage.voidEntry(before)).status).toBe(200);
    expect((await usage.voidEntry(after)).status).toBe(200);
    expect((await usage.voidEntry(after)).status).toBe(200);
    expect(await limits.status('cap')).toMatchObject({ Used: 0, Remaining: 5 });
    expect((await usage.record({ Meter: 'api-calls', Usage: 5 })).status).toBe(201);
    expectProblem(await usage.record({ Meter: 'api-calls', Usage: 0.5 }), 409);
  });

  it('leaves entries of periods before the limit was put outside it', async () => {
    const { usage } = await setUp('refuse-earlier', { Amount: 1 });
    expect((await usage.record({ Meter: 'api-calls', Usage: 50, OccurredAt: at('2020-01-15') })).status).toBe(201);
    expect((await usage.record({ Meter: 'api-calls', Usage: 1 })).status).toBe(201);
    expectProblem(await usage.record({ Meter: 'api-calls', Usage: 1 }), 409);
  });
});

describe('a process that knew the meter before its limit changed', () => {
  it('is held to the limit as it now is: the guard its transaction checks has moved, so it reads the limits again', async () => {
    const operator = await createTestOperator(undefined, { stem: 'refuse-stale', timeZone: 'UTC' });
    // Another process: its own copy of the domain code, whose memory of the meter's limits is its own.
    let other!: typeof RecordUsageModule;
    jest.isolateModules(() => {
      jest.requireActual<typeof ConfigModule>('../../shared/core/config').configure({ ...config(), clock });
      other = jest.requireActual<typeof RecordUsageModule>('../../shared/usage/record-usage');
    });
    const record = async (Usage: number) => {
      try {
        await other.recordUsage(operator.operatorId, { Meter: 'api-calls', Usage });
        return 'recorded';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(await record(1)).toBe('recorded');
    const limits = limitsClient(request, operator);
    const limit = { Meter: 'api-calls', Period: 'MONTH', Thresholds: [], Enforcement: 'REFUSE' };
    await limits.put('cap', { ...limit, Amount: 3 });
    expect([await record(1), await record(1), await record(1)]).toEqual([
      'recorded',
      'recorded',
      expect.stringMatching(/would take usage limit 'cap' past its Amount of 3 .*: 0 remains; nothing was recorded$/),
    ]);
    await limits.put('cap', { ...limit, Amount: 5 });
    expect([await record(2), await record(0.5)]).toEqual(['recorded', expect.stringMatching(/Amount of 5 .*: 0 remains/)]);
    await limits.remove('cap');
    expect(await record(10)).toBe('recorded');
    expect(await monthTotal(usageClient(request, operator))).toBe(15);
  });
});

describe('batches', () => {
  it('refuses only the entries that do not fit, in the order sent, and lists every outcome', async () => {
    const { usage, limits } = await setUp('refuse-batch', { Amount: 10 });
    const answer = await usage.batch([
      { Meter: 'api-calls', Usage: 4, Identifier: 'a' },
      { Meter: 'api-calls', Usage: 5, Identifier: 'b' },
      { Meter: 'api-calls', Usage: 3, Identifier: 'c' },
      { Meter: 'storage-gb', Usage: 30 },
      { Meter: 'api-calls', Usage: 1, Identifier: 'd' },
      { Meter: 'api-calls', Usage: 0.5, Identifier: 'e' },
    ]);
    expectProblem(answer, 409, {
      detail:
        /^Field 'Entries\[2\]' would take usage limit 'cap' past its Amount of 10 for the MONTH from .* \(UTC\): 1 remains; nothing of it was recorded \(and 1 more refused: Entries\[5\]; see errors\); the other 4 entries were recorded or replayed \(see Entries\)$/,
    });
    expect(answer.json.errors.map((error: { field: string }) => error.field)).toEqual(['Entries[2]', 'Entries[5]']);
    expect(answer.json.errors[1].detail).toMatch(/: 0 remains; nothing of it was recorded$/);
    const outcomes = answer.json.Entries;
    expect(
      outcomes.map((entry: { Identifier?: string; Refused?: unknown; Replayed?: boolean }) => [
        entry.Identifier,
        entry.Refused ? 'refused' : entry.Replayed,
      ]),
    ).toEqual([
      ['a', false],
      ['b', false],
      ['c', 'refused'],
      [undefined, false],
      ['d', false],
      ['e', 'refused'],
    ]);
    expect(outcomes[2]).toEqual({
      Meter: 'api-calls',
      Usage: 3,
      OccurredAt: expect.any(Number),
      Identifier: 'c',
      Refused: expect.objectContaining({ LimitID: 'cap', Remaining: 1 }),
    });
    expect(outcomes[0]).toEqual({
      ID: expect.any(Number),
      Meter: 'api-calls',
      Usage: 4,
      OccurredAt: expect.any(Number),
      Identifier: 'a',
      Replayed: false,
    });
    expect(await limits.status('cap')).toMatchObject({ Used: 10, Remaining: 0 });
    expect(await monthTotal(usage, 'storage-gb')).toBe(30);

    // Sent again: the recorded ones replay, the refused ones are refused again.
    const again = await usage.batch([
      { Meter: 'api-calls', Usage: 4, Identifier: 'a' },
      { Meter: 'api-calls', Usage: 3, Identifier: 'c' },
    ]);
    expectProblem(again, 409);
    expect(again.json.Entries.map((entry: { Replayed?: boolean; Refused?: unknown }) => entry.Replayed ?? 'refused')).toEqual([
      true,
      'refused',
    ]);
    expect(await monthTotal(usage)).toBe(10);
  });
});

describe('under concurrent writers', () => {
  it('never passes the Amount, by one millionth, with 50 writers through HTTP, and takes every entry up to it', async () => {
    // 50.000001: every 0.5 fits until 50, then only a millionth is left, which no entry of 0.5 can take.
    const { usage, limits } = await setUp('refuse-race', { Amount: 50.000001 });
    const writer = async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await usage.record({ Meter: 'api-calls', Usage: 0.5 })).status);
      return statuses;
    };
    const statuses = (await Promise.all(Array.from({ length: 50 }, writer))).flat();
    expect(statuses.filter((status) => status === 201)).toHaveLength(100);
    expect(statuses.filter((status) => status === 409)).toHaveLength(50);
    expect(await monthTotal(usage)).toBe(50);
    expect(await limits.status('cap')).toMatchObject({ Used: 50, Remaining: 0.000001, Allowed: true });
  });

  it('holds with batches and single entries of odd decimals racing: the total is the accepted entries and never past the Amount', async () => {
    const amount = 123.456789;
    const { usage, limits } = await setUp('refuse-race-mixed', { Amount: amount });
    const sizes = [0.123457, 1.000001, 2.5, 0.999999, 3.141593];
    let accepted = 0n;
    const micros = (value: number) => BigInt(Math.round(value * 1e6));
    const single = async (i: number) => {
      const Usage = sizes[i % sizes.length];
      const answer = await usage.record({ Meter: 'api-calls', Usage });
      if (answer.status === 201) accepted += micros(Usage);
      else expect(answer.status).toBe(409);
    };
    const batch = async (i: number) => {
      const entries = Array.from({ length: 10 }, (_, j) => ({ Meter: 'api-calls', Usage: sizes[(i + j) % sizes.length] }));
      const answer = await usage.batch(entries);
      const outcomes = answer.status === 201 ? answer.json.data.Entries : answer.json.Entries;
      for (const outcome of outcomes) if (!outcome.Refused) accepted += micros(outcome.Usage);
    };
    await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 5 === 0 ? batch(i) : single(i))));
    const total = micros(await monthTotal(usage));
    expect(total).toBe(accepted);
    expect(total <= micros(amount)).toBe(true);
    const status = await limits.status('cap');
    expect(micros(status.Used)).toBe(total);
  });
});
