import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { annotate, logError, observed } from '../../shared/core/observability';
import type { DeliveryMessage } from '../../shared/webhooks/model';
import { attemptDelivery } from '../../shared/webhooks/sender';

/**
 * Attempts the deliveries the table's stream hands over: one attempt per
 * record, which the stream's filter limits to writes that queue an attempt
 * (shared/api/background.ts). A failed attempt is not an error here (the
 * delivery is rescheduled in the table); only a record the sender could not
 * work on at all is reported back, so that Lambda retries it and finally
 * sends it to the dead-letter queue.
 */
function messageOf(record: DynamoDBRecord): DeliveryMessage {
  const image = record.dynamodb?.NewImage;
  const [OperatorID, DeliveryID, QueuedAt] = [image?.OperatorID?.S, image?.DeliveryID?.S, image?.QueuedAt?.S];
  if (!OperatorID || !DeliveryID || !QueuedAt) throw new Error('The stream record is not a queued webhook delivery');
  return { OperatorID, DeliveryID, QueuedAt };
}

async function sendBatch(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  // Read inside each record's own promise: a record that cannot be read fails alone, not the batch.
  const results = await Promise.allSettled(event.Records.map(async (record) => attemptDelivery(messageOf(record))));
  const batchItemFailures = results.flatMap((result, index) => {
    if (result.status === 'fulfilled') return [];
    const sequenceNumber = event.Records[index].dynamodb?.SequenceNumber ?? '';
    logError('Webhook delivery attempt failed', { sequenceNumber, error: result.reason });
    return [{ itemIdentifier: sequenceNumber }];
  });
  annotate({ failedRecords: batchItemFailures.length });
  return { batchItemFailures };
}

export const handler = observed<DynamoDBStreamEvent, DynamoDBBatchResponse>(
  { message: 'Webhook deliveries', fields: (event) => ({ records: event.Records.length }) },
  sendBatch,
);
