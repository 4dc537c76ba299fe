// Long because it is one table: an accepted and a refused request for every deployed bundle, compared with the sources.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context, EventBridgeEvent } from 'aws-lambda';
import { build } from 'esbuild';
import { esbuildOptions } from '../../lib/aws/bundling';
import { scheduledFunctions, webhookSender } from '../../shared/api/background';
import { recordPlatformEventEntry } from '../../shared/api/event-rules';
import { authorizerEntry, entryPath, PROJECT_ROOT, routes, type Route } from '../../shared/api/routes';
import { loadHandler } from '../../functions/load-handler';
import { createPartnerBooking, getPartnerBooking } from '../../shared/booking/partner-bookings';
import { reserve } from '../../shared/booking/reservations';
import { zonedIso } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, type TestOperator } from '../support/fixtures';

/**
 * The bundles `cdk deploy` ships, proven: every function is bundled with the
 * stack's own esbuild options (lib/aws/bundling.ts) and its `handler` invoked
 * in a fresh Node process configured only by its environment, as on Lambda,
 * against DynamoDB Local: one accepted and one refused request per route, the
 * authorizer and the platform-event recorder. Each answer must equal what the
 * TypeScript sources answer. A dynamic require or a missing external fails here.
 */
const execute = promisify(execFile);
const outDir = mkdtempSync(path.join(tmpdir(), 'bundles-'));
const date = tomorrow();

interface Invocation {
  name: string;
  event: unknown;
}
type Outcome = { result: unknown } | { error: string };

/** Runs in the fresh process: loads the bundle, invokes its handler with each event in turn, writes the outcomes. */
const RUNNER = `
const [bundle, eventsFile, outFile] = process.argv.slice(1);
const { readFileSync, writeFileSync } = require('node:fs');
(async () => {
  const { handler } = require(bundle);
  const outcomes = [];
  for (const { name, event } of JSON.parse(readFileSync(eventsFile, 'utf8'))) {
    const context = { awsRequestId: name, functionName: name, getRemainingTimeInMillis: () => 10000 };
    try { outcomes.push({ result: await handler(event, context) }); } catch (error) { outcomes.push({ error: error.message }); }
  }
  writeFileSync(outFile, JSON.stringify(outcomes));
})().catch((error) => { console.error(error); process.exit(1); });`;

async function bundle(name: string, entry: string): Promise<string> {
  const outfile = path.join(outDir, name, 'index.js');
  await build({ entryPoints: [entryPath(entry)], outfile, ...esbuildOptions(), logLevel: 'error' });
  return outfile;
}

/** What the bundle answers and logs, from a process that has only a function's environment (and DynamoDB Local's address). */
async function runBundle(file: string, invocations: Invocation[], environment: Record<string, string> = {}) {
  const eventsFile = `${file}.events.json`;
  const outFile = `${file}.outcomes.json`;
  writeFileSync(eventsFile, JSON.stringify(invocations));
  const { stdout, stderr } = await execute(process.execPath, ['-e', RUNNER, file, eventsFile, outFile], {
    env: {
      PATH: process.env.PATH ?? '',
      LOG_LEVEL: 'ERROR',
      ...Object.fromEntries(
        ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'].map((name) => [
          name,
          process.env[name] ?? '',
        ]),
      ),
      ...environment,
    },
  });
  // Powertools writes ERROR lines to stderr, the others to stdout.
  const lines = `${stdout}\n${stderr}`
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, any>);
  return { outcomes: JSON.parse(readFileSync(outFile, 'utf8')) as Outcome[], lines };
}

const invokeBundle = async (file: string, invocations: Invocation[]): Promise<Outcome[]> => (await runBundle(file, invocations)).outcomes;

/** What the TypeScript sources answer, in this process. */
async function invokeSources(entry: string, invocations: Invocation[]): Promise<Outcome[]> {
  const handler = loadHandler<(event: unknown, context: Context) => Promise<unknown>>(entry);
  const outcomes: Outcome[] = [];
  for (const { name, event } of invocations) {
    try {
      outcomes.push({ result: JSON.parse(JSON.stringify((await handler(event, { awsRequestId: name } as Context)) ?? null)) });
    } catch (error) {
      outcomes.push({ error: (error as Error).message });
    }
  }
  return outcomes;
}

