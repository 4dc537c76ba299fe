import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { LEVELS } from '../../shared/db/usage-levels';
import { AGGREGATE_SHARDS } from '../../shared/usage/model';
import { recordUsageBatch } from '../../shared/usage/record-batch';
import { deleteAggregates, getMeterCount, listAggregates, putAggregates, writeTransaction } from '../../shared/usage/repository';
import { newUsageIds, randomShard } from '../../shared/usage/ids';
import { recordUsage } from '../../shared/usage/record-usage';
import { recordEntriesTransaction } from '../../shared/usage/usage-writes';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/db/client';
import * as usageKeys from '../../shared/db/usage-keys';
import type { UsageSummaryRequest } from '../../shared/usage/schemas';
import { summarizeUsage } from '../../shared/usage/summary';
import { voidUsageEntry } from '../../shared/usage/void-entry';
import { createTestOperator } from '../support/fixtures';
import { at } from '../support/usage';

const run = promisify(execFile);

/** Entries written as the service wrote them before it counted meters: the entry and its aggregates, no registration. */
async function putEntriesOfUnregisteredMeters(operatorId: string, meters: string[]): Promise<void> {
  const now = new Date();
  for (const Meter of meters) {
    const shard = randomShard(AGGREGATE_SHARDS);
    const [ID] = newUsageIds(now.getTime(), shard, AGGREGATE_SHARDS, 1);
    const { input } = recordEntriesTransaction(operatorId, shard, [{ entry: { ID, Meter, Usage: 1, OccurredAt: at('2026-05-05') } }], now);
    await writeTransaction(input);
  }
}
const ROOT = path.resolve(__dirname, '../..');

/** `npm run admin -- rebuild-usage-aggregates` as an operator runs it, against the test run's DynamoDB Local. */
async function rebuild(operatorId: string): Promise<string> {
  const { stdout } = await run(
    path.join(ROOT, 'node_modules/.bin/tsx'),
    ['bin/admin.ts', 'rebuild-usage-aggregates', '--operator', operatorId],
    {
      cwd: ROOT,
      env: { ...process.env },
    },
  );
  return stdout;
}

const QUERIES: UsageSummaryRequest[] = [
  { from: '2026-01-01', to: '2026-12-31' },
  { from: '2026-03-01', to: '2026-04-30', tz: 'Europe/Lisbon', granularity: 'day' },
  { from: '2025-12-15', to: '2026-12-14', tz: 'America/New_York', granularity: 'month' },
  { from: '2026-03-27', to: '2026-04-02', tz: 'Asia/Tokyo', granularity: 'hour' },
  { from: '2026-01-01', to: '2026-12-31', groupBy: 'Region,Plan', granularity: 'month' },
  { from: '2026-03-01', to: '2026-04-30', tz: 'Europe/Lisbon', groupBy: 'Region', filter: { Plan: 'pro' }, granularity: 'day' },
];

const summaries = async (operatorId: string) =>
  Promise.all(QUERIES.map(async (query) => (await summarizeUsage(operatorId, query)).summary));

