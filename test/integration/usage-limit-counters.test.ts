import { GetItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { passes } from '../../lib/local/table-stream';
import { usageLimitWatcher } from '../../shared/api/background';
import { unixSeconds } from '../../shared/core/clock';
import { attributeClient, documentClient, tableName } from '../../shared/db/client';
import * as limitKeys from '../../shared/db/limit-keys';
import { limitWrites } from '../../shared/usage/gates';
import { guardsOf } from '../../shared/usage/guards';
import { newUsageIds, shardOf } from '../../shared/usage/ids';
import { evaluateLimitPeriod } from '../../shared/usage/limit-alerts';
import { makeCounters } from '../../shared/usage/limit-counters';
import { counterName, isCounterName } from '../../shared/usage/limit-model';
import { periodOfKey } from '../../shared/usage/limit-periods';
import { getLimitItem } from '../../shared/usage/limit-repository';
import { readLimitStatus } from '../../shared/usage/limit-status';
import { deleteUsageLimit, putUsageLimit } from '../../shared/usage/limits';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { ALL_SHARDS, usedInPeriod } from '../../shared/usage/period-usage';
import { recordUsage } from '../../shared/usage/record-usage';
import { writeTransaction } from '../../shared/usage/repository';
import { recordEntriesTransaction } from '../../shared/usage/usage-writes';
import { createTestOperator } from '../support/fixtures';

/**
 * The counters of alert-only (NONE) limits, in their meter's guard of each
 * shard, on DynamoDB Local: made from the aggregates (entries recorded
 * before the limit counted), kept to each limit's newest periods as periods
 * roll over, following a limit changed or deleted mid-period, never made
 * over with a stale reading after they were removed, and handed to the
 * watcher only by the writes that count.
 */
const METER = 'api-calls';
const at = (iso: string) => new Date(iso);
const day = (n: number) => at(`2026-05-${String(n).padStart(2, '0')}T12:00:00Z`);
const dayKey = (n: number) => `2026-05-${String(n).padStart(2, '0')}`;
const micros = (value: string | number) => BigInt(Math.round(Number(value) * 1e6));

async function subject(stem: string) {
  const { operatorId } = await createTestOperator(undefined, { stem, timeZone: 'UTC' });
  const caller = { operatorId, timeZone: 'UTC' };
  const put = (limitId: string, now: Date, extra: Record<string, unknown> = {}) =>
    putUsageLimit(caller, limitId, { Meter: METER, Period: 'MONTH', Amount: 1000, Thresholds: [50], Enforcement: 'NONE', ...extra }, now);
  const record = async (Usage: number, now: Date, extra: Record<string, unknown> = {}) =>
    (await recordUsage(operatorId, { Meter: METER, Usage, ...extra }, {}, now)).entry;
  const gateKey = async (limitId: string) => (await getLimitItem(operatorId, limitId))!.GateKey;
  return { operatorId, put, record, gateKey };
}

/** A meter's guard in one shard as stored (the wire format a stream record's image has). */
async function guardImage(operatorId: string, shard: number): Promise<Record<string, AttributeValue>> {
  const { PK, SK } = limitKeys.guard(operatorId, shard, METER);
  const { Item } = await attributeClient().send(
    new GetItemCommand({ TableName: tableName(), Key: { PK: { S: PK }, SK: { S: SK } }, ConsistentRead: true }),
  );
  return Item ?? {};
}

/** The counters of a guard, by name, as exact decimals (millionths). */
async function countersIn(operatorId: string, shard: number): Promise<Record<string, bigint>> {
  const image = await guardImage(operatorId, shard);
  return Object.fromEntries(
    Object.entries(image)
      .filter(([name]) => isCounterName(name))
      .map(([name, value]) => [name, micros(value.N!)]),
  );
}

/** The usage a limit's period has in one shard's aggregates (filter applied), in millionths. */
const shardUsage = (operatorId: string, shard: number, period: { kind: 'DAY' | 'MONTH'; key: string }, filter?: Record<string, string>) =>
  usedInPeriod(
    operatorId,
    { Meter: METER, Filter: filter },
    periodOfKey(period.kind, 'UTC', period.key),
    { queries: 0, itemsRead: 0, capacityUnits: 0, combinationsRead: 0 },
    [shard],
  );

describe('made from the aggregates', () => {
  it("counts the entries recorded before the limit: each shard's counter is its aggregates' usage, their sum the status", async () => {
    const { operatorId, put, record, gateKey } = await subject('counters-made');
    const usages = [0.1, 0.2, 1.999999, 3, 0.000001, 7.5, 2.25, 4.4, 0.3, 9, 1.1, 6.6];
    for (const usage of usages) await record(usage, day(4));
    // And an entry of April, outside the period.
    await record(100, day(4), { OccurredAt: unixSeconds(at('2026-04-30T23:59:59Z')) });
    await put('cap', day(4));
    await evaluateLimitPeriod({ operatorId, limitId: 'cap' }, day(4));
    const name = counterName(await gateKey('cap'), '2026-05');
    let sum = 0n;
    for (const shard of ALL_SHARDS) {
      const counters = await countersIn(operatorId, shard);
      expect(counters[name]).toBe(await shardUsage(operatorId, shard, { kind: 'MONTH', key: '2026-05' }));
      sum += counters[name];
    }
    const status = (await readLimitStatus(operatorId, 'cap', day(4))).status;
    expect(sum).toBe(micros(status.Used));
    expect(status.Used).toBe(36.45);

    // Every entry recorded since moves its shard's counter by its usage, exactly.
    const later = await record(0.7, day(5));
    const shard = shardOf(later.ID, AGGREGATE_SHARDS);
    expect((await countersIn(operatorId, shard))[name]).toBe(await shardUsage(operatorId, shard, { kind: 'MONTH', key: '2026-05' }));
  });
});

describe('periods rolling over', () => {
  it("keeps each limit's 3 newest periods, removes the older ones when a new one is made, and makes a late entry's period again from the aggregates", async () => {
    const { operatorId, put, record, gateKey } = await subject('counters-rollover');
    await put('daily', day(1), { Period: 'DAY' });
    const key = await gateKey('daily');
    const recorded: { id: number; day: number; usage: number }[] = [];
    for (let n = 1; n <= 5; n += 1) {
      for (const usage of [1, 2, 3]) recorded.push({ id: (await record(usage, day(n))).ID, day: n, usage });
      // The watcher decides the day's alerts, and makes its counters in every shard.
      await evaluateLimitPeriod({ operatorId, limitId: 'daily' }, day(n));
    }
    for (const shard of ALL_SHARDS) {
      const counters = await countersIn(operatorId, shard);
      expect(Object.keys(counters).sort()).toEqual([3, 4, 5].map((n) => counterName(key, dayKey(n))));
      for (const n of [3, 4, 5]) {
        expect(counters[counterName(key, dayKey(n))]).toBe(await shardUsage(operatorId, shard, { kind: 'DAY', key: dayKey(n) }));
      }
    }

    // A late entry of day 1, recorded on day 5: its shard makes day 1's counter again, the earlier entries of that day in it.
    const late = await record(0.5, day(5), { OccurredAt: unixSeconds(day(1)) });
    const shard = shardOf(late.ID, AGGREGATE_SHARDS);
    const counters = await countersIn(operatorId, shard);
    expect(Object.keys(counters).sort()).toEqual([1, 3, 4, 5].map((n) => counterName(key, dayKey(n))));
    expect(counters[counterName(key, dayKey(1))]).toBe(await shardUsage(operatorId, shard, { kind: 'DAY', key: dayKey(1) }));
    const dayOneBefore = recorded.filter((one) => one.day === 1 && shardOf(one.id, AGGREGATE_SHARDS) === shard);
    expect(counters[counterName(key, dayKey(1))]).toBe(dayOneBefore.reduce((sum, one) => sum + micros(one.usage), micros(0.5)));

    // Day 6's counter, when made, removes the periods past the newest 3.
    await evaluateLimitPeriod({ operatorId, limitId: 'daily' }, day(6));
    expect(Object.keys(await countersIn(operatorId, shard)).sort()).toEqual([4, 5, 6].map((n) => counterName(key, dayKey(n))));
  });
});

describe('a limit changed or deleted mid-period', () => {
  it('goes on counting when its Amount changes, counts afresh from the aggregates when its Filter changes, and counts no more once deleted', async () => {
    const { operatorId, put, record, gateKey } = await subject('counters-changed');
    const pro = { Dimensions: { Plan: 'pro' } };
    const free = { Dimensions: { Plan: 'free' } };
    for (const [usage, dimensions] of [
      [1, pro],
      [2, free],
      [3, pro],
      [4, free],
    ] as const)
      await record(usage, day(10), dimensions);
    await put('cap', day(10));
    await evaluateLimitPeriod({ operatorId, limitId: 'cap' }, day(10));
    const total = async (name: string) => {
      let sum = 0n;
      for (const shard of ALL_SHARDS) sum += (await countersIn(operatorId, shard))[name] ?? 0n;
      return sum;
    };
    const first = counterName(await gateKey('cap'), '2026-05');
    expect(await total(first)).toBe(micros(10));

    // Its Amount changed: the same counters go on.
    await put('cap', day(11), { Amount: 2000 });
    expect(counterName(await gateKey('cap'), '2026-05')).toBe(first);
    await record(5, day(11), pro);
    expect(await total(first)).toBe(micros(15));

    // Its Filter changed: counted afresh from the aggregates, pro entries only, and the old counters removed wherever the new ones are made.
    await put('cap', day(12), { Amount: 2000, Filter: { Plan: 'pro' } });
    const second = counterName(await gateKey('cap'), '2026-05');
    expect(second).not.toBe(first);
    await evaluateLimitPeriod({ operatorId, limitId: 'cap' }, day(12));
    for (const shard of ALL_SHARDS) expect(Object.keys(await countersIn(operatorId, shard))).toEqual([second]);
    await record(100, day(12), free);
    await record(0.25, day(12), pro);
    expect(await total(second)).toBe(micros(9.25));
    expect((await readLimitStatus(operatorId, 'cap', day(12))).status.Used).toBe(9.25);

    // Deleted: an entry's write leaves every guard as it was.
    await deleteUsageLimit(operatorId, 'cap');
    const before = await Promise.all(ALL_SHARDS.map((shard) => guardImage(operatorId, shard)));
    for (let i = 0; i < 6; i += 1) await record(1, day(13), pro);
    expect(await Promise.all(ALL_SHARDS.map((shard) => guardImage(operatorId, shard)))).toEqual(before);

    // Another limit's first counters remove the deleted limit's.
    await put('other', day(13));
    await evaluateLimitPeriod({ operatorId, limitId: 'other' }, day(13));
    const other = counterName(await gateKey('other'), '2026-05');
    for (const shard of ALL_SHARDS) expect(Object.keys(await countersIn(operatorId, shard))).toEqual([other]);
    expect(await total(other)).toBe(micros(10 + 5 + 100 + 0.25 + 6));
  });
});

/** Records an entry in a shard of the test's choosing, as the service's transaction writes it (its counters must exist). */
async function recordInShard(operatorId: string, shard: number, usage: number, occurredAt: Date, now: Date): Promise<void> {
  const [ID] = newUsageIds(now.getTime(), shard, AGGREGATE_SHARDS, 1);
  const entry = { ID, Meter: METER, Usage: usage, OccurredAt: unixSeconds(occurredAt) };
  const limits = limitWrites(
    operatorId,
    [{ meter: METER, occurredAt: entry.OccurredAt, usage }],
    await guardsOf(operatorId, [METER], shard),
  );
  await writeTransaction(recordEntriesTransaction(operatorId, shard, [{ entry }], now, limits).input);
}

/** Holds the first write that makes the counter `name` until released, and says when it is held (its reads done). */
function holdFirstMake(name: string) {
  let reached!: () => void;
  let release!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  documentClient().middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { UpdateExpression?: string; ExpressionAttributeNames?: Record<string, string> };
      const makes = input.UpdateExpression?.startsWith('SET') && Object.values(input.ExpressionAttributeNames ?? {}).includes(name);
      if (makes && !holding) {
        holding = true;
        reached();
        await released;
      }
      return next(args);
    },
    { step: 'initialize', name: 'holdMake' },
  );
  return { held, release: () => release(), stop: () => documentClient().middlewareStack.remove('holdMake') };
}