let operator: TestOperator;
/** Bookings the routes that move one act on: a hold to confirm, a booking the operator cancels. */
const made = new Map<string, string>();
beforeAll(async () => {
  operator = await createTestOperator(testCatalog({ start: date, days: 2, capacity: 10 }), { stem: 'bundled' });
  const caller = { operatorId: operator.operatorId, keyId: 'key_bundled', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
  const hold = await createPartnerBooking(caller, { ...booking(1), Hold: { ExpiresInMinutes: 30 } });
  made.set('confirm-booking', hold.booking.BookingReference);
  made.set('cancel-operator-booking', (await createPartnerBooking(caller, booking(1))).booking.BookingReference);
  // OCTo reservations, one for each OCTo route that acts on one.
  for (const id of [
    'octo-get-booking',
    'octo-update-booking',
    'octo-delete-booking',
    'octo-confirm-booking',
    'octo-extend-booking',
    'octo-cancel-booking',
  ]) {
    const { item } = await reserve(caller, {
      requestHash: id,
      activityId: 's_walk1',
      optionId: 'DEFAULT',
      slot: { Date: date, Time: '14:00' },
      unitItems: [{ UnitID: 'adult' }],
    });
    made.set(id, item.UUID as string);
  }
});

interface RequestParts {
  /** The calling key; the sources call as another key of the operator where each side needs state of its own. */
  keyId?: string;
  /** The calling key's operator; an operator that no longer exists is the one refusal a route without input has. */
  operatorId?: string;
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** The event API Gateway hands a route's function after the authorizer let the operator's key through. */
function apiEvent(route: Route, parts: RequestParts): APIGatewayProxyEvent {
  const requestPath = route.path.replace(/\{([^}]+)\}/g, (_, name: string) => parts.path?.[name] ?? '');
  const headers = { ...(parts.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...parts.headers };
  return {
    resource: route.path,
    path: requestPath,
    httpMethod: route.method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: parts.query ?? null,
    multiValueQueryStringParameters: parts.query
      ? Object.fromEntries(Object.entries(parts.query).map(([name, value]) => [name, [value]]))
      : null,
    pathParameters: parts.path ?? null,
    stageVariables: null,
    body: parts.body === undefined ? null : JSON.stringify(parts.body),
    isBase64Encoded: false,
    requestContext: {
      resourcePath: route.path,
      httpMethod: route.method,
      path: `/v1${requestPath}`,
      stage: 'v1',
      requestId: `bundle-${route.id}`,
      authorizer: {
        operatorId: parts.operatorId ?? operator.operatorId,
        keyId: parts.keyId ?? 'key_bundled',
        scopes: 'ota usage:read usage:write bookings:read bookings:write',
        timeZone: 'Europe/Lisbon',
      },
    },
  } as unknown as APIGatewayProxyEvent;
}

const booking = (participants: number) => ({
  ActivityID: 's_walk1',
  Date: date,
  Time: '09:00',
  Participants: participants,
  Customer: { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' },
});

/**
 * One accepted and one refused request per route. Writes carry an
 * Idempotency-Key (or, for cancel, are idempotent themselves), so the sources,
 * invoked after the bundle, answer with the very response the bundle wrote.
 */
interface RouteCase {
  accepted: RequestParts;
  /** A request the route refuses; routes that take no input have none. */
  refused?: RequestParts;
  refusedStatus?: number;
  /** Each side calls as a key of its own (webhook endpoints are per key); members of `data` made anew on each side are masked. */
  ownKeys?: { masked: string[] };
  /** Members of the answer each side sets anew (an OCTo change's update time and expiry): masked. */
  masked?: string[];
}

const availabilityAt = (time: string) => zonedIso(date, time, 'Europe/Lisbon');
const octoBody = (parts: RequestParts): RequestParts => ({ ...parts, headers: { 'Octo-Capabilities': 'octo/pricing', ...parts.headers } });

const cases: Record<string, (references: Map<string, string>) => RouteCase> = {
  'list-products': () => ({ accepted: {}, refused: { query: { name: 'x'.repeat(201) } }, refusedStatus: 422 }),
  'resolve-product': () => ({ accepted: { query: { ID: '501' } }, refused: { query: { ID: 'zero' } }, refusedStatus: 422 }),
  'list-available-dates': () => ({
    accepted: { path: { ActivityID: 's_walk1' }, query: { StartDate: date, EndDate: date } },
    refused: { path: { ActivityID: 's_walk1' }, query: { StartDate: date } },
    refusedStatus: 422,
  }),
  'list-available-timeslots': () => ({
    accepted: { path: { ActivityID: 's_walk1' }, query: { Date: date } },
    refused: { path: { ActivityID: 's_nothing' }, query: { Date: date } },
    refusedStatus: 404,
  }),
  'get-marketplace-questions': () => ({
    accepted: { path: { ActivityID: 's_walk1' } },
    refused: { path: { ActivityID: 's_nothing' } },
    refusedStatus: 404,
  }),
  'get-core-questions': () => ({
    accepted: { path: { ActivityID: 's_walk1' } },
    refused: { path: { ActivityID: 's_nothing' } },
    refusedStatus: 404,
  }),
  'create-booking': () => ({
    accepted: { body: booking(2), headers: { 'Idempotency-Key': 'bundled-booking-1' } },
    refused: { body: { ...booking(2), Participants: 0 } },
    refusedStatus: 422,
  }),
  'get-booking': (references) => ({
    accepted: { path: { BookingReference: references.get('create-booking') as string } },
    refused: { path: { BookingReference: 'ZZZZZZZZZZ' } },
    refusedStatus: 404,
  }),
  'cancel-booking': (references) => ({
    accepted: { path: { BookingReference: references.get('create-booking') as string } },
    refused: { path: { BookingReference: 'ZZZZZZZZZZ' } },
    refusedStatus: 404,
  }),
  'confirm-booking': () => ({
    accepted: { path: { BookingReference: made.get('confirm-booking') as string }, body: {} },
    refused: { path: { BookingReference: 'ZZZZZZZZZZ' }, body: {} },
    refusedStatus: 404,
  }),
  'cancel-operator-booking': () => ({
    accepted: { path: { BookingReference: made.get('cancel-operator-booking') as string }, body: { Reason: 'Storm warning' } },
    refused: { path: { BookingReference: made.get('cancel-operator-booking') as string }, body: {} },
    refusedStatus: 422,
  }),
  'put-webhook': () => ({
    accepted: { body: { Url: 'https://hooks.partner.example/ota' } },
    refused: { body: { Url: 'http://hooks.partner.example/ota' } },
    refusedStatus: 422,
    ownKeys: { masked: ['Secret', 'CreatedAt'] },
  }),
  'get-webhook': () => ({
    accepted: {},
    refused: { keyId: 'key_without_webhook' },
    refusedStatus: 404,
    ownKeys: { masked: ['CreatedAt'] },
  }),
  'delete-webhook': () => ({ accepted: {}, refused: { keyId: 'key_without_webhook' }, refusedStatus: 404, ownKeys: { masked: [] } }),
  'list-bookings': () => ({ accepted: { query: { from: date, to: date } }, refused: { query: { from: date } }, refusedStatus: 422 }),
  'record-usage': () => ({
    accepted: { body: { Meter: 'api-calls', Usage: 1.5 }, headers: { 'Idempotency-Key': 'bundled-usage-1' } },
    refused: { body: { Meter: 'api-calls', Usage: -1 } },
    refusedStatus: 422,
  }),
  // The sources replay the bundle's Identifiers (Replayed: true where the bundle answered false): the entries are masked.
  'record-usage-batch': () => ({
    accepted: {
      body: {
        Entries: [
          { Meter: 'api-calls', Usage: 0.5, Identifier: 'bundled-batch-1' },
          { Meter: 'storage-gb', Usage: 2, Identifier: 'bundled-batch-2' },
        ],
      },
    },
    refused: {
      body: {
        Entries: [
          { Meter: 'api-calls', Usage: 0.5 },
          { Meter: 'order-completed', Usage: 1 },
        ],
      },
    },
    refusedStatus: 422,
    ownKeys: { masked: ['Entries'] },
  }),
  // The entry record-usage made: the sources void it again and answer it unchanged.
  'void-usage-entry': (references) => ({
    accepted: { path: { ID: references.get('record-usage') as string } },
    refused: { path: { ID: 'abc' } },
    refusedStatus: 400,
  }),
  'get-operator': () => ({ accepted: {}, refused: { operatorId: 'op_closed' }, refusedStatus: 404 }),
  'get-usage-summary': () => ({ accepted: { query: { from: date, to: date } }, refused: { query: { from: date } }, refusedStatus: 422 }),
  'octo-get-supplier': () => ({ accepted: octoBody({}) }),
  'octo-list-products': () => ({ accepted: octoBody({}) }),
  'octo-get-product': () => ({
    accepted: octoBody({ path: { productId: 's_walk1' } }),
    refused: { path: { productId: 's_hidden1' } },
    refusedStatus: 400,
  }),
  'octo-availability-calendar': () => ({
    accepted: octoBody({ body: { productId: 's_walk1', optionId: 'DEFAULT', localDateStart: date, localDateEnd: date } }),
    refused: { body: { productId: 's_walk1', optionId: 'DEFAULT', localDateEnd: date } },
    refusedStatus: 400,
  }),
  'octo-check-availability': () => ({
    accepted: octoBody({ body: { productId: 's_walk1', optionId: 'DEFAULT', localDate: date } }),
    refused: { body: { productId: 's_nothing', optionId: 'DEFAULT', localDate: date } },
    refusedStatus: 400,
  }),
  // The same uuid with the same request: the sources answer the booking the bundle made.
  'octo-reserve-booking': () => ({
    accepted: octoBody({
      body: {
        uuid: '5b0c1d2e-0000-4000-8000-0000000000aa',
        productId: 's_walk1',
        optionId: 'DEFAULT',
        availabilityId: availabilityAt('09:00'),
        unitItems: [{ unitId: 'adult' }],
      },
    }),
    refused: { body: { productId: 's_walk1', optionId: 'DEFAULT', availabilityId: availabilityAt('09:00') } },
    refusedStatus: 400,
  }),
  'octo-list-bookings': () => ({ accepted: octoBody({ query: { localDate: date } }), refused: { query: {} }, refusedStatus: 400 }),
  'octo-get-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-get-booking') as string } }),
    refused: { path: { uuid: 'invalidUUID' } },
    refusedStatus: 400,
  }),
  'octo-update-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-update-booking') as string }, body: { notes: 'Window seats' } }),
    refused: { path: { uuid: made.get('octo-update-booking') as string }, body: { unitItems: [] } },
    refusedStatus: 400,
    masked: ['utcUpdatedAt'],
  }),
  'octo-delete-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-delete-booking') as string } }),
    refused: { path: { uuid: 'invalidUUID' } },
    refusedStatus: 400,
  }),
  'octo-confirm-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-confirm-booking') as string }, body: { resellerReference: 'R-bundled' } }),
    refused: { path: { uuid: 'invalidUUID' }, body: {} },
    refusedStatus: 400,
  }),
  'octo-extend-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-extend-booking') as string }, body: { expirationMinutes: 20 } }),
    refused: { path: { uuid: 'invalidUUID' }, body: {} },
    refusedStatus: 400,
    masked: ['utcUpdatedAt', 'utcExpiresAt'],
  }),
  'octo-cancel-booking': () => ({
    accepted: octoBody({ path: { uuid: made.get('octo-cancel-booking') as string }, body: { reason: 'Customer changed plans' } }),
    refused: { path: { uuid: 'invalidUUID' }, body: {} },
    refusedStatus: 400,
  }),
};

