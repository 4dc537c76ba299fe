import { SQSClient, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { config } from '../core/config';
import { log, timedCalls } from '../core/observability';
import type { DeliveryMessage } from './model';

/**
 * The delivery queue (SQS; the local host plays it in process). A message
 * only says which delivery to attempt: the event itself waits in the table,
 * so a message lost or never sent costs a minute (the retry sweep queues
 * it again), never the event.
 */
let client: { sqs: SQSClient; endpoint?: string } | undefined;

/** Created on first use; again only when the configured endpoint moves (a local host started on another port). */
function sqs(): SQSClient {
  const { region, sqsEndpoint, localCredentials } = config();
  if (!client || client.endpoint !== sqsEndpoint) {
    client = {
      sqs: new SQSClient({ region, ...(sqsEndpoint ? { endpoint: sqsEndpoint, credentials: localCredentials } : {}) }),
      endpoint: sqsEndpoint,
    };
    timedCalls(client.sqs, 'SQS');
  }
  return client.sqs;
}

/** SendMessageBatch takes at most this many messages. */
const BATCH = 10;

/** Queues the messages; false when no queue is configured or a send failed (the retry sweep covers both). */
export async function enqueueDeliveries(messages: DeliveryMessage[]): Promise<boolean> {
  const queueUrl = config().webhookQueueUrl;
  if (!queueUrl) return false;
  let allSent = true;
  for (let start = 0; start < messages.length; start += BATCH) {
    const batch = messages.slice(start, start + BATCH);
    try {
      const { Failed } = await sqs().send(
        new SendMessageBatchCommand({
          QueueUrl: queueUrl,
          Entries: batch.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message) })),
        }),
      );
      if (Failed?.length) allSent = false;
    } catch (error) {
      allSent = false;
      log().warn('Webhook deliveries not queued; the retry sweep will', { error: String(error) });
    }
  }
  return allSent;
}
