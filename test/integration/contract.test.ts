// Long because it is one table: a real request for every documented status of every route, checked against the OpenAPI document.
import { readFileSync } from 'node:fs';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalHost } from '../../lib/local/host';
import { OPENAPI_PATH, openApiDocument } from '../../shared/http/openapi';
import { octoDocument } from '../../shared/octo/openapi';
import { ANY_KEY, routes, type Route } from '../../shared/api/routes';
import { SCOPES, type Scope } from '../../shared/accounts/scopes';
import { config } from '../../shared/core/config';
import { documentClient, tableName } from '../../shared/db/client';
import * as bookingKeys from '../../shared/db/booking-keys';
import { contendedPartnerRegistration } from '../support/registration-race';
import { addDays, wallClock } from '../../shared/core/calendar';
import { testCatalog, tomorrow } from '../support/catalog';
import { createTestOperator, httpClient, startTestHost, type HttpClient, type TestOperator, useOwnTable } from '../support/fixtures';
import { documentValidator, documentedResponse } from '../support/openapi';
import { cappedMeter, usageLimitCases } from '../support/usage-limit-cases';
import {
  PLAIN_TEXT,
  TOO_LARGE,
  changesFeedCases,
  erasureCases,
  timeslotCases,
  type ContractWorld,
  type Response,
  type Send,
} from '../support/contract-timeslots';

/**
 * Drives every route through the local host, for its success and for each
 * error status it documents (those a client can provoke), and holds each
 * real response to the document: the status must be documented, the
 * Content-Type must be the documented one, and the body must be valid
 * against the documented schema.
 */

const document = openApiDocument({ octo: octoDocument }, { problemBaseUrl: config().problemBaseUrl });
const errorsOf = documentValidator(document);
/** The OCTo routes have a table of their own, in OCTo's terms: octo-contract.test.ts. */
const marketplaceRoutes = routes.filter((route) => route.face !== 'octo');

/** The statuses a client can provoke; 429, 500 and 504 come from load, faults and time, not from a request. */
const DRIVEN_STATUSES = [200, 201, 204, 400, 401, 403, 404, 409, 410, 413, 415, 422];

let host: LocalHost;
let request: HttpClient;
let operator: TestOperator;
/** The webhook routes' own partner key, so that no other case here sends webhooks. */
let webhookKey: string;
const [start, later] = [tomorrow(), addDays(tomorrow(), 3)];

beforeAll(async () => {
  await useOwnTable({ tableName: 'ota-usage-contract-test' });
  operator = await createTestOperator(testCatalog({ start, days: 7, capacity: 10 }));
  webhookKey = await operator.keyWith(['ota']);
  host = await startTestHost();
  request = httpClient(host);
});

afterAll(() => host.close());

const routeById = (id: string): Route => routes.find((route) => route.id === id)!;

/** Sends to a route, with the path parameters filled in and the full-scope key unless told otherwise. */
function sender(route: Route, pathParameters: Record<string, string> = {}, query = ''): Send {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(pathParameters[name]));
  return (options) => request(route.method, `${path}${query}`, { key: operator.key, ...options });
}

/** A key with every scope but the route's. */
const keyWithout = (scope: Scope) => operator.keyWith((Object.keys(SCOPES) as Scope[]).filter((other) => other !== scope));

const customer = { FirstName: 'Ana', LastName: 'Silva', Email: 'ana@example.com', Phone: '+351912345678' };
const answers = [
  { QuestionID: 'q_name', Value: 'Ana Silva' },
  { QuestionID: 'q_doc', Value: 'https://files.partner.example/waivers/123.pdf' },
];
const bookingBody = (overrides: Record<string, unknown> = {}) => ({
  ActivityID: 's_walk1',
  Date: start,
  Time: '09:00',
  Participants: 2,
  Customer: customer,
  PaymentReference: 'pay_1',
  Answers: answers,
  ...overrides,
});

async function newHold(): Promise<string> {
  return newBooking({ Hold: { ExpiresInMinutes: 30 }, Date: addDays(start, 1), Participants: 1 });
}

async function newBooking(overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await request('POST', routeById('create-booking').path, { key: operator.key, body: bookingBody(overrides) });
  expect(response.status).toBe(201);
  return response.json.data.BookingReference;
}

