import type { AttributeValue, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { annotate, logError, observed } from '../../shared/core/observability';
import { evaluateLimitPeriod, type AlertTarget } from '../../shared/usage/limit-alerts';

/**
 * Decides the threshold alerts of the limits whose counts (or definitions)
 * the table's stream hands over (shared/api/background.ts): one decision per
 * limit and period of the batch, on its counts as they then are. A decision
 * that fails is reported back with the first record that named it, so that
 * Lambda hands it over again and finally sends it to the dead-letter queue.
 */

/** The GateKey → LimitID of a guard's limits, as its image holds them. */
const limitIdsOf = (image: Record<string, AttributeValue>) =>
  new Map((image.Limits?.L ?? []).map(({ M }) => [M?.GateKey?.S, M?.LimitID?.S]));

/**
 * What a record asks to decide: a limit's own record, its current period; a
 * REFUSE limit's gate, its period; a guard written by a recording, every
 * NONE limit's period that Counted names.
 */
function targetsOf(record: DynamoDBRecord): AlertTarget[] {
  const image = record.dynamodb?.NewImage ?? {};
  const operatorId = image.OperatorID?.S;
  if (!operatorId) throw new Error('The stream record is not a usage limit, one of its gates or a guard with counters');
  if (image.Entity?.S === 'UsageLimitGuard') {
    const limitIds = limitIdsOf(image);
    return (image.Counted?.S ?? '').split(' ').flatMap((counted) => {
      const [gateKey, periodKey] = counted.split('#');
      const limitId = limitIds.get(gateKey);
      // A limit deleted since the write has nothing to decide.
      return limitId ? [{ operatorId, limitId, gateKey, periodKey }] : [];
    });
  }
  const limitId = image.LimitID?.S;
  if (!limitId) throw new Error('The stream record is not a usage limit, one of its gates or a guard with counters');
  if (image.Entity?.S === 'UsageLimit') return [{ operatorId, limitId }];
  return [{ operatorId, limitId, gateKey: image.GateKey?.S, periodKey: image.PeriodKey?.S }];
}

/** One decision per limit and period: the batch's later records of it say nothing its counts do not. */
const decisionKey = ({ operatorId, limitId, gateKey, periodKey }: AlertTarget) => JSON.stringify([operatorId, limitId, gateKey, periodKey]);

async function watchBatch(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const decisions = new Map<string, { record: DynamoDBRecord; target?: AlertTarget; unreadable?: unknown }>();
  for (const record of event.Records) {
    try {
      for (const target of targetsOf(record))
        if (!decisions.has(decisionKey(target))) decisions.set(decisionKey(target), { record, target });
    } catch (unreadable) {
      decisions.set(`unreadable ${record.eventID}`, { record, unreadable });
    }
  }
  const planned = [...decisions.values()];
  const outcomes = await Promise.allSettled(
    planned.map(async ({ target, unreadable }) => {
      if (!target) throw unreadable;
      return evaluateLimitPeriod(target);
    }),
  );
  const failed = new Map<string, DynamoDBRecord>();
  planned.forEach(({ record }, i) => {
    const outcome = outcomes[i];
    if (outcome.status === 'fulfilled') return;
    const sequenceNumber = record.dynamodb?.SequenceNumber ?? '';
    logError('Usage threshold alerts not decided', { sequenceNumber, error: outcome.reason });
    failed.set(sequenceNumber, record);
  });
  const batchItemFailures = [...failed.keys()].map((itemIdentifier) => ({ itemIdentifier }));
  const alerts = outcomes.reduce((sum, outcome) => sum + (outcome.status === 'fulfilled' ? outcome.value.length : 0), 0);
  annotate({ decisions: planned.length, alerts, failedRecords: batchItemFailures.length });
  return { batchItemFailures };
}

export const handler = observed<DynamoDBStreamEvent, DynamoDBBatchResponse>(
  { message: 'Usage limit alerts', fields: (event) => ({ records: event.Records.length }) },
  watchBatch,
);
