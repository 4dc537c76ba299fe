import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { annotate, logError, observed } from '../../shared/core/observability';
import type { DeliveryMessage } from '../../shared/webhooks/model';
import { attemptDelivery } from '../../shared/webhooks/sender';

/**
 * Drains the delivery queue: one attempt per message. A failed attempt is
 * not an error here (the delivery is rescheduled in the table); only a
 * message the sender could not work on at all is reported back, so that SQS
 * retries it and finally moves it to the dead-letter queue.
 */
async function sendBatch(event: SQSEvent): Promise<SQSBatchResponse> {
  // Parsed inside each message's own promise: a body that is not JSON fails that message alone, not the batch.
  const results = await Promise.allSettled(
    event.Records.map(async (record) => attemptDelivery(JSON.parse(record.body) as DeliveryMessage)),
  );
  const batchItemFailures = results.flatMap((result, index) => {
    if (result.status === 'fulfilled') return [];
    logError('Webhook delivery attempt failed', { messageId: event.Records[index].messageId, error: result.reason });
    return [{ itemIdentifier: event.Records[index].messageId }];
  });
  annotate({ failedMessages: batchItemFailures.length });
  return { batchItemFailures };
}

export const handler = observed<SQSEvent, SQSBatchResponse>(
  { message: 'Webhook deliveries', fields: (event) => ({ messages: event.Records.length }) },
  sendBatch,
);
