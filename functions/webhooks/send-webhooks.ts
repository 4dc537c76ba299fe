import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DeliveryMessage } from '../../shared/webhooks/model';
import { attemptDelivery } from '../../shared/webhooks/sender';

/**
 * Drains the delivery queue: one attempt per message. A failed attempt is
 * not an error here (the delivery is rescheduled in the table); only a
 * message the sender could not work on at all is reported back, so that SQS
 * retries it and finally moves it to the dead-letter queue.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const results = await Promise.allSettled(event.Records.map((record) => attemptDelivery(JSON.parse(record.body) as DeliveryMessage)));
  const batchItemFailures = results.flatMap((result, index) => {
    if (result.status === 'fulfilled') return [];
    console.error(JSON.stringify({ level: 'error', message: 'Webhook delivery attempt failed', error: String(result.reason) }));
    return [{ itemIdentifier: event.Records[index].messageId }];
  });
  return { batchItemFailures };
}
