import { RETRY, retrying } from '../../shared/core/retry';
import { transactionCancellation } from '../../shared/db/transaction-errors';
import type { UsageInput } from '../../shared/usage/schemas';
import { AGGREGATE_SHARDS, MAX_SUMMARY_ITEMS } from '../../shared/usage/model';
import { newUsageIds, randomShard } from '../../shared/usage/ids';
import { writeTransaction } from '../../shared/usage/repository';
import { readCells, summaryPlan } from '../../shared/usage/summary';
import { recordEntriesTransaction } from '../../shared/usage/usage-writes';
import type { Scenario } from './scenario';
import { USAGE_DAYS, usageRange } from './seed';

export const METERS_PATH = '/api/v2/usage/meters';

/** Entries of the current hour, so each one increments hour, day and month aggregates that already exist after the first few. */
const usageInput: UsageInput = { Meter: 'api-requests', Usage: 1.25, ExtraInfo: 'GET /v1/reports/monthly' };

export const recordUsageScenario: Scenario = {
  name: 'POST usage entry',
  service: ({ post }) => post(METERS_PATH, usageInput),
  // A rare ID collision (same millisecond, same random bits) is tried again with a fresh ID, as the service does.
  bare: ({ operatorId }) =>
    retrying('Bench usage entry', async () => {
      const now = new Date();
      const shard = randomShard(AGGREGATE_SHARDS);
      const [ID] = newUsageIds(now.getTime(), shard, AGGREGATE_SHARDS, 1);
      const entry = { ID, Meter: usageInput.Meter, Usage: usageInput.Usage, OccurredAt: Math.floor(now.getTime() / 1000) };
      try {
        return await writeTransaction(recordEntriesTransaction(operatorId, shard, [{ entry, extraInfo: usageInput.ExtraInfo }], now).input);
      } catch (error) {
        if (transactionCancellation(error)?.conditionFailed(0)) return RETRY;
        throw error;
      }
    }),
};

/** Fixed once: the seeded days, even if the bench runs past midnight UTC. */
const range = usageRange();

export const usageSummaryScenario: Scenario = {
  name: `GET usage summary (${USAGE_DAYS} days)`,
  service: ({ get }) => get(`${METERS_PATH}?from=${range.from}&to=${range.to}`),
  bare: ({ operatorId }) =>
    readCells(operatorId, summaryPlan(range).reading, {
      queries: 0,
      itemsRead: 0,
      capacityUnits: 0,
      combinationsRead: 0,
      maxItems: MAX_SUMMARY_ITEMS,
    }),
};
