import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { webhookSender } from '../../shared/api/background';
import { config, configure } from '../../shared/core/config';
import { BodyTooLarge, readBody, utf8Text } from './request-body';
import { localSignatureFault } from './sigv4';
import { log, logError } from '../../shared/core/observability';

/**
 * Plays the webhook delivery queue (SQS) and its event source mapping on one
 * machine: answers the SDK's SendMessage and SendMessageBatch calls (JSON
 * protocol) on the local host's port, and hands each message to the very
 * same sender handler in process, as the mapping would: at once, after the
 * call has been answered, so nothing the caller waits for waits on a
 * receiver. A message the handler reports failed is tried again, up to
 * maxReceiveCount times, then kept as a dead letter.
 */

export const QUEUE_NAME = 'webhook-deliveries';
const ACCOUNT = '000000000000';
const MAX_BATCH = 10;
const MAX_REQUEST_BYTES = 256 * 1024;
/** Pause before a failed message is received again; SQS waits out a visibility timeout, locally it is short. */
const REDELIVERY_DELAY_MS = 200;

export const localQueueUrl = (hostUrl: string): string => `${hostUrl}/${ACCOUNT}/${QUEUE_NAME}`;

type SenderHandler = (event: SQSEvent) => Promise<SQSBatchResponse>;

export interface LocalWebhookQueue {
  accepts(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Resolves once every message received so far has been handled or dead-lettered. */
  idle(): Promise<void>;
  readonly deadLetters: readonly { body: string; receives: number }[];
}

class SqsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let bytes: Buffer;
  try {
    bytes = await readBody(request, MAX_REQUEST_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new SqsError('AWS.SimpleQueueService.BatchRequestTooLong', 'The request is over 256 KB.');
    throw error;
  }
  const text = utf8Text(bytes);
  if (text === undefined) throw new SqsError('SerializationException', 'The request body is not valid UTF-8');
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
    return parsed as Record<string, unknown>;
  } catch {
    throw new SqsError('SerializationException', 'The request body is not valid JSON');
  }
}

const reply = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0', 'x-amzn-RequestId': randomUUID() });
  response.end(JSON.stringify(body));
};

function record(body: string, messageId: string, receives: number): SQSRecord {
  return {
    messageId,
    receiptHandle: randomUUID(),
    body,
    attributes: {
      ApproximateReceiveCount: String(receives),
      SentTimestamp: String(Date.now()),
      SenderId: ACCOUNT,
      ApproximateFirstReceiveTimestamp: String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: md5(body),
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:local:${ACCOUNT}:${QUEUE_NAME}`,
    awsRegion: 'local',
  };
}

export function createLocalWebhookQueue(): LocalWebhookQueue {
  const pending = new Set<Promise<void>>();
  const deadLetters: { body: string; receives: number }[] = [];
  let handler: SenderHandler | undefined;

  async function consume(body: string, messageId: string): Promise<void> {
    handler ??= loadHandler<SenderHandler>(webhookSender.entry);
    for (let receives = 1; ; receives += 1) {
      let failed: boolean;
      try {
        const { batchItemFailures } = await handler({ Records: [record(body, messageId, receives)] });
        failed = batchItemFailures.length > 0;
      } catch {
        failed = true;
      }
      if (!failed) return;
      if (receives >= webhookSender.maxReceiveCount) {
        deadLetters.push({ body, receives });
        log().error('Dead letter: webhook delivery message', { body, receives });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, REDELIVERY_DELAY_MS));
    }
  }

  function enqueue(body: unknown): { MessageId: string; MD5OfMessageBody: string } {
    if (typeof body !== 'string' || !body) throw new SqsError('AWS.SimpleQueueService.InvalidParameterValue', 'MessageBody is required.');
    const messageId = randomUUID();
    const consumed = consume(body, messageId)
      // Consumption runs after the call was answered: nothing may escape it and stop the host.
      .catch((error) => logError('Local queue delivery failure', { messageId, error }))
      .finally(() => pending.delete(consumed));
    pending.add(consumed);
    return { MessageId: messageId, MD5OfMessageBody: md5(body) };
  }

  async function operate(operation: string, input: Record<string, unknown>): Promise<unknown> {
    if (typeof input.QueueUrl !== 'string' || !input.QueueUrl.endsWith(`/${QUEUE_NAME}`)) {
      throw new SqsError('AWS.SimpleQueueService.NonExistentQueue', 'The specified queue does not exist.');
    }
    if (operation === 'SendMessage') return enqueue(input.MessageBody);
    if (operation === 'SendMessageBatch') {
      const entries = input.Entries;
      if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_BATCH) {
        throw new SqsError('AWS.SimpleQueueService.TooManyEntriesInBatchRequest', `A batch takes 1 to ${MAX_BATCH} entries.`);
      }
      // An entry that is not an object with a string Id cannot be read: the whole call is refused before anything is queued.
      if (
        !entries.every(
          (entry) =>
            typeof entry === 'object' &&
            entry !== null &&
            typeof entry.Id === 'string' &&
            typeof entry.MessageBody === 'string' &&
            entry.MessageBody,
        )
      ) {
        throw new SqsError('AWS.SimpleQueueService.InvalidParameterValue', 'Every entry takes an Id and a MessageBody, both strings.');
      }
      return {
        Successful: entries.map((entry: { Id: string; MessageBody: string }) => ({ Id: entry.Id, ...enqueue(entry.MessageBody) })),
        Failed: [],
      };
    }
    throw new SqsError('UnknownOperationException', `The local queue does not support ${operation}`);
  }

  return {
    deadLetters,
    accepts: (request) => request.method === 'POST' && String(request.headers['x-amz-target'] ?? '').startsWith('AmazonSQS.'),
    async serve(request, response) {
      try {
        const signatureFault = localSignatureFault(request, 'sqs');
        if (signatureFault) throw new SqsError(signatureFault.type, signatureFault.message);
        const operation = String(request.headers['x-amz-target']).slice('AmazonSQS.'.length);
        reply(response, 200, await operate(operation, await readJson(request)));
      } catch (error) {
        if (error instanceof SqsError) return reply(response, 400, { __type: error.type, message: error.message });
        logError('Local queue failure', { error });
        reply(response, 500, { __type: 'InternalError', message: 'The local queue failed' });
      }
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}

/** Points the service's queue client at the stand-in on `hostUrl`, keeping the rest of the configuration. */
export function configureLocalQueue(hostUrl: string): void {
  configure({ ...config(), sqsEndpoint: hostUrl, webhookQueueUrl: localQueueUrl(hostUrl) });
}
