import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from './config';
import { timedCalls } from './observability';

/**
 * The announcements' delay queue (SQS): a message sent with a delay is
 * handed to its consumer that many seconds later. It is what wakes a
 * timeslot's trailing flush at the end of its coalescing window, since no
 * scheduler wakes anything within a minute. The client is created once, on
 * first use; locally it talks to the local host's stand-in.
 */
let client: { sqs: SQSClient; endpoint?: string } | undefined;

/** Created on first use; again when the configured endpoint moves (another local host). */
function sqs(): SQSClient {
  const { region, localAwsEndpoint, localCredentials } = config();
  if (!client || client.endpoint !== localAwsEndpoint) {
    client?.sqs.destroy();
    const created = new SQSClient({ region, endpoint: localAwsEndpoint, credentials: localCredentials });
    created.middlewareStack.remove('loggerMiddleware');
    timedCalls(created, 'SQS');
    client = { sqs: created, endpoint: localAwsEndpoint };
  }
  return client.sqs;
}

/** SQS delays a message at most 15 minutes. */
const MAX_DELAY_SECONDS = 900;

export async function sendDelayed(body: unknown, delaySeconds: number): Promise<void> {
  const queueUrl = config().announcementQueueUrl;
  if (!queueUrl) throw new Error('No announcement queue is configured (ANNOUNCEMENT_QUEUE_URL)');
  const DelaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds)));
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(body), DelaySeconds }));
}
