import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FlushMessage } from '../../shared/changes/model';
import { flushDue } from '../../shared/changes/timeslot-announcer';
import { annotate, logError, observed } from '../../shared/core/observability';

/**
 * The trailing flushes the announcement queue hands over when their
 * coalescing window ends (shared/changes/timeslot-announcer.ts). A message
 * that fails is reported alone; SQS hands it over again and, after the
 * queue's receives, dead-letters it (the sweep makes the flush then).
 */
function messageOf(record: SQSRecord): FlushMessage {
  const message = JSON.parse(record.body) as Partial<FlushMessage>;
  const { OperatorID, ActivityID, Date, Time, FlushAt } = message;
  if (![OperatorID, ActivityID, Date, Time, FlushAt].every((field) => typeof field === 'string')) {
    throw new Error('The message is not a flush of a timeslot');
  }
  return message as FlushMessage;
}

async function flushBatch(event: SQSEvent): Promise<SQSBatchResponse> {
  const results = await Promise.allSettled(event.Records.map(async (record) => flushDue(messageOf(record))));
  const batchItemFailures = results.flatMap((result, index) => {
    if (result.status === 'fulfilled') return [];
    logError('Flushing an announcement failed', { messageId: event.Records[index].messageId, error: result.reason });
    return [{ itemIdentifier: event.Records[index].messageId }];
  });
  annotate({ failedMessages: batchItemFailures.length });
  return { batchItemFailures };
}

export const handler = observed<SQSEvent, SQSBatchResponse>(
  { message: 'Announcement flushes', fields: (event) => ({ messages: event.Records.length }) },
  flushBatch,
);
