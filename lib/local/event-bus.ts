import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { EventBridgeEvent } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { PLATFORM_EVENT_BUS, recordPlatformEventEntry, ruleFor } from '../../shared/api/event-rules';
import { systemClock, type Clock } from '../../shared/core/clock';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';
import { lambdaContext } from './lambda-context';
import { BodyTooLarge, readBody, utf8Text } from './request-body';
import { localSignatureFault } from './sigv4';
import { log, logError } from '../../shared/core/observability';

/**
 * Plays EventBridge on one machine: answers the PutEvents call of the AWS
 * SDK (JSON 1.1 protocol) on the local host's port, matches each entry
 * against the rules of shared/api/event-rules.ts, and invokes the rules'
 * function asynchronously, as EventBridge and Lambda do: PutEvents is
 * answered at once; a failed invocation is retried, and one that keeps
 * failing is logged and kept as a dead letter. Only calls signed (SigV4) with
 * the local credentials are taken, as EventBridge takes only signed calls.
 */

/** PutEvents limits: entries per call, bytes per entry, bytes per call. */
const MAX_ENTRIES = 10;
const MAX_ENTRY_BYTES = 256 * 1024;
const MAX_REQUEST_BYTES = 1024 * 1024;
/** Lambda retries a failed asynchronous invocation twice; locally the pauses are short. */
const DEFAULT_RETRY_DELAYS_MS = [100, 500];

type EventHandler = (event: EventBridgeEvent<string, unknown>, context: ReturnType<typeof lambdaContext>) => Promise<void>;