describe('a counter removed while another maker read the aggregates', () => {
  it('is not made over with that reading: the maker finds counters were removed, and the counter is made again from the aggregates', async () => {
    const { operatorId, put, gateKey } = await subject('counters-pruned');
    await put('daily', day(1), { Period: 'DAY' });
    const rule = (await getLimitItem(operatorId, 'daily'))!;
    const key = await gateKey('daily');
    const [shard, now] = [3, day(6)];
    const wanted = (...days: number[]) => days.map((n) => ({ rule, periodKey: dayKey(n) }));
    await makeCounters(operatorId, shard, METER, wanted(3, 4, 5), now);

    // A reads day 1's aggregates (nothing yet), and is held before its write.
    const hold = holdFirstMake(counterName(key, dayKey(1)));
    try {
      const stale = makeCounters(operatorId, shard, METER, wanted(1), now);
      await hold.held;
      // Meanwhile B makes day 1's counter, an entry counts in it, and making day 6's removes it again (past the newest 3).
      await makeCounters(operatorId, shard, METER, wanted(1), now);
      await recordInShard(operatorId, shard, 7, day(1), now);
      expect((await countersIn(operatorId, shard))[counterName(key, dayKey(1))]).toBe(micros(7));
      await makeCounters(operatorId, shard, METER, wanted(6), now);
      hold.release();
      await stale;
    } finally {
      hold.stop();
    }
    expect(Object.keys(await countersIn(operatorId, shard)).sort()).toEqual([4, 5, 6].map((n) => counterName(key, dayKey(n))));
    await makeCounters(operatorId, shard, METER, wanted(1), now);
    expect((await countersIn(operatorId, shard))[counterName(key, dayKey(1))]).toBe(micros(7));
  });
});