describe('npm run admin -- rebuild-usage-aggregates', () => {
  it('refuses an operator that does not exist, naming it, instead of reporting nothing rebuilt', async () => {
    await expect(rebuild('no-such-operator')).rejects.toMatchObject({ stderr: expect.stringMatching(/no-such-operator/) });
  });

  it('recomputes the aggregates and their totals per combination of dimensions from the entries: summaries afterwards equal those before', async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-rebuild' });
    const days = ['2026-01-01', '2026-02-14', '2026-03-29', '2026-03-31', '2026-04-01', '2026-06-30', '2026-12-31'];
    const recorded = await recordUsageBatch(
      operator.operatorId,
      days.flatMap((day, d) =>
        Array.from({ length: 12 }, (_, i) => ({
          Meter: `meter-${i % 4}`,
          Usage: [0.1, 0.25, 3, 0.000001][i % 4] + d,
          OccurredAt: at(day, `${String(i * 2).padStart(2, '0')}:30:00`),
          ...(i % 3 === 2 ? {} : { Dimensions: { Region: ['eu', 'us'][i % 2], ...(i % 5 ? { Plan: ['pro', 'free'][d % 2] } : {}) } }),
        })),
      ),
    );
    for (const entry of recorded.filter((_, i) => i % 9 === 0)) await voidUsageEntry(operator.operatorId, String(entry.ID));
    const before = await summaries(operator.operatorId);
    expect(before[0].Totals.Events).toBe(recorded.length - Math.ceil(recorded.length / 9));

    expect(before[4].Meters.some((meter: { Dimensions?: object }) => meter.Dimensions)).toBe(true);

    // As before day and month roll-ups existed: hour aggregates only, which lost their totals per combination, and one of them drifted.
    for (let shard = 0; shard < AGGREGATE_SHARDS; shard += 1) {
      for (const level of LEVELS.filter((level) => level !== 'hour'))
        await deleteAggregates(operator.operatorId, shard, await listAggregates(operator.operatorId, shard, level));
      await putAggregates(operator.operatorId, shard, await listAggregates(operator.operatorId, shard, 'hour'));
    }
    const shards = await Promise.all(
      Array.from({ length: AGGREGATE_SHARDS }, (_, shard) => listAggregates(operator.operatorId, shard, 'hour')),
    );
    const shard = shards.findIndex((hours) => hours.length > 0);
    await putAggregates(operator.operatorId, shard, [{ ...shards[shard][0], usage: '999', events: 99 }]);
    expect(await summaries(operator.operatorId)).not.toEqual(before);

    expect(await rebuild(operator.operatorId)).toMatch(
      new RegExp(
        `Rebuilt usage aggregates of ${operator.operatorId} .*: ${recorded.length} entries read \\(${Math.ceil(recorded.length / 9)} voided, not counted\\), \\d+ aggregates written, \\d+ stale ones removed`,
      ),
    );
    expect(await summaries(operator.operatorId)).toEqual(before);
    // Aggregates left at zero by voids are stale too; a second run finds nothing more to remove.
    expect(await rebuild(operator.operatorId)).toMatch(/, 0 stale ones removed/);
    expect(await summaries(operator.operatorId)).toEqual(before);
  });

  it('removes aggregates that no entry supports', async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-rebuild-stale' });
    const [entry] = await recordUsageBatch(operator.operatorId, [{ Meter: 'only', Usage: 2, OccurredAt: at('2026-05-05') }]);
    await putAggregates(operator.operatorId, 3, [{ level: 'day', bucket: '2026-05-06', meter: 'ghost', usage: '5', events: 1 }]);
    expect((await summarizeUsage(operator.operatorId, { from: '2026-05-05', to: '2026-05-06' })).summary.Totals).toEqual({
      Usage: 7,
      Events: 2,
    });
    expect(await rebuild(operator.operatorId)).toMatch(
      /1 entries read \(0 voided, not counted\), 3 aggregates written, 1 stale ones removed/,
    );
    const { summary } = await summarizeUsage(operator.operatorId, { from: '2026-05-05', to: '2026-05-06' });
    expect(summary.Meters).toEqual([{ Meter: 'only', TotalUsage: 2, EventCount: 1 }]);
    expect(entry.Replayed).toBe(false);
  });

  it('registers the meters that entries recorded before meters were counted name, so they go on within the limit', async () => {
    const operator = await createTestOperator(undefined, { stem: 'usage-rebuild-meters' });
    const legacy = Array.from({ length: 52 }, (_, i) => `legacy-${i}`);
    await recordUsageBatch(
      operator.operatorId,
      legacy.slice(0, 50).map((Meter) => ({ Meter, Usage: 1, OccurredAt: at('2026-05-05') })),
    );
    // As before meters were counted: entries without registrations, 52 meters of them (two past today's limit).
    const { entry } = await recordUsage(
      operator.operatorId,
      { Meter: 'order-completed', Usage: 1, OccurredAt: at('2026-05-05') },
      { builtIn: true, idempotencyKey: 'evt-legacy' },
    );
    expect(entry.Meter).toBe('order-completed');
    await putEntriesOfUnregisteredMeters(operator.operatorId, legacy.slice(50));
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: usageKeys.meterCount(operator.operatorId) }));
    for (const meter of legacy.slice(0, 50)) {
      await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: usageKeys.meter(operator.operatorId, meter) }));
    }
    expect(await rebuild(operator.operatorId)).toMatch(/, 52 meters registered that were recorded before meters were counted/);
    expect(await getMeterCount(operator.operatorId)).toBe(52);
    expect(await rebuild(operator.operatorId)).toMatch(/, 0 meters registered/);
    // Every recorded meter goes on; a new one is past the limit.
    await expect(recordUsage(operator.operatorId, { Meter: 'legacy-51', Usage: 1, OccurredAt: at('2026-05-06') })).resolves.toBeDefined();
    await expect(recordUsage(operator.operatorId, { Meter: 'brand-new', Usage: 1, OccurredAt: at('2026-05-06') })).rejects.toThrow(
      "names the new meter 'brand-new', which would be this operator's meter number 53",
    );
  });
});