export interface LocalEventBusOptions {
  /** Pauses before each retry of a failed invocation; their count is the number of retries. */
  retryDelaysMs?: number[];
  /** "Now" for entries sent without Time, and for the function's remaining time. */
  clock?: Clock;
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

const isStructure = (value: unknown) => typeof value === 'object' && value !== null;

/**
 * A call whose entries hold a structure where PutEvents takes a scalar (or a
 * list of strings) cannot be read at all, as with EventBridge's own
 * deserialiser: the whole call is refused, and nothing of it is walked.
 */
function checkShape(entries: unknown[]): void {
  const misfit = entries.findIndex(
    (entry) =>
      !isStructure(entry) ||
      Array.isArray(entry) ||
      (['Source', 'DetailType', 'Detail', 'EventBusName', 'Time', 'TraceHeader'] as const).some((field) =>
        isStructure((entry as Record<string, unknown>)[field]),
      ) ||
      (isStructure((entry as PutEventsEntry).Resources) &&
        (!Array.isArray((entry as PutEventsEntry).Resources) || ((entry as PutEventsEntry).Resources as unknown[]).some(isStructure))),
  );
  if (misfit >= 0) throw new AwsError('SerializationException', `Entries[${misfit}] does not have the shape of a PutEvents entry`);
}

const isDefaultBus = (name: unknown) =>
  name === undefined || name === PLATFORM_EVENT_BUS || (typeof name === 'string' && name.endsWith(`:event-bus/${PLATFORM_EVENT_BUS}`));

/** EventBridge's own measure of an entry: Time 14 bytes, and the UTF-8 bytes of Source, DetailType, Detail and each Resource. */
const entrySize = (entry: PutEventsEntry) =>
  (entry.Time === undefined ? 0 : 14) +
  [entry.Source, entry.DetailType, entry.Detail, ...((entry.Resources as unknown[] | undefined) ?? [])].reduce<number>(
    (sum, value) => sum + (typeof value === 'string' ? Buffer.byteLength(value) : 0),
    0,
  );

/** The entry's Time (Unix seconds on the wire), or now when it has none; undefined when it is not a usable instant. */
function entryTime(entry: PutEventsEntry, clock: Clock): Date | undefined {
  if (entry.Time === undefined || entry.Time === null) return clock();
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
    account: LOCAL_ACCOUNT,
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: LOCAL_REGION,
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

/** A log line that cannot fail: a Detail nested thousands deep is legal, yet too deep for JSON.stringify. */
function logUndelivered(message: string, fields: Record<string, unknown>, event: unknown): void {
  try {
    log().error(message, { ...fields, event });
  } catch (error) {
    log().error(message, { ...fields, event: `(not serialisable: ${String((error as Error)?.message ?? error)})` });
  }
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readBody(request, MAX_REQUEST_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge)
      throw new AwsError('ValidationException', 'Total size of the entries in the request is over the limit.');
    throw error;
  }
  const text = utf8Text(bytes);
  if (text === undefined) throw new AwsError('SerializationException', 'The request body is not valid UTF-8');
  try {
    return JSON.parse(text || '{}');
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
  const clock = options.clock ?? systemClock;
  const pending = new Set<Promise<void>>();
  const deadLetters: DeadLetter[] = [];
  let handler: EventHandler | undefined;
  const functionName = path.basename(recordPlatformEventEntry, '.ts');

  async function deliver(event: EventBridgeEvent<string, unknown>): Promise<void> {
    handler ??= loadHandler<EventHandler>(recordPlatformEventEntry);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await handler(event, lambdaContext(functionName, clock));
        return;
      } catch (error) {
        if (attempt > retryDelaysMs.length) {
          const message = error instanceof Error ? error.message : String(error);
          deadLetters.push({ event, error: message, attempts: attempt });
          logUndelivered('Dead letter: platform event not recorded', { attempts: attempt, error: message }, event);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, retryDelaysMs[attempt - 1]));
      }
    }
  }

  function dispatch(event: EventBridgeEvent<string, unknown>): void {
    if (!ruleFor(event)) return;
    const delivery = deliver(event)
      // Delivery runs after the call was answered: nothing may escape it and stop the host.
      .catch((error) => logError('Local event bus delivery failure', { eventId: event.id, error }))
      .finally(() => pending.delete(delivery));
    pending.add(delivery);
  }

  function putEntry(entry: PutEventsEntry): EntryResult {
    for (const field of ['Source', 'DetailType', 'Detail'] as const) {
      if (typeof entry[field] !== 'string' || !entry[field]) {
        return { ErrorCode: 'InvalidArgument', ErrorMessage: `Parameter ${field} is not valid. Reason: ${field} is a required argument.` };
      }
    }
    if (entry.Resources !== undefined && !(Array.isArray(entry.Resources) && entry.Resources.every((r) => typeof r === 'string'))) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Resources is not valid: a list of ARNs.' };
    }
    if (entrySize(entry) > MAX_ENTRY_BYTES) {
      return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Entry size is over the 256 KB limit.' };
    }
    if (!isDefaultBus(entry.EventBusName)) {
      return { ErrorCode: 'NotFoundException', ErrorMessage: `Event bus ${String(entry.EventBusName)} does not exist.` };
    }
    const detail = parseDetail(entry.Detail as string);
    if (detail === undefined) return { ErrorCode: 'MalformedDetail', ErrorMessage: 'Detail is malformed.' };
    const time = entryTime(entry, clock);
    if (!time) return { ErrorCode: 'InvalidArgument', ErrorMessage: 'Parameter Time is not valid.' };
    const event = envelope(entry, detail, time);
    dispatch(event);
    return { EventId: event.id };
  }

  async function putEvents(request: IncomingMessage): Promise<{ FailedEntryCount: number; Entries: EntryResult[] }> {
    const body = (await readJson(request)) as { Entries?: unknown } | null;
    const entries = body?.Entries;
    if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
      throw new AwsError(
        'ValidationException',
        `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`,
      );
    }
    checkShape(entries);
    const results = entries.map((entry: PutEventsEntry) => putEntry(entry));
    return { FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length, Entries: results };
  }

  return {
    deadLetters,
    accepts: (request) => request.method === 'POST' && String(request.headers['x-amz-target'] ?? '').startsWith('AWSEvents.'),
    async serve(request, response) {
      try {
        const signatureFault = localSignatureFault(request, 'events');
        if (signatureFault) throw new AwsError(signatureFault.type, signatureFault.message);
        const operation = String(request.headers['x-amz-target']).slice('AWSEvents.'.length);
        if (operation !== 'PutEvents')
          throw new AwsError('UnknownOperationException', `The local event bus does not support ${operation.slice(0, 100)}`);
        reply(response, 200, await putEvents(request));
      } catch (error) {
        if (error instanceof AwsError) return reply(response, 400, { __type: error.type, message: error.message });
        logError('Local event bus failure', { error });
        reply(response, 500, { __type: 'InternalException', message: 'The local event bus failed' });
      }
    },
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
}