/**
 * An answer as both must give it: the body as JSON (a replayed write comes back
 * from the table, its members in another order), and the headers both share:
 * the sources answer a replayed write with Idempotent-Replayed on top.
 */
const comparable = (masked: string[], octo: boolean) => (outcome: Outcome) => {
  if (!('result' in outcome)) return outcome;
  const { headers, body, ...rest } = outcome.result as APIGatewayProxyResult;
  const { 'Idempotent-Replayed': _replayed, ...shared } = headers ?? {};
  const parsed = body ? JSON.parse(body) : body;
  // OCTo answers are bare; the others are `{ data }`.
  const record = octo ? parsed : parsed?.data;
  for (const name of masked) if (record?.[name] !== undefined) record[name] = '(made on each side)';
  return { ...rest, body: parsed, headers: shared };
};

describe('the deployed bundles', () => {
  const references = new Map<string, string>();

  it('has a case for every route', () => {
    expect(Object.keys(cases).sort()).toEqual(routes.map((route) => route.id).sort());
  });

  // In route table order: get-booking and cancel-booking use the booking create-booking made, the webhook routes go put, get, delete.
  it.each(routes.map((route) => [route.id, route] as const))('%s answers as its sources do', async (_, route) => {
    const { accepted, refused, refusedStatus, ownKeys, masked: changed = [] } = cases[route.id](references);
    const invocations = (keyId?: string) => [
      { name: 'accepted', event: apiEvent(route, { ...accepted, ...(keyId ? { keyId } : {}) }) },
      ...(refused ? [{ name: 'refused', event: apiEvent(route, refused) }] : []),
    ];
    const fromBundle = await invokeBundle(await bundle(route.id, route.entry), invocations());
    const fromSources = await invokeSources(route.entry, invocations(ownKeys ? 'key_sources' : undefined));

    const [acceptedAnswer, refusedAnswer] = fromBundle.map((outcome) =>
      'result' in outcome ? (outcome.result as APIGatewayProxyResult) : outcome,
    );
    expect(acceptedAnswer).toMatchObject({ statusCode: expect.any(Number) });
    expect((acceptedAnswer as APIGatewayProxyResult).statusCode).toBeLessThan(300);
    const octo = route.face === 'octo';
    if (refused) {
      const contentType = octo ? 'application/json' : 'application/problem+json';
      expect(refusedAnswer).toMatchObject({ statusCode: refusedStatus, headers: { 'Content-Type': contentType } });
    }
    const masked = [...(ownKeys?.masked ?? []), ...changed];
    expect(fromSources.map(comparable(masked, octo))).toEqual(fromBundle.map(comparable(masked, octo)));
    if (route.id === 'create-booking')
      references.set(route.id, JSON.parse((acceptedAnswer as APIGatewayProxyResult).body).data.BookingReference);
    if (route.id === 'record-usage') references.set(route.id, String(JSON.parse((acceptedAnswer as APIGatewayProxyResult).body).data.ID));
  });

  it('authorizer: allows a real key with its usage plan identifier and refuses an unknown one', async () => {
    const event = (key: string) => ({
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:eu-west-1:000000000000:api/v1/GET/api/v2/ota/marketplace/products',
      headers: { Authorization: `Bearer ${key}` },
    });
    const invocations = [
      { name: 'accepted', event: event(operator.key) },
      { name: 'refused', event: event('ak_never-issued') },
    ];
    const fromBundle = await invokeBundle(await bundle('authorizer', authorizerEntry), invocations);
    expect(fromBundle[0]).toMatchObject({
      result: {
        principalId: expect.stringMatching(/^key_/),
        usageIdentifierKey: expect.stringMatching(/^uk_/),
        policyDocument: { Statement: [{ Effect: 'Allow' }] },
        context: { operatorId: operator.operatorId },
      },
    });
    expect(fromBundle[1]).toEqual({ error: 'Unauthorized' });
    expect(await invokeSources(authorizerEntry, invocations)).toEqual(fromBundle);
  });

  it('send-webhooks: takes a batch of stream records, passing over a delivery that is not queued, and reports a record it cannot read as that record alone', async () => {
    const record = (sequenceNumber: string, image: Record<string, string>) => ({
      eventName: 'INSERT',
      eventSource: 'aws:dynamodb',
      dynamodb: {
        SequenceNumber: sequenceNumber,
        StreamViewType: 'NEW_IMAGE',
        NewImage: Object.fromEntries(Object.entries(image).map(([name, value]) => [name, { S: value }])),
      },
    });
    const queued = (deliveryId: string) => ({
      OperatorID: operator.operatorId,
      DeliveryID: deliveryId,
      QueuedAt: new Date(0).toISOString(),
    });
    const invocations = [
      { name: 'accepted', event: { Records: [record('1', queued('dlv_none'))] } },
      { name: 'refused', event: { Records: [record('2', { Entity: 'WebhookDelivery' }), record('3', queued('dlv_other'))] } },
    ];
    const fromBundle = await invokeBundle(await bundle(webhookSender.id, webhookSender.entry), invocations);
    expect(fromBundle[0]).toEqual({ result: { batchItemFailures: [] } });
    expect(fromBundle[1]).toEqual({ result: { batchItemFailures: [{ itemIdentifier: '2' }] } });
    expect(await invokeSources(webhookSender.entry, invocations)).toEqual(fromBundle);
  });

  it('expire-holds: the bundled sweep expires a hold that is due', async () => {
    // Placed two hours ago for 30 minutes: due now.
    const caller = { operatorId: operator.operatorId, keyId: 'key_bundled', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
    const placedAt = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const { booking: hold } = await createPartnerBooking(caller, { ...booking(1), Hold: { ExpiresInMinutes: 30 } }, undefined, placedAt);
    expect(hold.Status).toBe('ON_HOLD');

    const sweep = scheduledFunctions.find((row) => row.id === 'expire-holds')!;
    const [fromBundle] = await invokeBundle(await bundle(sweep.id, sweep.entry), [{ name: 'scheduled', event: {} }]);
    expect(fromBundle).toEqual({ result: { expired: expect.any(Number) } });
    expect((fromBundle as { result: { expired: number } }).result.expired).toBeGreaterThanOrEqual(1);
    expect((await getPartnerBooking(caller, hold.BookingReference)).Status).toBe('EXPIRED');
  });

  it('record-platform-event: records an EventBridge event, and fails on one it can never record', async () => {
    const event = (id: string, detail: Record<string, unknown>): EventBridgeEvent<string, unknown> => ({
      version: '0',
      id,
      'detail-type': 'Order Completed',
      source: 'platform.orders',
      account: '000000000000',
      time: `${date}T10:00:00Z`,
      region: 'eu-west-1',
      resources: [],
      detail,
    });
    const invocations = [
      {
        name: 'accepted',
        event: event('5b0c1d2e-0000-4000-8000-00000000b001', { OperatorID: operator.operatorId, BasketID: 'b_bundled' }),
      },
      { name: 'refused', event: event('5b0c1d2e-0000-4000-8000-00000000b002', { OperatorID: operator.operatorId }) },
    ];
    const fromBundle = await invokeBundle(await bundle('record-platform-event', recordPlatformEventEntry), invocations);
    expect(fromBundle[0]).toMatchObject({ result: { outcome: 'recorded', meter: 'order-completed', operatorId: operator.operatorId } });
    expect(fromBundle[1]).toEqual({ error: expect.stringMatching(/BasketID/) });
    // The sources see the same event again: the same entry, as a replay.
    const fromSources = await invokeSources(recordPlatformEventEntry, invocations);
    expect(fromSources[0]).toEqual({ result: { ...(fromBundle[0] as { result: object }).result, outcome: 'replayed' } });
    expect(fromSources[1]).toEqual(fromBundle[1]);
  });
});

describe("Node's web streams are loaded when first used, not with a bundle", () => {
  it("a bundle that imports them (through @middy/core) loads the stand-in, and the stand-in answers every name with Node's own class", async () => {
    const file = await bundle('confirm-booking-streams', routes.find((route) => route.id === 'confirm-booking')!.entry);
    const source = readFileSync(file, 'utf8');
    expect(source).not.toMatch(/require\("node:stream\/web"\)/);
    expect(source).toContain('TextDecoderStream');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the stand-in, as the bundles load it
    const standIn = require(path.join(PROJECT_ROOT, 'lib/aws/web-streams-on-demand.cjs'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- what it stands in for
    const webStreams = require('node:stream/web');
    expect(Object.keys(standIn)).toEqual(Object.keys(webStreams));
    for (const name of Object.keys(webStreams)) expect({ name, same: standIn[name] === webStreams[name] }).toEqual({ name, same: true });
  });
});

describe('stack traces of the deployed bundles point at the sources', () => {
  /** The line of `text` in a source file, 1-based, as a mapped stack names it. */
  const lineOf = (file: string, text: string) =>
    readFileSync(entryPath(file), 'utf8')
      .split('\n')
      .findIndex((line) => line.includes(text)) + 1;

  it('a 5xx logged by a bundle names file.ts:line, mapped with the map beside it when (and only when) the error is logged', async () => {
    const file = await bundle('list-products-failing', 'functions/ota/list-products.ts');
    const event = {
      httpMethod: 'GET',
      resource: '/api/v2/ota/marketplace/products',
      path: '/api/v2/ota/marketplace/products',
      headers: {},
      requestContext: { requestId: 'bundle-5xx', authorizer: { operatorId: 'op-x', keyId: 'key_x', scopes: 'ota', timeZone: 'UTC' } },
    };
    // A table that does not exist: DynamoDB refuses the query, the function answers 500 and logs why.
    const { outcomes, lines } = await runBundle(file, [{ name: 'failing', event }], { TABLE_NAME: 'no-such-table' });
    expect(outcomes[0]).toMatchObject({ result: { statusCode: 500 } });
    const [line] = lines.filter((candidate) => candidate.level === 'ERROR');
    expect(line).toMatchObject({ message: 'Request', route: 'list-products', status: 500, error: { name: 'ResourceNotFoundException' } });
    // The query that failed, at its line in the sources (and the SDK's frames at theirs).
    const query = lineOf('shared/catalog/repository.ts', 'await documentClient().send(new QueryCommand');
    expect(line.error.stack).toContain(`shared/catalog/repository.ts:${query}:`);
    expect(line.error.stack).toMatch(/node_modules\/@aws-sdk\/[^:]+\.js:\d+:\d+/);
    // No frame of the service's own code is left in the minified bundle.
    expect(line.error.stack).not.toMatch(/list-products-failing\/index\.js:\d+/);
  });

  it("npm run map-stack maps a stack copied from elsewhere with the asset's map", async () => {
    const outfile = path.join(outDir, 'throwing', 'index.js');
    await build({
      stdin: {
        contents:
          "import { checkActivityId } from './shared/booking/partner-bookings';" +
          "try { checkActivityId('not-an-activity'); } catch (error) { process.stdout.write(String(error.stack)); }",
        resolveDir: entryPath('.'),
        loader: 'ts',
      },
      outfile,
      ...esbuildOptions(),
      logLevel: 'error',
    });
    const { stdout: raw } = await execute(process.execPath, [outfile], { env: { PATH: process.env.PATH ?? '', TABLE_NAME: 't' } });
    expect(raw).toMatch(/throwing\/index\.js:\d+:\d+/);
    const stackFile = `${outfile}.stack.txt`;
    writeFileSync(stackFile, raw);
    const { stdout: mapped } = await execute(
      process.execPath,
      ['--import', 'tsx', entryPath('scripts/map-stack.ts'), `${outfile}.map`, stackFile],
      {
        env: { PATH: process.env.PATH ?? '' },
      },
    );
    const throwing = lineOf('shared/booking/partner-bookings.ts', "throw new InvalidRequestError(\"Field 'ActivityID'");
    expect(mapped).toContain(`shared/booking/partner-bookings.ts:${throwing}:`);
    expect(mapped).not.toMatch(/throwing\/index\.js:\d+:\d+/);
  });
});
