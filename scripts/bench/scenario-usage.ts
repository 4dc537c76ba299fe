import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/db/client';
import { summaryPeriod } from '../../shared/usage/period';
import { AGGREGATE_SHARDS, type UsageInput } from '../../shared/usage/model';
import { queryAggregates } from '../../shared/usage/repository';
import { prepareUsageRecord, usageRecordTransaction } from '../../shared/usage/usage-writes';
import type { Scenario } from './scenario';
import { USAGE_DAYS, USAGE_METERS, usageRange } from './seed';

const METERS_PATH = '/api/v2/usage/meters';

/** Entries of the current hour, so each one increments an hourly aggregate that already exists after the first few. */
const usageInput: UsageInput = { Meter: USAGE_METERS[0], Usage: 1.25, ExtraInfo: 'GET /v1/reports/monthly' };

export const recordUsageScenario: Scenario = {
  name: 'POST usage entry',
  service: ({ post }) => post(METERS_PATH, usageInput),
  bare: ({ operatorId }) =>
    documentClient().send(new TransactWriteCommand(usageRecordTransaction(prepareUsageRecord(operatorId, usageInput)))),
};

/** Fixed once: the seeded days, even if the bench runs past midnight UTC. */
const range = usageRange();

export const usageSummaryScenario: Scenario = {
  name: `GET usage summary (${USAGE_DAYS} days)`,
  service: ({ get }) => get(`${METERS_PATH}?from=${range.from}&to=${range.to}`),
  bare: ({ operatorId }) => {
    const period = summaryPeriod(range.from, range.to);
    return queryAggregates(operatorId, AGGREGATE_SHARDS, period.firstHour, period.lastHour);
  },
};
