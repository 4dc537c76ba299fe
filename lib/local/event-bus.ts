import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { loadHandler } from '../../functions/load-handler';
import type { Context, EventBridgeEvent } from 'aws-lambda';
import { PLATFORM_EVENT_BUS, recordPlatformEventEntry, ruleFor } from '../../shared/api/event-rules';

/**
 * Plays EventBridge on one machine: answers the PutEvents call of the AWS
 * SDK (JSON 1.1 protocol) on the local host's port, matches each entry
 * against the rules of lib/event-rules.ts, and invokes the rules' function
 * asynchronously, as EventBridge and Lambda do: PutEvents is answered at once;
 * a failed invocation is retried, and one that keeps failing is logged and
 * kept as a dead letter.
 */

const ACCOUNT = '000000000000';
/** PutEvents limits: entries per call and bytes per entry. */
const MAX_ENTRIES = 10;
const MAX_ENTRY_BYTES = 256 * 1024;
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Lambda retries a failed asynchronous invocation twice; locally the pauses are short. */
const DEFAULT_RETRY_DELAYS_MS = [100, 500];

type EventHandler = (event: EventBridgeEvent<string, unknown>, context: Context) => Promise<void>;

export interface LocalEventBusOptions {
  /** Pauses before each retry of a failed invocation; their count is the number of retries. */
  retryDelaysMs?: number[];
}

export interface DeadLetter {
  event: EventBridgeEvent<string, unknown>;
  error: string;
  attempts: number;
}

export interface LocalEventBus {
  /** Whether a request to the local host is an EventBridge API call. */
  accepts(request: IncomingMessage): boolean;
  serve(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Resolves once every invocation started so far has succeeded or been dead-lettered. */
  idle(): Promise<void>;
  readonly deadLetters: readonly DeadLetter[];
}

interface PutEventsEntry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  EventBusName?: unknown;
  Time?: unknown;
  Resources?: unknown;
}

type EntryResult = { EventId: string } | { ErrorCode: string; ErrorMessage: string };

class AwsError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const REGION = process.env.AWS_REGION || 'local';

const isDefaultBus = (name: unknown) =>
  name === undefined || name === PLATFORM_EVENT_BUS || (typeof name === 'string' && name.endsWith(`:event-bus/${PLATFORM_EVENT_BUS}`));

/** The entry's Time (Unix seconds on the wire), or now when it has none; undefined when it is not a usable instant. */
function entryTime(entry: PutEventsEntry): Date | undefined {
  if (entry.Time === undefined || entry.Time === null) return new Date();
  const time = typeof entry.Time === 'number' ? new Date(entry.Time * 1000) : undefined;
  return time && !Number.isNaN(time.getTime()) ? time : undefined;
}

/** EventBridge's envelope around an entry; `time` without milliseconds, as EventBridge writes it. */
function envelope(entry: PutEventsEntry, detail: unknown, time: Date): EventBridgeEvent<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': entry.DetailType as string,
    source: entry.Source as string,
    account: ACCOUNT,
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: REGION,
    resources: (entry.Resources as string[] | undefined) ?? [],
    detail,
  };
}

function parseDetail(detail: string): unknown {
  try {
    const parsed: unknown = JSON.parse(detail);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) throw new AwsError('ValidationException', 'Total size of the entries in the request is over the limit.');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new AwsError('SerializationException', 'The request body is not valid JSON');
  }
}

const reply = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.1', 'x-amzn-RequestId': randomUUID() });
  response.end(JSON.stringify(body));
};

export function createLocalEventBus(options: LocalEventBusOptions = {}): LocalEventBus {
  const retryDelaysMs = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  const pending = new Set<Promise<void>>();
  const deadLetters: DeadLetter[] = [];
  let handler: EventHandler | undefined;
  const functionName = path.basename(recordPlatformEventEntry, '.ts');

  async function deliver(event: EventBridgeEvent<string, unknown>): Promise<void> {
    handler ??= loadHandler<EventHandler>(recordPlatformEventEntry);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await handler(event, lambdaContext(functionName));
        return;
      } catch (error) {
        if (attempt > retryDelaysMs.length) {
          const message = error instanceof Error ? error.message : String(error);
          deadLetters.push({ event, error: message, attempts: attempt });
          console.error(JSON.stringify({ level: 'error', message: 'Dead letter: platform event not recorded', attempts: attempt, error: message, event }));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt - 1]));
      }
    }
  }

  function dispatch(event: EventBridgeEvent<string, unknown>): void {
    if (!ruleFor(event)) return;
    const delivery = deliver(event).finally(() => pending.delete(delivery));
    pending.add(delivery);
  }

  function putEntry(entry: PutEventsEntry): EntryResult {
    if (typeof entry !== 'object' || entry === null) return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Entry is not an object.' };
    for (const field of ['Source', 'DetailType', 'Detail'] as const) {
      if (typeof entry[field] !== 'string' || !entry[field]) {
        return { ErrorCode: 'InvalidArgument', ErrorMessage: `Parameter ${field} is not valid. Reason: ${field} is a required argument.` };
      }
    }
    if (Buffer.byteLength(JSON.stringify(entry)) > MAX_ENTRY_BYTES) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Entry size is over the 256 KB limit.' };
    }
    if (!isDefaultBus(entry.EventBusName)) {
      return { ErrorCode: 'NotFoundException', ErrorMessage: `Event bus ${String(entry.EventBusName)} does not exist.` };
    }
    const detail = parseDetail(entry.Detail as string);
    if (detail === undefined) return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
    const time = entryTime(entry);
    if (!time) return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Time is not valid.' };
    if (entry.Resources !== undefined && !(Array.isArray(entry.Resources) && entry.Resources.every((r) => typeof r === 'string'))) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Resources is not valid: a list of ARNs.' };
    }
    const event = envelope(entry, detail, time);
    dispatch(event);
    return { EventId: event.id };
  }

  async function putEvents(request: IncomingMessage): Promise<{ FailedEntryCount: number; Entries: EntryResult[] }> {
    const body = (await readJson(request)) as { Entries?: unknown };
    const entries = body?.Entries;
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
      throw new AwsError('ValidationException', `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`);
    }
    const results = entries.map((entry: PutEventsEntry) => putEntry(entry));
    return { FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length, Entries: results };
  }

  return {
    deadLetters,
    accepts: (request) => request.method === 'POST' && String(request.headers['x-amz-target'] ?? '').startsWith('AWSEvents.'),
    async serve(request, response) {
      try {
        const operation = String(request.headers['x-amz-target']).slice('AWSEvents.'.length);
        if (operation !== 'PutEvents') throw new AwsError('UnknownOperationException', `The local event bus does not support ${operation}`);
        reply(response, 200, await putEvents(request));
      } catch (error) {
        if (error instanceof AwsError) return reply(response, 400, { __type: error.type, message: error.message });
        console.error(JSON.stringify({ level: 'error', message: 'Local event bus failure', error: String((error as Error)?.stack ?? error) }));
        reply(response, 500, { __type: 'InternalException', message: 'The local event bus failed' });
      }
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
