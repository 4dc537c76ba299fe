import { createHash, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { webhookSender } from '../../shared/api/background';
import { config, configure } from '../../shared/core/config';
import { AwsApiError, awsJsonEndpoint, backgroundDeliveries, type LocalAwsStandIn } from './aws-stand-in';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';

/**
 * Plays the webhook delivery queue (SQS) and its event source mapping on one
 * machine: answers the SDK's SendMessage and SendMessageBatch calls (JSON
 * protocol) on the local host's port, and hands each message to the very
 * same sender handler in process, as the mapping would: at once, after the
 * call has been answered, so nothing the caller waits for waits on a
 * receiver. A message the handler reports failed is tried again, up to
 * maxReceiveCount times, then kept as a dead letter (aws-stand-in.ts).
 */

export const QUEUE_NAME = 'webhook-deliveries';
const MAX_BATCH = 10;
const MAX_REQUEST_BYTES = 256 * 1024;
/** Pause before a failed message is received again; SQS waits out a visibility timeout, locally it is short. */
const REDELIVERY_DELAY_MS = 200;

export const localQueueUrl = (hostUrl: string): string => `${hostUrl}/${LOCAL_ACCOUNT}/${QUEUE_NAME}`;

type SenderHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface QueueDeadLetter {
  body: string;
  receives: number;
}

/** SQS's SendMessage and SendMessageBatch, whose deliveries are the receives of the webhook sender. */
export type LocalWebhookQueue = LocalAwsStandIn<QueueDeadLetter>;

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

function record(body: string, messageId: string, receives: number): SQSRecord {
  return {
    messageId,
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(receives),
      SentTimestamp: String(Date.now()),
      SenderId: LOCAL_ACCOUNT,
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: md5(body),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${QUEUE_NAME}`,
    awsRegion: LOCAL_REGION,
  };
}

/** The call's input: a JSON object naming this queue. */
function queueInput(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AwsApiError('SerializationException', 'The request body is not valid JSON');
  }
  const input = body as Record<string, unknown>;
  if (typeof input.QueueUrl !== 'string' || !input.QueueUrl.endsWith(`/${QUEUE_NAME}`)) {
    throw new AwsApiError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
  }
  return input;
}

/**
 * A batch's entries: 1 to MAX_BATCH, each an object with a string Id and a
 * MessageBody. One that cannot be read refuses the whole call, before anything is queued.
 */
function batchEntries(entries: unknown): { Id: string; MessageBody: string }[] {
  if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_BATCH) {
    throw new AwsApiError('AWS.SimpleQueueService.TooManyEntriesInBatchRequest', `A batch takes 1 to ${MAX_BATCH} entries.`);
  }
  const readable = (entry: unknown) =>
    typeof entry === 'object' &&
    entry !== null &&
    typeof (entry as { Id?: unknown }).Id === 'string' &&
    typeof (entry as { MessageBody?: unknown }).MessageBody === 'string' &&
    (entry as { MessageBody: string }).MessageBody !== '';
  if (!entries.every(readable)) {
    throw new AwsApiError('AWS.SimpleQueueService.InvalidParameterValue', 'Every entry takes an Id and a MessageBody, both strings.');
  }
  return entries;
}

/** One receive of a message by the webhook sender, loaded on its first use; a message it reports failed is a failed receive. */
function webhookSenderReceiver(): (body: string, messageId: string, receives: number) => Promise<void> {
  let handler: SenderHandler | undefined;
  return async (body, messageId, receives) => {
    handler ??= loadHandler<SenderHandler>(webhookSender.entry);
    const { batchItemFailures } = await handler({ Records: [record(body, messageId, receives)] });
    if (batchItemFailures.length) throw new Error('The webhook sender reported the message failed');
  };
}

export function createLocalWebhookQueue(): LocalWebhookQueue {
  const receive = webhookSenderReceiver();
  const deliveries = backgroundDeliveries<QueueDeadLetter>({
    name: 'queue',
    retryDelaysMs: Array<number>(webhookSender.maxReceiveCount - 1).fill(REDELIVERY_DELAY_MS),
    deadLetterMessage: 'Dead letter: webhook delivery message',
  });

  function enqueue(body: unknown): { MessageId: string; MD5OfMessageBody: string } {
    if (typeof body !== 'string' || !body)
      throw new AwsApiError('AWS.SimpleQueueService.InvalidParameterValue', 'MessageBody is required.');
    const messageId = randomUUID();
    deliveries.start({
      logFields: { messageId },
      attempt: (receives) => receive(body, messageId, receives),
      deadLetter: (_, receives) => ({ body, receives }),
    });
    return { MessageId: messageId, MD5OfMessageBody: md5(body) };
  }

  async function operate(operation: string, input: () => Promise<unknown>): Promise<unknown> {
    const { MessageBody, Entries } = queueInput(await input());
    if (operation === 'SendMessage') return enqueue(MessageBody);
    if (operation === 'SendMessageBatch') {
      const successful = batchEntries(Entries).map((entry) => ({ Id: entry.Id, ...enqueue(entry.MessageBody) }));
      return { Successful: successful, Failed: [] };
    }
    throw new AwsApiError('UnknownOperationException', `The local queue does not support ${operation}`);
  }

  return {
    ...awsJsonEndpoint({
      signingName: 'sqs',
      targetPrefix: 'AmazonSQS.',
      jsonVersion: '1.0',
      maxRequestBytes: MAX_REQUEST_BYTES,
      tooLarge: { type: 'AWS.SimpleQueueService.BatchRequestTooLong', message: 'The request is over 256 KB.' },
      name: 'queue',
      internalErrorType: 'InternalError',
      operate,
    }),
    idle: deliveries.idle,
    deadLetters: deliveries.deadLetters,
  };
}

/** Points the service's queue client at the stand-in on `hostUrl`, keeping the rest of the configuration. */
export function configureLocalQueue(hostUrl: string): void {
  configure({ ...config(), sqsEndpoint: hostUrl, webhookQueueUrl: localQueueUrl(hostUrl) });
}
