import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from './config';
import { awsClient } from './aws-client';
import { timedCalls } from './observability';

/**
 * The announcements' delay queue (SQS): a message sent with a delay is
 * handed to its consumer that many seconds later. It is what wakes a
 * timeslot's trailing flush at the end of its coalescing window, since no
 * scheduler wakes anything within a minute. Locally it talks to the local
 * host's stand-in.
 */
// Pure: a function that imports this module without sending carries no SQS client.
const sqs = /* @__PURE__ */ awsClient((options) => {
  const client = new SQSClient(options);
  client.middlewareStack.remove('loggerMiddleware');
  timedCalls(client, 'SQS');
  return client;
});

/** SQS delays a message at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

export async function sendDelayed(body: unknown, delaySeconds: number): Promise<void> {
  const queueUrl = config().announcementQueueUrl;
  if (!queueUrl) throw new Error('No announcement queue is configured (ANNOUNCEMENT_QUEUE_URL)');
  const DelaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body), DelaySeconds }));
}
