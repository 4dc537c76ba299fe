import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { routes, type Route } from '../../shared/api/routes';
import { createPartnerBooking } from '../../shared/booking/partner-bookings';
import { reserve } from '../../shared/booking/reservations';
import { addDays, zonedIso } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { timeslotRouteCases } from '../support/bundle-timeslot-cases';
import { bundle, invokeBundle, invokeSources, type Outcome, bundledBooking, seedSubscriptions, SUBSCRIPTION_ID } from '../support/bundles';
import { createTestOperator, startTestHost, type TestOperator } from '../support/fixtures';
import type { LocalHost } from '../../lib/local/host';
import { prepareUsageRoutes, usageRouteCases } from '../support/bundle-usage-cases';

/**
 * The bundles `cdk deploy` ships, proven: every function is bundled with the
 * stack's own esbuild options (lib/aws/bundling.ts) and its `handler` invoked
 * in a fresh Node process configured only by its environment, as on Lambda,
 * against DynamoDB Local (and the local host's KMS): one accepted and one refused request per route (the
 * functions that are not routes: bundles-background.test.ts). Each answer must
 * equal what the TypeScript sources answer. A dynamic require or a missing
 * external fails here.
 */
const date = tomorrow();
let operator: TestOperator;
/** An operator of the sources' own, for the routes that remove what each side needs to find there (a limit, the usage webhook). */
let sourcesOperator: TestOperator;
/** Only for its KMS: the routes that issue webhook secrets encrypt them there, the bundles as the sources. */
let host: LocalHost;
/** Bookings the routes that move one act on: a hold to confirm, a booking the operator cancels. */
const made = new Map<string, string>();
beforeAll(async () => {
  host = await startTestHost();
  operator = await createTestOperator(testCatalog({ start: date, days: 2, capacity: 10 }), { stem: 'bundled' });
  sourcesOperator = await createTestOperator(undefined, { stem: 'bundled-sources' });
  for (const { operatorId } of [operator, sourcesOperator]) await prepareUsageRoutes(operatorId);
  const caller = { operatorId: operator.operatorId, keyId: 'key_bundled', scopes: ['ota'], timeZone: 'Europe/Lisbon' };
  const hold = await createPartnerBooking(caller, { ...booking(1), Hold: { ExpiresInMinutes: 30 } });
  made.set('confirm-booking', hold.booking.BookingReference);
  made.set('cancel-operator-booking', (await createPartnerBooking(caller, booking(1))).booking.BookingReference);
  made.set('erase-personal-data', (await createPartnerBooking(caller, booking(1))).booking.BookingReference);
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
  await seedSubscriptions(operator.operatorId, ['key_bundled', 'key_sources', 'key_listing']);
});
afterAll(() => host.close());

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
        scopes: 'ota usage:read usage:write bookings:read bookings:write availability:write',
        timeZone: 'Europe/Lisbon',
      },
    },
  } as unknown as APIGatewayProxyEvent;
}

const booking = (participants: number) => bundledBooking(date, participants);

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
  /** Members of the answer each side sets anew (an OCTo change's update time and expiry): masked, in each element of a list. */
  masked?: string[];
  /** Each side calls as an operator of its own (what the accepted request removes is the operator's). */
  ownOperators?: boolean;
  /** Undoes the bundle's accepted write before the sources make it again, for a write no key makes repeatable. */
  undo?: () => Promise<void>;
}

const availabilityAt = (time: string) => zonedIso(date, time, 'Europe/Lisbon');
/** The operator's timeslot routes act on the second day, which no booking of this file uses. */
const nextDay = addDays(date, 1);
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
  // Erasing again answers the booking as the first erasure left it: the sources answer as the bundle did.
  'erase-personal-data': () => ({
    accepted: { body: { BookingReference: made.get('erase-personal-data') as string } },
    refused: { body: {} },
    refusedStatus: 400,
  }),
  'put-webhook': () => ({
    accepted: { body: { Url: 'https://hooks.partner.example/ota' } },
    refused: { body: { Url: 'http://hooks.partner.example/ota' } },
    refusedStatus: 422,
    ownKeys: { masked: ['Secret', 'CreatedAt'] },
  }),
  'list-availability-changes': () => ({
    accepted: { query: { limit: '10' } },
    refused: { query: { since: 'not-a-cursor' } },
    refusedStatus: 410,
    masked: ['Cursor'],
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
  ...usageRouteCases,
  ...timeslotRouteCases(nextDay, () => operator.operatorId),
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
  'octo-create-subscription': () => ({
    accepted: octoBody({ body: { url: 'https://reseller.example.com/octo', notificationTypes: ['BOOKING_UPDATE'] } }),
    refused: { body: { notificationTypes: ['BOOKING_UPDATE'] } },
    refusedStatus: 400,
    ownKeys: { masked: ['id'] },
  }),
  'octo-list-subscriptions': () => ({ accepted: octoBody({ keyId: 'key_listing' }) }),
  'octo-get-subscription': () => ({
    accepted: octoBody({ path: { subscriptionId: SUBSCRIPTION_ID } }),
    refused: { path: { subscriptionId: 'nothing' } },
    refusedStatus: 400,
  }),
  'octo-update-subscription': () => ({
    accepted: octoBody({ path: { subscriptionId: SUBSCRIPTION_ID }, body: { notificationTypes: ['PRODUCT_UPDATE'] } }),
    refused: { path: { subscriptionId: SUBSCRIPTION_ID }, body: { headers: { Host: 'elsewhere.example' } } },
    refusedStatus: 400,
    ownKeys: { masked: [] },
  }),
  'octo-delete-subscription': () => ({
    accepted: octoBody({ path: { subscriptionId: SUBSCRIPTION_ID } }),
    refused: { path: { subscriptionId: 'nothing' } },
    refusedStatus: 400,
    ownKeys: { masked: [] },
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
  for (const element of Array.isArray(record) ? record : [record])
    for (const name of masked) if (element?.[name] !== undefined) element[name] = '(made on each side)';
  return { ...rest, body: parsed, headers: shared };
};

describe('the deployed bundles', () => {
  const references = new Map<string, string>();

  it('has a case for every route', () => {
    expect(Object.keys(cases).sort()).toEqual(routes.map((route) => route.id).sort());
  });

  // In route table order: get-booking and cancel-booking use the booking create-booking made, the webhook routes go put, get, delete.
  it.each(routes.map((route) => [route.id, route] as const))('%s answers as its sources do', async (_, route) => {
    const { accepted, refused, refusedStatus, ownKeys, ownOperators, masked: changed = [], undo } = cases[route.id](references);
    const invocations = (own: Pick<RequestParts, 'keyId' | 'operatorId'> = {}) => [
      { name: 'accepted', event: apiEvent(route, { ...accepted, ...own }) },
      ...(refused ? [{ name: 'refused', event: apiEvent(route, refused) }] : []),
    ];
    const fromBundle = await invokeBundle(await bundle(route.id, route.entry), invocations());
    await undo?.();
    const fromSources = await invokeSources(
      route.entry,
      invocations({ ...(ownKeys ? { keyId: 'key_sources' } : {}), ...(ownOperators ? { operatorId: sourcesOperator.operatorId } : {}) }),
    );

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
});
