import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { EventBridgeEvent } from 'aws-lambda';
import { loadHandler } from '../../functions/load-handler';
import { PLATFORM_EVENT_BUS, recordPlatformEventEntry, ruleFor } from '../../shared/api/event-rules';
import { systemClock, type Clock } from '../../shared/core/clock';
import { AwsApiError, awsJsonEndpoint, backgroundDeliveries, type LocalAwsStandIn } from './aws-stand-in';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './defaults';
import { lambdaContext } from './lambda-context';

/**
 * Plays EventBridge on one machine: answers the PutEvents call of the AWS
 * SDK (JSON 1.1 protocol) on the local host's port, matches each entry
 * against the rules of shared/api/event-rules.ts, and invokes the rules'
 * function asynchronously, as EventBridge and Lambda do: PutEvents is
 * answered at once; a failed invocation is retried, and one that keeps
 * failing is logged and kept as a dead letter. Only calls signed (SigV4) with
 * the local credentials are taken, as EventBridge takes only signed calls.
 * What it shares with the queue (the protocol, the deliveries) is aws-stand-in.ts.
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

/**
 * EventBridge's PutEvents, whose deliveries are the invocations of the rules'
 * function; `events` keeps what the bus took (the most recent), as a rule
 * with a catch-all pattern and a log target would: the service's own events
 * (usage threshold alerts) can be seen there.
 */
export type LocalEventBus = LocalAwsStandIn<DeadLetter> & { readonly events: readonly EventBridgeEvent<string, unknown>[] };

/** How many of the events put the local bus keeps. */
const KEPT_EVENTS = 1000;

interface PutEventsEntry {
  Source?: unknown;
  DetailType?: unknown;
  Detail?: unknown;
  EventBusName?: unknown;
  Time?: unknown;
  Resources?: unknown;
}

type EntryError = { ErrorCode: string; ErrorMessage: string };
type EntryResult = { EventId: string } | EntryError;

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
  if (misfit >= 0) throw new AwsApiError('SerializationException', `Entries[${misfit}] does not have the shape of a PutEvents entry`);
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

const entryError = (ErrorCode: string, ErrorMessage: string): EntryError => ({ ErrorCode, ErrorMessage });

/** The event an entry puts on the bus, or why EventBridge would refuse the entry. */
function readEntry(entry: PutEventsEntry, clock: Clock): EventBridgeEvent<string, unknown> | EntryError {
  for (const field of ['Source', 'DetailType', 'Detail'] as const) {
    if (typeof entry[field] !== 'string' || !entry[field]) {
      return entryError('InvalidArgument', `Parameter ${field} is not valid. Reason: ${field} is a required argument.`);
    }
  }
  if (entry.Resources !== undefined && !(Array.isArray(entry.Resources) && entry.Resources.every((r) => typeof r === 'string'))) {
    return entryError('InvalidArgument', 'Parameter Resources is not valid: a list of ARNs.');
  }
  if (entrySize(entry) > MAX_ENTRY_BYTES) return entryError('InvalidArgument', 'Entry size is over the 256 KB limit.');
  if (!isDefaultBus(entry.EventBusName)) {
    return entryError('NotFoundException', `Event bus ${String(entry.EventBusName)} does not exist.`);
  }
  const detail = parseDetail(entry.Detail as string);
  if (detail === undefined) return entryError('MalformedDetail', 'Detail is malformed.');
  const time = entryTime(entry, clock);
  if (!time) return entryError('InvalidArgument', 'Parameter Time is not valid.');
  return envelope(entry, detail, time);
}

/** The call's entries: between 1 and MAX_ENTRIES, each of the shape of an entry. */
function entriesOf(body: unknown): PutEventsEntry[] {
  const entries = (body as { Entries?: unknown } | null)?.Entries;
  if (!Array.isArray(entries) || entries.length < 1 || entries.length > MAX_ENTRIES) {
    throw new AwsApiError(
      'ValidationException',
      `1 validation error detected: Value at 'entries' failed to satisfy constraint: Member must have length between 1 and ${MAX_ENTRIES}`,
    );
  }
  checkShape(entries);
  return entries;
}

/** The rules' function, loaded on its first invocation and invoked as Lambda invokes it. */
function platformEventRecorder(clock: Clock): (event: EventBridgeEvent<string, unknown>) => Promise<void> {
  const functionName = path.basename(recordPlatformEventEntry, '.ts');
  let handler: EventHandler | undefined;
  return async (event) => {
    handler ??= loadHandler<EventHandler>(recordPlatformEventEntry);
    await handler(event, lambdaContext(functionName, clock));
  };
}

export function createLocalEventBus(options: LocalEventBusOptions = {}): LocalEventBus {
  const clock = options.clock ?? systemClock;
  const record = platformEventRecorder(clock);
  const deliveries = backgroundDeliveries<DeadLetter>({
    name: 'event bus',
    retryDelaysMs: options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS,
    deadLetterMessage: 'Dead letter: platform event not recorded',
  });

  const events: EventBridgeEvent<string, unknown>[] = [];

  function putEntry(entry: PutEventsEntry): EntryResult {
    const event = readEntry(entry, clock);
    if ('ErrorCode' in event) return event;
    if (events.push(event) > KEPT_EVENTS) events.shift();
    if (ruleFor(event)) {
      deliveries.start({
        logFields: { eventId: event.id },
        attempt: () => record(event),
        deadLetter: (error, attempts) => ({ event, error: error instanceof Error ? error.message : String(error), attempts }),
      });
    }
    return { EventId: event.id };
  }

  async function putEvents(body: unknown): Promise<{ FailedEntryCount: number; Entries: EntryResult[] }> {
    const results = entriesOf(body).map(putEntry);
    return { FailedEntryCount: results.filter((result) => 'ErrorCode' in result).length, Entries: results };
  }

  return {
    ...awsJsonEndpoint({
      signingName: 'events',
      targetPrefix: 'AWSEvents.',
      jsonVersion: '1.1',
      maxRequestBytes: MAX_REQUEST_BYTES,
      tooLarge: { type: 'ValidationException', message: 'Total size of the entries in the request is over the limit.' },
      name: 'event bus',
      internalErrorType: 'InternalException',
      async operate(operation, input) {
        if (operation !== 'PutEvents') {
          throw new AwsApiError('UnknownOperationException', `The local event bus does not support ${operation.slice(0, 100)}`);
        }
        return putEvents(await input());
      },
    }),
    idle: deliveries.idle,
    deadLetters: deliveries.deadLetters,
    events,
  };
}
