import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { log, logError } from '../../shared/core/observability';
import { BodyTooLarge, finishReading, readBody, utf8Text } from './request-body';
import { localSignatureFault } from './sigv4';

/**
 * What the local stand-ins of AWS services share. A service the SDK calls
 * (EventBridge, event-bus.ts) is answered in AWS's JSON protocol on the local
 * host's port, taking only calls signed with the local credentials. What a
 * stand-in accepted (an event, a stream record, table-stream.ts) is handed to
 * a function in process, after the call that made it has been answered, as
 * AWS does: a failed delivery is tried again after a pause, and one that keeps
 * failing is logged and kept as a dead letter.
 */

export interface LocalAwsStandIn<Letter> {
  /** Whether a request to the local host is a call to this service. */
  accepts(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Resolves once every delivery started so far has succeeded or been dead-lettered. */
  idle(): Promise<void>;
  readonly deadLetters: readonly Letter[];
}

/** An error the service answers with 400, as `{ __type, message }`. */
export class AwsApiError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface AwsJsonApi {
  /** The service's name in its SigV4 credential scope. */
  signingName: 'events' | 'sqs' | 'kms';
  /** What every operation's X-Amz-Target begins with, such as `AWSEvents.`. */
  targetPrefix: string;
  /** The AWS JSON protocol version the service speaks. */
  jsonVersion: '1.0' | '1.1';
  /** The largest request body, and the error a larger one is refused with. */
  maxRequestBytes: number;
  tooLarge: { type: string; message: string };
  /** The stand-in's name in its log lines and its 500 answer, such as `event bus`. */
  name: string;
  /** The `__type` of the service's 500 answer. */
  internalErrorType: string;
  /** Answers one operation; `input` reads the request's JSON body, when the operation has come to need it. */
  operate(operation: string, input: () => Promise<unknown>): Promise<unknown>;
}

async function readJson(request: IncomingMessage, api: AwsJsonApi): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readBody(request, api.maxRequestBytes);
  } catch (error) {
    throw error instanceof BodyTooLarge ? new AwsApiError(api.tooLarge.type, api.tooLarge.message) : error;
  }
  const text = utf8Text(bytes);
  if (text === undefined) throw new AwsApiError('SerializationException', 'The request body is not valid UTF-8');
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new AwsApiError('SerializationException', 'The request body is not valid JSON');
  }
}

function reply(response: ServerResponse, api: AwsJsonApi, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': `application/x-amz-json-${api.jsonVersion}`, 'x-amzn-RequestId': randomUUID() });
  response.end(JSON.stringify(body));
}

/** The calls an AWS JSON protocol service answers: signed ones, by operation, with AWS's errors. */
export function awsJsonEndpoint(api: AwsJsonApi): Pick<LocalAwsStandIn<unknown>, 'accepts' | 'serve'> {
  return {
    accepts: (request) => request.method === 'POST' && String(request.headers['x-amz-target'] ?? '').startsWith(api.targetPrefix),
    async serve(request, response) {
      try {
        const signatureFault = localSignatureFault(request, api.signingName);
        if (signatureFault) throw new AwsApiError(signatureFault.type, signatureFault.message);
        const operation = String(request.headers['x-amz-target']).slice(api.targetPrefix.length);
        reply(response, api, 200, await api.operate(operation, () => readJson(request, api)));
      } catch (error) {
        // Refused before its body was read to the end (a bad signature, too large): the rest is read first, so the answer arrives.
        await finishReading(request, response);
        if (error instanceof AwsApiError) return reply(response, api, 400, { __type: error.type, message: error.message });
        logError(`Local ${api.name} failure`, { error });
        reply(response, api, 500, { __type: api.internalErrorType, message: `The local ${api.name} failed` });
      }
    },
  };
}

/**
 * A dead letter's log line, which cannot fail: what it carries came from a
 * client, and a structure nested thousands deep is legal, yet too deep for
 * JSON.stringify. Then its structures are logged as a note instead.
 */
function logDeadLetter(message: string, letter: object): void {
  try {
    log().error(message, { ...letter });
  } catch (error) {
    const note = `(not serialisable: ${String((error as Error)?.message ?? error)})`;
    log().error(
      message,
      Object.fromEntries(Object.entries(letter).map(([field, value]) => [field, typeof value === 'object' && value ? note : value])),
    );
  }
}

export interface Delivery<Letter> {
  /** Names the delivery in the log line of a failure that escaped it. */
  logFields: Record<string, unknown>;
  /** One try; a rejection is a failure. `attempt` counts from 1. */
  attempt(attempt: number): Promise<void>;
  /** What is kept once the last try has failed with `error`. */
  deadLetter(error: unknown, attempts: number): Letter;
}

export interface Deliveries<Letter> {
  /** Starts a delivery in the background: tried, tried again after each pause, then dead-lettered. */
  start(delivery: Delivery<Letter>): void;
  /** The same, resolving once it has succeeded or been dead-lettered (it never rejects). */
  run(delivery: Delivery<Letter>): Promise<void>;
  idle(): Promise<void>;
  readonly deadLetters: readonly Letter[];
}

export function backgroundDeliveries<Letter extends object>(options: {
  /** The stand-in's name in the log line of a failure that escaped a delivery. */
  name: string;
  /** Pauses before each retry; their count is the number of retries. */
  retryDelaysMs: readonly number[];
  /** The log line of each dead letter, which carries the letter's fields. */
  deadLetterMessage: string;
}): Deliveries<Letter> {
  const pending = new Set<Promise<void>>();
  const deadLetters: Letter[] = [];

  async function deliver(delivery: Delivery<Letter>): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await delivery.attempt(attempt);
      } catch (error) {
        if (attempt > options.retryDelaysMs.length) {
          const letter = delivery.deadLetter(error, attempt);
          deadLetters.push(letter);
          return logDeadLetter(options.deadLetterMessage, letter);
        }
        await sleep(options.retryDelaysMs[attempt - 1]);
      }
    }
  }

  function run(delivery: Delivery<Letter>): Promise<void> {
    const started = deliver(delivery)
      // Delivery runs after the call was answered: nothing may escape it and stop the host.
      .catch((error) => logError(`Local ${options.name} delivery failure`, { ...delivery.logFields, error }))
      .finally(() => pending.delete(started));
    pending.add(started);
    return started;
  }

  return {
    deadLetters,
    start: (delivery) => void run(delivery),
    run,
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
