import { createHash, randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { announcementQueue } from '../../shared/api/background';
import { config } from '../../shared/core/config';
import { AwsApiError, awsJsonEndpoint, backgroundDeliveries, type LocalAwsStandIn } from './aws-stand-in';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';

/**
 * Plays the announcement queue (SQS) on one machine: answers the SDK's
 * SendMessage (SQS's JSON 1.0 protocol) on the local host's port, keeps each
 * message until its DelaySeconds have passed on the configured clock (so
 * tests move time instead of waiting), then hands it to the queue's
 * consumer in process, as the queue's event source mapping does: a message
 * the consumer reports failed is received again, up to the queue's
 * maxReceiveCount, then kept as a dead letter.
 */
export interface LocalQueueOptions {
  /** How often due messages are handed over; without it, only when `idle` is called. */
  pollMs?: number;
}

export interface QueueDeadLetter {
  messageId: string;
  body: string;
  error: string;
  receives: number;
}

export interface LocalQueue extends LocalAwsStandIn<QueueDeadLetter> {
  /** The queue's URL on the local host at `hostUrl`. */
  urlOn(hostUrl: string): string;
  /** Hands over every message due by now (the configured clock) and resolves once each has been handled or dead-lettered. */
  idle(): Promise<void>;
  /** Messages still waiting for their delay. */
  waiting(): number;
  stop(): Promise<void>;
}

/** SQS's limits: a message body of 256 KiB, a delay of 15 minutes. */
const MAX_BODY_BYTES = 256 * 1024;
const MAX_DELAY_SECONDS = 900;
/** A message received again after a failure; SQS waits for the visibility timeout, locally the pause is short. */
const RETRY_DELAY_MS = 200;

type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

interface Waiting {
  messageId: string;
  body: string;
  dueAt: number;
}

export function createLocalQueue(options: LocalQueueOptions = {}): LocalQueue {
  const waiting: Waiting[] = [];
  let handler: QueueHandler | undefined;
  const deliveries = backgroundDeliveries<QueueDeadLetter>({
    name: 'queue',
    retryDelaysMs: Array<number>(announcementQueue.maxReceiveCount - 1).fill(RETRY_DELAY_MS),
    deadLetterMessage: `Dead letter: ${announcementQueue.id} message`,
  });
  const arn = `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${announcementQueue.id}`;

  function record(message: Waiting, receives: number): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: randomUUID(),
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(receives),
        SentTimestamp: String(message.dueAt),
        SenderId: LOCAL_ACCOUNT,
        ApproximateFirstReceiveTimestamp: String(config().clock().getTime()),
      },
      messageAttributes: {},
      md5OfBody: createHash('md5').update(message.body, 'utf8').digest('hex'),
      eventSource: 'aws:sqs',
      eventSourceARN: arn,
      awsRegion: LOCAL_REGION,
    };
  }

  function handOverDue(): void {
    const now = config().clock().getTime();
    for (const message of waiting.filter((candidate) => candidate.dueAt <= now)) {
      waiting.splice(waiting.indexOf(message), 1);
      deliveries.start({
        logFields: { messageId: message.messageId },
        attempt: async (receive) => {
          handler ??= loadHandler<QueueHandler>(announcementQueue.consumer.entry);
          const { batchItemFailures } = await handler({ Records: [record(message, receive)] });
          if (batchItemFailures.length) throw new Error(`${announcementQueue.consumer.id} reported the message failed`);
        },
        deadLetter: (error, receives) => ({ messageId: message.messageId, body: message.body, error: String(error), receives }),
      });
    }
  }

  function sendMessage(input: unknown): { MessageId: string; MD5OfMessageBody: string } {
    const { QueueUrl, MessageBody, DelaySeconds } = (input ?? {}) as Record<string, unknown>;
    if (typeof QueueUrl !== 'string' || !QueueUrl.endsWith(`/${announcementQueue.id}`)) {
      throw new AwsApiError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
    }
    if (typeof MessageBody !== 'string' || !MessageBody || Buffer.byteLength(MessageBody) > MAX_BODY_BYTES) {
      throw new AwsApiError('InvalidParameterValue', `MessageBody must be between 1 byte and ${MAX_BODY_BYTES} bytes.`);
    }
    const delay = DelaySeconds ?? 0;
    if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
      throw new AwsApiError('InvalidParameterValue', `DelaySeconds must be from 0 to ${MAX_DELAY_SECONDS}.`);
    }
    const messageId = randomUUID();
    waiting.push({ messageId, body: MessageBody, dueAt: config().clock().getTime() + delay * 1000 });
    if (delay === 0) setImmediate(handOverDue);
    return { MessageId: messageId, MD5OfMessageBody: createHash('md5').update(MessageBody, 'utf8').digest('hex') };
  }

  const timer = options.pollMs ? setInterval(handOverDue, options.pollMs) : undefined;
  timer?.unref();

  return {
    ...awsJsonEndpoint({
      signingName: 'sqs',
      targetPrefix: 'AmazonSQS.',
      jsonVersion: '1.0',
      maxRequestBytes: MAX_BODY_BYTES + 64 * 1024,
      tooLarge: { type: 'InvalidParameterValue', message: 'The request is over the size SQS takes.' },
      name: 'queue',
      internalErrorType: 'InternalError',
      async operate(operation, input) {
        if (operation !== 'SendMessage') {
          throw new AwsApiError('UnsupportedOperation', `The local queue does not support ${operation.slice(0, 100)}`);
        }
        return sendMessage(await input());
      },
    }),
    urlOn: (hostUrl) => `${hostUrl}/${LOCAL_ACCOUNT}/${announcementQueue.id}`,
    async idle() {
      handOverDue();
      await deliveries.idle();
    },
    waiting: () => waiting.length,
    deadLetters: deliveries.deadLetters,
    async stop() {
      if (timer) clearInterval(timer);
      await deliveries.idle();
    },
  };
}