/** A booking whose timeslot has started: made for tomorrow, then moved to yesterday in the table (as time would). */
async function startedBooking(): Promise<string> {
  const reference = await newBooking({ Time: '14:00', Participants: 1 });
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: bookingKeys.booking(operator.operatorId, reference),
      UpdateExpression: 'SET #date = :yesterday',
      ExpressionAttributeNames: { '#date': 'Date' },
      ExpressionAttributeValues: { ':yesterday': addDays(wallClock('Europe/Lisbon').date, -1) },
    }),
  );
  return reference;
}

/** How to provoke each status of each route. A route's 401 and 403 are added for every route below. */
const world: ContractWorld = {
  send: (id, path, query) => sender(routeById(id), path, query),
  newBooking,
  operatorId: () => operator.operatorId,
  idle: () => host.tableStream.idle(),
  start,
};

const cases: Record<string, Record<number, () => Promise<Response>>> = {
  'list-products': {
    200: () => sender(routeById('list-products'), {}, '?name=walk')({}),
    422: () => sender(routeById('list-products'), {}, `?name=${'a'.repeat(201)}`)({}),
  },
  'resolve-product': {
    200: () => sender(routeById('resolve-product'), {}, '?ID=501')({}),
    400: () => sender(routeById('resolve-product'), {}, '?ID=501&Name=Harbour%20Walking%20Tour')({}),
    404: () => sender(routeById('resolve-product'), {}, '?ID=502')({}),
    422: () => sender(routeById('resolve-product'), {}, '?ID=abc')({}),
  },
  'list-available-dates': {
    200: () => sender(routeById('list-available-dates'), { ActivityID: 's_walk1' }, `?StartDate=${start}&EndDate=${later}`)({}),
    400: () => sender(routeById('list-available-dates'), { ActivityID: 'walk1' }, `?StartDate=${start}&EndDate=${later}`)({}),
    404: () => sender(routeById('list-available-dates'), { ActivityID: 's_nothing' }, `?StartDate=${start}&EndDate=${later}`)({}),
    422: () => sender(routeById('list-available-dates'), { ActivityID: 's_walk1' }, `?StartDate=${start}`)({}),
  },
  'list-available-timeslots': {
    200: () => sender(routeById('list-available-timeslots'), { ActivityID: 's_walk1' }, `?Date=${start}`)({}),
    400: () => sender(routeById('list-available-timeslots'), { ActivityID: 's_' }, `?Date=${start}`)({}),
    404: () => sender(routeById('list-available-timeslots'), { ActivityID: 's_hidden1' }, `?Date=${start}`)({}),
    422: () => sender(routeById('list-available-timeslots'), { ActivityID: 's_walk1' }, '?Date=2026-02-30')({}),
  },
  'get-marketplace-questions': {
    200: () => sender(routeById('get-marketplace-questions'), { ActivityID: 's_walk1' })({}),
    400: () => sender(routeById('get-marketplace-questions'), { ActivityID: 'walk 1' })({}),
    404: () => sender(routeById('get-marketplace-questions'), { ActivityID: 's_nothing' })({}),
  },
  'get-core-questions': {
    200: () => sender(routeById('get-core-questions'), { ActivityID: 's_walk1' })({}),
    400: () => sender(routeById('get-core-questions'), { ActivityID: 'walk 1' })({}),
    404: () => sender(routeById('get-core-questions'), { ActivityID: 's_nothing' })({}),
  },
  'create-booking': {
    201: () =>
      sender(routeById('create-booking'))({ body: bookingBody(), headers: { 'Idempotency-Key': `contract-${operator.operatorId}` } }),
    400: () => sender(routeById('create-booking'))({ rawBody: '{"ActivityID":', headers: { 'Content-Type': 'application/json' } }),
    404: () => sender(routeById('create-booking'))({ body: bookingBody({ ActivityID: 's_nothing' }) }),
    409: async () => {
      await newBooking({ Date: later, Participants: 10 });
      return sender(routeById('create-booking'))({ body: bookingBody({ Date: later, Participants: 1 }) });
    },
    413: () => sender(routeById('create-booking'))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
    415: () => sender(routeById('create-booking'))({ rawBody: JSON.stringify(bookingBody()), headers: PLAIN_TEXT }),
    422: () => sender(routeById('create-booking'))({ body: bookingBody({ Customer: { ...customer, Phone: '0912' } }) }),
  },
  'get-booking': {
    200: async () => sender(routeById('get-booking'), { BookingReference: await newBooking() })({}),
    400: () => sender(routeById('get-booking'), { BookingReference: 'SHORT' })({}),
    404: () => sender(routeById('get-booking'), { BookingReference: 'ABCDEFGHJK' })({}),
  },
  'cancel-booking': {
    200: async () => sender(routeById('cancel-booking'), { BookingReference: await newBooking() })({}),
    400: () => sender(routeById('cancel-booking'), { BookingReference: 'OOOOOOOOOO' })({}),
    404: () => sender(routeById('cancel-booking'), { BookingReference: 'ABCDEFGHJK' })({}),
    409: async () => sender(routeById('cancel-booking'), { BookingReference: await startedBooking() })({}),
  },
  'confirm-booking': {
    200: async () => sender(routeById('confirm-booking'), { BookingReference: await newHold() })({ body: {} }),
    400: () => sender(routeById('confirm-booking'), { BookingReference: 'OOOOOOOOOO' })({ body: {} }),
    404: () => sender(routeById('confirm-booking'), { BookingReference: 'ABCDEFGHJK' })({ body: {} }),
    409: async () => {
      const reference = await newHold();
      await sender(routeById('cancel-booking'), { BookingReference: reference })({});
      return sender(routeById('confirm-booking'), { BookingReference: reference })({ body: {} });
    },
    413: () =>
      sender(routeById('confirm-booking'), { BookingReference: 'ABCDEFGHJK' })({
        rawBody: TOO_LARGE,
        headers: { 'Content-Type': 'application/json' },
      }),
    415: () => sender(routeById('confirm-booking'), { BookingReference: 'ABCDEFGHJK' })({ rawBody: '{}', headers: PLAIN_TEXT }),
    422: async () =>
      sender(routeById('confirm-booking'), { BookingReference: await newHold() })({ body: { Customer: { ...customer, Email: 'no' } } }),
  },
  'cancel-operator-booking': {
    200: async () => sender(routeById('cancel-operator-booking'), { BookingReference: await newBooking() })({ body: { Reason: 'Storm' } }),
    400: () => sender(routeById('cancel-operator-booking'), { BookingReference: 'OOOOOOOOOO' })({ body: { Reason: 'Storm' } }),
    404: () => sender(routeById('cancel-operator-booking'), { BookingReference: 'ABCDEFGHJK' })({ body: { Reason: 'Storm' } }),
    413: () =>
      sender(routeById('cancel-operator-booking'), { BookingReference: 'ABCDEFGHJK' })({
        rawBody: TOO_LARGE,
        headers: { 'Content-Type': 'application/json' },
      }),
    415: () =>
      sender(routeById('cancel-operator-booking'), { BookingReference: 'ABCDEFGHJK' })({ rawBody: '{"Reason":"x"}', headers: PLAIN_TEXT }),
    422: () => sender(routeById('cancel-operator-booking'), { BookingReference: 'ABCDEFGHJK' })({ body: { Reason: '  ' } }),
  },
  ...erasureCases(world),
  ...timeslotCases(world),
  ...changesFeedCases(world),
  'put-webhook': {
    200: () => sender(routeById('put-webhook'))({ key: webhookKey, body: { Url: 'https://partner.example.com/hooks/ota' } }),
    400: () => sender(routeById('put-webhook'))({ key: webhookKey, rawBody: '{"Url":', headers: { 'Content-Type': 'application/json' } }),
    413: () => sender(routeById('put-webhook'))({ key: webhookKey, rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
    415: () =>
      sender(routeById('put-webhook'))({ key: webhookKey, rawBody: '{"Url":"https://partner.example.com/"}', headers: PLAIN_TEXT }),
    422: () => sender(routeById('put-webhook'))({ key: webhookKey, body: { Url: 'https://169.254.169.254/latest/meta-data' } }),
    409: () => contendedPartnerRegistration(operator, sender(routeById('put-webhook'))),
  },
  'get-webhook': {
    200: async () => {
      await sender(routeById('put-webhook'))({ key: webhookKey, body: { Url: 'https://partner.example.com/hooks/ota' } });
      return sender(routeById('get-webhook'))({ key: webhookKey });
    },
    404: async () => sender(routeById('get-webhook'))({ key: await operator.keyWith(['ota']) }),
  },
  'delete-webhook': {
    204: async () => {
      const key = await operator.keyWith(['ota']);
      await sender(routeById('put-webhook'))({ key, body: { Url: 'https://partner.example.com/hooks/ota' } });
      return sender(routeById('delete-webhook'))({ key });
    },
    404: async () => sender(routeById('delete-webhook'))({ key: await operator.keyWith(['ota']) }),
  },
  'list-bookings': {
    200: async () => {
      await newBooking();
      const today = wallClock('Europe/Lisbon').date;
      return sender(routeById('list-bookings'), {}, `?from=${addDays(today, -1)}&to=${addDays(today, 1)}&limit=2`)({});
    },
    422: () => sender(routeById('list-bookings'), {}, '?from=2026-03-10&to=2026-03-01')({}),
  },
  'record-usage': {
    201: () =>
      sender(routeById('record-usage'))({
        body: { Meter: 'storage-gb', Usage: 0.25, ExtraInfo: '{"Bucket":"photos"}', Dimensions: { Region: 'eu-west', Plan: 'pro' } },
      }),
    400: () => sender(routeById('record-usage'))({ rawBody: '{"Meter"', headers: { 'Content-Type': 'application/json' } }),
    413: () => sender(routeById('record-usage'))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
    415: () => sender(routeById('record-usage'))({ rawBody: '{"Meter":"storage-gb","Usage":1}', headers: PLAIN_TEXT }),
    409: async () => {
      await cappedMeter((id: string, path?: Record<string, string>) => sender(routeById(id), path));
      return sender(routeById('record-usage'))({ body: { Meter: 'capped', Usage: 2 } });
    },
    422: () => sender(routeById('record-usage'))({ body: { Meter: 'storage-gb', Usage: '1' } }),
  },
  'record-usage-batch': {
    201: () =>
      sender(routeById('record-usage-batch'))({
        body: {
          Entries: [
            { Meter: 'storage-gb', Usage: 0.25, Identifier: 'contract-1', Dimensions: { Region: 'eu-west' } },
            { Meter: 'api-calls', Usage: 2 },
          ],
        },
      }),
    400: () => sender(routeById('record-usage-batch'))({ rawBody: '{"Entries":[', headers: { 'Content-Type': 'application/json' } }),
    413: () => sender(routeById('record-usage-batch'))({ rawBody: TOO_LARGE, headers: { 'Content-Type': 'application/json' } }),
    409: async () => {
      await cappedMeter((id: string, path?: Record<string, string>) => sender(routeById(id), path));
      return sender(routeById('record-usage-batch'))({
        body: {
          Entries: [
            { Meter: 'capped', Usage: 0.5, Identifier: 'contract-capped' },
            { Meter: 'capped', Usage: 2 },
          ],
        },
      });
    },
    415: () => sender(routeById('record-usage-batch'))({ rawBody: '{"Entries":[]}', headers: PLAIN_TEXT }),
    422: () =>
      sender(routeById('record-usage-batch'))({
        body: {
          Entries: [
            { Meter: 'a', Usage: 1 },
            { Meter: 'b', Usage: 0.0000001 },
            { Meter: 'order-completed', Usage: 1 },
          ],
        },
      }),
  },
  'void-usage-entry': {
    200: async () => {
      const recorded = await sender(routeById('record-usage'))({ body: { Meter: 'storage-gb', Usage: 0.5, Dimensions: { Plan: 'free' } } });
      return sender(routeById('void-usage-entry'), { ID: String(recorded.json.data.ID) })({});
    },
    400: () => sender(routeById('void-usage-entry'), { ID: 'abc' })({}),
    404: () => sender(routeById('void-usage-entry'), { ID: '1' })({}),
  },
  'get-operator': {
    200: () => sender(routeById('get-operator'))({}),
  },
  'get-usage-summary': {
    200: async () => {
      await sender(routeById('record-usage'))({ body: { Meter: 'summarised', Usage: 3, Dimensions: { Region: 'eu-west', Plan: 'pro' } } });
      await sender(routeById('record-usage'))({ body: { Meter: 'summarised', Usage: 1, Dimensions: { Plan: 'pro' } } });
      const today = new Date().toISOString().slice(0, 10);
      const response = await sender(
        routeById('get-usage-summary'),
        {},
        `?from=${today}&to=${today}&granularity=day&groupBy=Region&filter%5BPlan%5D=pro`,
      )({});
      // Grouped: the documented Dimensions, null for the entry without the key.
      expect(response.json.data.Meters.filter((item: { Meter: string }) => item.Meter === 'summarised')).toEqual([
        expect.objectContaining({ Dimensions: { Region: 'eu-west' }, TotalUsage: 3 }),
        expect.objectContaining({ Dimensions: { Region: null }, TotalUsage: 1 }),
      ]);
      return response;
    },
    422: () => sender(routeById('get-usage-summary'), {}, '?from=2026-03-10&to=2026-03-11&filter%5B__proto__%5D=x')({}),
  },
  ...usageLimitCases((id: string, path?: Record<string, string>) => sender(routeById(id), path)),
};

/** Every route's 401 (no key) and, where it needs a scope, 403 (a key without it), with a valid request otherwise. */
for (const route of marketplaceRoutes) {
  const send = sender(route, { ActivityID: 's_walk1', Date: start, Time: '09:00', BookingReference: 'ABCDEFGHJK', ID: '1' });
  const body = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH' ? {} : undefined;
  const { scope } = route;
  cases[route.id] = { ...cases[route.id], 401: () => send({ key: undefined, body }) };
  if (scope !== ANY_KEY) cases[route.id][403] = async () => send({ key: await keyWithout(scope), body });
}

const documentedStatuses = (route: Route) =>
  Object.keys(document.paths[route.path][route.method.toLowerCase()].responses)
    .map(Number)
    .filter((status) => DRIVEN_STATUSES.includes(status));

test('every status a client can provoke, as documented for each route, has a case here, and no case is undocumented', () => {
  expect(Object.keys(cases).sort()).toEqual(marketplaceRoutes.map((route) => route.id).sort());
  for (const route of marketplaceRoutes) {
    expect({ route: route.id, statuses: Object.keys(cases[route.id]).map(Number).sort() }).toEqual({
      route: route.id,
      statuses: documentedStatuses(route).sort(),
    });
  }
});

describe.each(marketplaceRoutes.map((route) => ({ id: route.id, route })))('$id', ({ route }) => {
  test.each(Object.keys(cases[route.id]).map((status) => ({ status: Number(status) })))(
    'answers $status as documented',
    async ({ status }) => {
      const response = await cases[route.id][status]();
      expect({ status: response.status, body: response.json }).toMatchObject({ status });
      const documented = documentedResponse(document, route, status);
      expect(documented).toBeDefined();
      if (!documented || 'empty' in documented) {
        expect(response.text).toBe('');
        return;
      }
      expect(response.headers.get('content-type')).toBe(documented.contentType);
      expect(errorsOf(documented.segments, response.json)).toEqual([]);
    },
  );
});

describe('the API reference', () => {
  test(`GET ${OPENAPI_PATH} answers the document without a key`, async () => {
    const response = await request('GET', OPENAPI_PATH);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.json).toEqual(document);
  });

  test('GET /docs answers the Redoc page for the document, and its script from node_modules, without a key', async () => {
    const page = await request('GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.text).toContain(`data-spec-url="${OPENAPI_PATH}"`);
    const [bundlePath, initPath] = [...page.text.matchAll(/<script src="([^"]+)"><\/script>/g)].map((match) => match[1]);
    const script = await request('GET', bundlePath);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    // Redoc's bundle as installed, but for its CDN logo, which an empty image replaces.
    const logo = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
    expect(script.text.replace(/data:image\/svg\+xml,[^"]+/, logo)).toBe(
      readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8'),
    );
    expect((await request('GET', initPath)).text).toContain('Redoc.init(');
  });

  test('other methods on the document are not routes', async () => {
    const response = await request('POST', OPENAPI_PATH, { key: operator.key });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });
});
