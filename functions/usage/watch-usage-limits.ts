import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { annotate, logError, observed } from '../../shared/core/observability';
import { evaluateLimitPeriod, type AlertTarget } from '../../shared/usage/limit-alerts';

/**
 * Decides the threshold alerts of the limits whose gates (or definitions)
 * the table's stream hands over (shared/api/background.ts): one decision per
 * limit and period of the batch, on its gates as they then are. A decision
 * that fails is reported back with the first of its records, so that Lambda
 * hands them over again and finally sends them to the dead-letter queue.
 */
function targetOf(record: DynamoDBRecord): AlertTarget {
  const image = record.dynamodb?.NewImage;
  const [operatorId, limitId] = [image?.OperatorID?.S, image?.LimitID?.S];
  if (!operatorId || !limitId) throw new Error('The stream record is not a usage limit or one of its gates');
  if (image?.Entity?.S === 'UsageLimit') return { operatorId, limitId };
  return { operatorId, limitId, gateKey: image?.GateKey?.S, periodKey: image?.PeriodKey?.S };
}

/** One decision per limit and period: the batch's later records of a gate say nothing the gate itself does not. */
const decisionKey = (record: DynamoDBRecord): string => {
  try {
    const { operatorId, limitId, gateKey, periodKey } = targetOf(record);
    return JSON.stringify([operatorId, limitId, gateKey, periodKey]);
  } catch {
    return `unreadable ${record.eventID}`;
  }
};

async function watchBatch(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const firsts = new Map<string, DynamoDBRecord>();
  for (const record of event.Records) if (!firsts.has(decisionKey(record))) firsts.set(decisionKey(record), record);
  const records = [...firsts.values()];
  // Read inside each decision's own promise: a record that cannot be read fails alone.
  const outcomes = await Promise.allSettled(records.map(async (record) => evaluateLimitPeriod(targetOf(record))));
  const batchItemFailures = records.flatMap((record, i) => {
    const outcome = outcomes[i];
    if (outcome.status === 'fulfilled') return [];
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    logError('Usage threshold alerts not decided', { sequenceNumber, error: outcome.reason });
    return [{ itemIdentifier: sequenceNumber }];
  });
  const alerts = outcomes.reduce((sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value.length : 0), 0);
  annotate({ decisions: records.length, alerts, failedRecords: batchItemFailures.length });
  return { batchItemFailures };
}

export const handler = observed<DynamoDBStreamEvent, DynamoDBBatchResponse>(
  { message: 'Usage limit alerts', fields: (event) => ({ records: event.Records.length }) },
  watchBatch,
);