describe("the watcher's stream filter", () => {
  it('is handed a guard as a recording leaves it, naming the counters it added to, and not as a counter made or a change of limits leaves it', async () => {
    const { operatorId, put, record, gateKey } = await subject('counters-stream');
    await put('cap', day(20));
    await put('daily', day(20), { Period: 'DAY' });
    const streamRecord = (NewImage: Record<string, AttributeValue>) => ({ eventName: 'MODIFY', dynamodb: { NewImage } });
    const recorded = shardOf((await record(1, day(20))).ID, AGGREGATE_SHARDS);
    const image = await guardImage(operatorId, recorded);
    expect(passes(usageLimitWatcher, streamRecord(image))).toBe(true);
    expect(image.Counted.S!.split(' ').sort()).toEqual([`${await gateKey('cap')}#2026-05`, `${await gateKey('daily')}#2026-05-20`].sort());

    // Counters made by the watcher in the other shards; then a change of the limits in every shard.
    await evaluateLimitPeriod({ operatorId, limitId: 'cap' }, day(20));
    const other = (recorded + 1) % AGGREGATE_SHARDS;
    expect(Object.keys(await countersIn(operatorId, other))).toHaveLength(1);
    expect(passes(usageLimitWatcher, streamRecord(await guardImage(operatorId, other)))).toBe(false);
    await put('cap', day(20), { Amount: 5 });
    expect(passes(usageLimitWatcher, streamRecord(await guardImage(operatorId, recorded)))).toBe(false);
  });
});
